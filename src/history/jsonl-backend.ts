/**
 * The file storage of {@link createJsonlHistoryStore} (see `jsonl.ts` for the guarantees): loaded
 * on a store's first operation, so that the root entry imports no Node built-in at import.
 * @module
 */
import type { FileHandle } from "node:fs/promises";
import { mkdir, open } from "node:fs/promises";
import { dirname } from "node:path";
import { ConversationConflictError } from "../errors";
import type { ModelMessage } from "../messages/types";
import type { HistoryRange, HistoryWindow } from "./history-window";
import {
  describeDifference,
  type FileVersion,
  parseLines,
  readFileVersion,
  readWholeFile,
  statVersion,
  writeAll,
  writeFileAtomically,
} from "./jsonl-file";
import { windowOfLines } from "./jsonl-window";
import { createFileWriteLock, type FileWriteLock, siblingPath } from "./store-kit/file-write-lock";
import type { VersionedBackend } from "./store-kit/versioned-store";

/** What the backend is built with: the store's options, the lock's staleness settled. */
export interface JsonlBackendOptions {
  path: string;
  fsync?: boolean;
  staleLockMs: number;
}

/** The storage of the transcript behind the versioned store core: the file's version is the store's. */
export class JsonlBackend implements VersionedBackend {
  private readonly path: string;
  private readonly lock: FileWriteLock;
  private directoryReady = false;
  private expected: FileVersion | undefined;
  private appendHandle: { handle: FileHandle; inode: number } | undefined;
  private partialWriteLeft = false;

  constructor(private readonly options: JsonlBackendOptions) {
    this.path = options.path;
    this.lock = createFileWriteLock(siblingPath(this.path, ".lock"), options.staleLockMs);
  }

  async load(): Promise<ModelMessage[]> {
    const { version, content } = await readWholeFile(this.path);
    this.expected = version;
    this.partialWriteLeft = false;
    return parseLines(content);
  }

  /** A window of the file as it is now; the version this store writes against stays as it was. */
  async loadRange(range: HistoryRange): Promise<HistoryWindow> {
    const { content } = await readWholeFile(this.path);
    return windowOfLines(content, range);
  }

  async append(serializedMessages: readonly string[]): Promise<void> {
    await this.ensureDirectory();
    await this.lock.hold(async () => {
      const version = await this.checkVersion();
      const handle = await this.handleFor(version);
      const startsOnNewLine = !version.exists || version.endsWithNewline;
      const data = Buffer.from(`${startsOnNewLine ? "" : "\n"}${serializedMessages.join("\n")}\n`, "utf8");
      const sizeBefore = version.exists ? version.size : 0;
      try {
        await writeAll(handle, data);
        if (this.options.fsync) await handle.sync();
      } catch (error) {
        await this.undoPartialWrite(handle, sizeBefore);
        throw error;
      }
      this.expected = {
        exists: true,
        inode: this.appendHandle!.inode,
        size: sizeBefore + data.length,
        endsWithNewline: true,
      };
    });
  }

  async replace(serializedMessages: readonly string[]): Promise<void> {
    await this.ensureDirectory();
    await this.lock.hold(async () => {
      if (!this.partialWriteLeft) await this.checkVersion();
      const content = serializedMessages.map((line) => `${line}\n`).join("");
      await writeFileAtomically(this.path, content);
      await this.closeAppendHandle();
      this.expected = await statVersion(this.path);
      this.partialWriteLeft = false;
    });
  }

  close(): Promise<void> {
    return this.closeAppendHandle();
  }

  private async ensureDirectory(): Promise<void> {
    if (this.directoryReady) return;
    await mkdir(dirname(this.path), { recursive: true });
    this.directoryReady = true;
  }

  /** Checks the file is still the one this store saw; returns the version to write against. */
  private async checkVersion(): Promise<FileVersion> {
    if (this.partialWriteLeft) {
      throw new Error(
        `A failed append left a partial line in ${this.path} that could not be undone; load() or replace() first.`,
      );
    }
    if (this.expected === undefined) return (this.expected = await readFileVersion(this.path));
    const current = await statVersion(this.path);
    const difference = describeDifference(this.expected, current);
    if (difference) throw new ConversationConflictError(this.path, difference);
    return this.expected;
  }

  /** The append handle of the file `version` names, opened anew when the file is another one now. */
  private async handleFor(version: FileVersion): Promise<FileHandle> {
    const current = this.appendHandle;
    if (current && version.exists && current.inode === version.inode) return current.handle;
    await this.closeAppendHandle();
    const handle = await open(this.path, "a", 0o600);
    this.appendHandle = { handle, inode: (await handle.stat()).ino };
    return handle;
  }

  private async closeAppendHandle(): Promise<void> {
    const current = this.appendHandle;
    this.appendHandle = undefined;
    await current?.handle.close();
  }

  private async undoPartialWrite(handle: FileHandle, size: number): Promise<void> {
    try {
      await handle.truncate(size);
    } catch {
      // The file now ends in bytes of ours that may hold whole lines: retrying would duplicate them.
      // Appends stay refused until load() or replace(); a replace adopts the file as it is.
      this.partialWriteLeft = true;
      this.expected = undefined;
    }
  }
}
