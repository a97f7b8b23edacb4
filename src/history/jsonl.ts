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
import { randomBytes } from "node:crypto";
import type { FileHandle } from "node:fs/promises";
import { mkdir, open, rename, stat, unlink } from "node:fs/promises";
import { dirname } from "node:path";
import { ConversationConflictError } from "../errors";
import type { ModelMessage } from "../messages/types";
import type { HistoryStore } from "./store";
import { createFileWriteLock, siblingPath } from "./store-kit/file-write-lock";
import { parseStoredMessage } from "./store-kit/message-codec";
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
 * Creates a history store that keeps one conversation in a JSON Lines file.
 *
 * @example
 * const agent = createAgent({
 *   model: "claude-sonnet-4-6",
 *   historyStore: createJsonlHistoryStore({ path: ".agent-sessions/ada.jsonl" }),
 * });
 */
export function createJsonlHistoryStore(options: JsonlHistoryStoreOptions): JsonlHistoryStore {
  if (typeof options?.path !== "string" || options.path === "") {
    throw new TypeError("createJsonlHistoryStore needs a non-empty `path`.");
  }
  const core = createVersionedStoreCore(createJsonlBackend(options), options);
  return {
    path: options.path,
    failOnError: core.failOnError,
    load: core.load,
    append: core.append,
    replace: core.replace,
    close: core.close,
  };
}

/** The file as a writer last saw it: absent, or an inode of some size. */
type FileVersion =
  | { exists: false }
  | { exists: true; inode: number; size: number; endsWithNewline: boolean };

const NEWLINE = 0x0a;
const ABSENT: FileVersion = { exists: false };

function createJsonlBackend(options: JsonlHistoryStoreOptions): VersionedBackend {
  const path = options.path;
  const lock = createFileWriteLock(
    siblingPath(path, ".lock"),
    options.staleLockMs ?? DEFAULT_JSONL_STALE_LOCK_MS,
  );
  let directoryReady = false;
  let expected: FileVersion | undefined;
  let appendHandle: { handle: FileHandle; inode: number } | undefined;
  let partialWriteLeft = false;

  async function ensureDirectory(): Promise<void> {
    if (directoryReady) return;
    await mkdir(dirname(path), { recursive: true });
    directoryReady = true;
  }

  async function load(): Promise<ModelMessage[]> {
    const { version, content } = await readWholeFile(path);
    expected = version;
    partialWriteLeft = false;
    return parseLines(content);
  }

  /** Checks the file is still the one this store saw; returns the version to write against. */
  async function checkVersion(): Promise<FileVersion> {
    if (partialWriteLeft) {
      throw new Error(
        `A failed append left a partial line in ${path} that could not be undone; load() or replace() first.`,
      );
    }
    if (expected === undefined) return (expected = await readFileVersion(path));
    const current = await statVersion(path);
    const difference = describeDifference(expected, current);
    if (difference) throw new ConversationConflictError(path, difference);
    return expected;
  }

  async function handleFor(version: FileVersion): Promise<FileHandle> {
    if (appendHandle && version.exists && appendHandle.inode === version.inode) return appendHandle.handle;
    await closeAppendHandle();
    const handle = await open(path, "a", 0o600);
    appendHandle = { handle, inode: (await handle.stat()).ino };
    return handle;
  }

  async function closeAppendHandle(): Promise<void> {
    const current = appendHandle;
    appendHandle = undefined;
    await current?.handle.close();
  }

  async function append(serializedMessages: readonly string[]): Promise<void> {
    await ensureDirectory();
    await lock.hold(async () => {
      const version = await checkVersion();
      const handle = await handleFor(version);
      const startsOnNewLine = !version.exists || version.endsWithNewline;
      const data = Buffer.from(`${startsOnNewLine ? "" : "\n"}${serializedMessages.join("\n")}\n`, "utf8");
      const sizeBefore = version.exists ? version.size : 0;
      try {
        await writeAll(handle, data);
        if (options.fsync) await handle.sync();
      } catch (error) {
        await undoPartialWrite(handle, sizeBefore);
        throw error;
      }
      expected = {
        exists: true,
        inode: appendHandle!.inode,
        size: sizeBefore + data.length,
        endsWithNewline: true,
      };
    });
  }

  async function undoPartialWrite(handle: FileHandle, size: number): Promise<void> {
    try {
      await handle.truncate(size);
    } catch {
      // The file now ends in bytes of ours that may hold whole lines: retrying would duplicate them.
      // Appends stay refused until load() or replace(); a replace adopts the file as it is.
      partialWriteLeft = true;
      expected = undefined;
    }
  }

  async function replace(serializedMessages: readonly string[]): Promise<void> {
    await ensureDirectory();
    await lock.hold(async () => {
      if (!partialWriteLeft) await checkVersion();
      const content = serializedMessages.map((line) => `${line}\n`).join("");
      await writeFileAtomically(path, content);
      await closeAppendHandle();
      expected = await statVersion(path);
      partialWriteLeft = false;
    });
  }

  return { load, append, replace, close: closeAppendHandle };
}

