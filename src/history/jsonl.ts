/**
 * `createJsonlHistoryStore`: one conversation in one file, one JSON message per line.
 *
 * - **Append-only.** An append is one `write` at the end of the file (O(1) per message); the file is
 *   never rewritten on append.
 * - **Torn tails are harmless.** Load skips lines that are not a JSON message, so a write cut short
 *   by a crash loses at most that line; the next append starts on a new line so it never glues onto
 *   the fragment.
 * - **Atomic replace.** The new transcript is written to a temporary file in the same folder,
 *   fsynced, and renamed over the old one: a crash leaves the old transcript or the new, never a mix.
 * - **One writer per conversation, across processes: optimistic versioning.** The file's identity
 *   and size at `load()` are the version this store expects. Every write takes a short exclusive
 *   lock (`<path>.lock`, a symlink created atomically whose target names pid, host and a token; a
 *   hard-linked file where symlinks are not allowed), checks that the file is still the one it
 *   loaded (same inode, same size — or absent if it was absent), writes, and releases the lock. A writer whose view is stale — another Agent appended or replaced since its
 *   load — gets {@link ConversationConflictError} naming the path and writes nothing. The lock is
 *   held only for the duration of one write, so an Agent that is never closed blocks nobody. A lock
 *   left by a killed process is stale once its pid is dead (same host) or it is older than
 *   `staleLockMs` (any host).
 *
 * Files are created with mode 0600 (transcripts hold user data); parent folders are created.
 * @module
 */

import type { FileHandle } from "node:fs/promises";
import { mkdir, open } from "node:fs/promises";
import { dirname } from "node:path";
import { ConversationConflictError } from "../errors";
import type { ModelMessage } from "../messages/types";
import { assertKnownOptions } from "../shared/known-options";
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
import type { HistoryStore } from "./store";
import { createFileWriteLock, type FileWriteLock, siblingPath } from "./store-kit/file-write-lock";
import { createVersionedStoreCore, type VersionedBackend } from "./store-kit/versioned-store";

/** How long a write lock may be held before another writer treats it as abandoned. */
export const DEFAULT_JSONL_STALE_LOCK_MS = 30_000;

/** Options of {@link createJsonlHistoryStore}. */
export interface JsonlHistoryStoreOptions {
  /** The transcript file. Parent folders are created on the first write. */
  path: string;
  /** Propagate store failures out of `query()` / `prompt()`. @default false */
  failOnError?: boolean;
  /**
   * fsync the file after every append, so appended messages survive a power loss (a killed process
   * never loses them either way). `replace` always fsyncs. @default false
   */
  fsync?: boolean;
  /**
   * A write lock older than this (milliseconds) is abandoned and may be broken, whatever host holds
   * it. A lock whose process is dead on this host is broken at once. @default 30_000
   */
  staleLockMs?: number;
}

/** A JSONL history store. */
export interface JsonlHistoryStore extends HistoryStore {
  /** The transcript file, as given. */
  readonly path: string;
  readonly failOnError: boolean;
  /** Closes the append handle. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Every option name of `createJsonlHistoryStore` — the one list to extend when an option is added; any other
 * name is refused, naming the closest of these.
 */
export const JSONL_STORE_OPTION_NAMES: readonly string[] = ["path", "failOnError", "fsync", "staleLockMs"];

/**
 * Creates a history store that keeps one conversation in a JSON Lines file.
 *
 * @example
 * const agent = createAgent({
 *   model: "claude-sonnet-4-6",
 *   historyStore: createJsonlHistoryStore({ path: ".agent-sessions/ada.jsonl" }),
 * });
 */
export function createJsonlHistoryStore(options: JsonlHistoryStoreOptions): JsonlHistoryStore {
  assertKnownOptions("createJsonlHistoryStore", options, JSONL_STORE_OPTION_NAMES);
  if (typeof options?.path !== "string" || options.path === "") {
    throw new TypeError("createJsonlHistoryStore needs a non-empty `path`.");
  }
  const core = createVersionedStoreCore(new JsonlBackend(options), options);
  return {
    path: options.path,
    failOnError: core.failOnError,
    load: core.load,
    append: core.append,
    replace: core.replace,
    close: core.close,
  };
}

/** The storage of the transcript behind the versioned store core: the file's version is the store's. */
class JsonlBackend implements VersionedBackend {
  private readonly path: string;
  private readonly lock: FileWriteLock;
  private directoryReady = false;
  private expected: FileVersion | undefined;
  private appendHandle: { handle: FileHandle; inode: number } | undefined;
  private partialWriteLeft = false;

  constructor(private readonly options: JsonlHistoryStoreOptions) {
    this.path = options.path;
    this.lock = createFileWriteLock(
      siblingPath(this.path, ".lock"),
      options.staleLockMs ?? DEFAULT_JSONL_STALE_LOCK_MS,
    );
  }

  async load(): Promise<ModelMessage[]> {
    const { version, content } = await readWholeFile(this.path);
    this.expected = version;
    this.partialWriteLeft = false;
    return parseLines(content);
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