/** The UTF-8 byte order mark some editors put at the start of a file they save. */
const BYTE_ORDER_MARK = Buffer.from([0xef, 0xbb, 0xbf]);

function parseLines(content: Buffer): ModelMessage[] {
  const messages: ModelMessage[] = [];
  // A byte order mark would make the first line invalid JSON, and its message would be skipped.
  let start = content.subarray(0, 3).equals(BYTE_ORDER_MARK) ? 3 : 0;
  while (start < content.length) {
    let end = content.indexOf(NEWLINE, start);
    if (end === -1) end = content.length;
    if (end > start) {
      const message = parseStoredMessage(content.toString("utf8", start, end));
      if (message) messages.push(message);
    }
    start = end + 1;
  }
  return messages;
}

async function readWholeFile(path: string): Promise<{ version: FileVersion; content: Buffer }> {
  let handle: FileHandle;
  try {
    handle = await open(path, "r");
  } catch (error) {
    if (isErrorCode(error, "ENOENT")) return { version: ABSENT, content: Buffer.alloc(0) };
    throw error;
  }
  try {
    const { ino, size } = await handle.stat();
    const content = Buffer.alloc(size);
    let offset = 0;
    while (offset < size) {
      const { bytesRead } = await handle.read(content, offset, size - offset, offset);
      if (bytesRead === 0) break;
      offset += bytesRead;
    }
    const endsWithNewline = offset === 0 || content[offset - 1] === NEWLINE;
    return {
      version: { exists: true, inode: ino, size: offset, endsWithNewline },
      content: content.subarray(0, offset),
    };
  } finally {
    await handle.close();
  }
}

/** The version of the file as it is now, including whether it ends on a line break. */
async function readFileVersion(path: string): Promise<FileVersion> {
  let handle: FileHandle;
  try {
    handle = await open(path, "r");
  } catch (error) {
    if (isErrorCode(error, "ENOENT")) return ABSENT;
    throw error;
  }
  try {
    const { ino, size } = await handle.stat();
    if (size === 0) return { exists: true, inode: ino, size, endsWithNewline: true };
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return { exists: true, inode: ino, size, endsWithNewline: last[0] === NEWLINE };
  } finally {
    await handle.close();
  }
}

async function statVersion(path: string): Promise<FileVersion> {
  try {
    const { ino, size } = await stat(path);
    return { exists: true, inode: ino, size, endsWithNewline: true };
  } catch (error) {
    if (isErrorCode(error, "ENOENT")) return ABSENT;
    throw error;
  }
}

function describeDifference(expected: FileVersion, current: FileVersion): string | undefined {
  if (!expected.exists) return current.exists ? "the file was created by another writer" : undefined;
  if (!current.exists) return "the file was deleted";
  if (current.inode !== expected.inode) return "the file was replaced by another writer";
  if (current.size !== expected.size) return `the file is ${current.size} bytes, expected ${expected.size}`;
  return undefined;
}

async function writeAll(handle: FileHandle, data: Buffer): Promise<void> {
  let offset = 0;
  while (offset < data.length) {
    const { bytesWritten } = await handle.write(data, offset, data.length - offset);
    offset += bytesWritten;
  }
}

async function writeFileAtomically(path: string, content: string): Promise<void> {
  const temporaryPath = siblingPath(path, `.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    const handle = await open(temporaryPath, "wx", 0o600);
    try {
      await handle.writeFile(content, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporaryPath, path);
  } catch (error) {
    await unlink(temporaryPath).catch(() => undefined);
    throw error;
  }
  await syncDirectory(dirname(path));
}

/** Makes a rename durable. Best effort: some file systems cannot fsync a directory. */
async function syncDirectory(directory: string): Promise<void> {
  try {
    const handle = await open(directory, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // The rename itself is atomic; only its durability across a power loss depends on this.
  }
}

function isErrorCode(error: unknown, code: string): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === code;
}
