/**
 * The file side of the JSONL store: a transcript's version (absent, or an inode of some size, and
 * whether it ends on a line break), reading it whole, its lines as messages, writing all of a
 * buffer, and replacing a file atomically (temporary file, fsync, rename, directory fsync).
 * @module
 */
import { randomBytes } from "node:crypto";
import type { FileHandle } from "node:fs/promises";
import { open, rename, stat, unlink } from "node:fs/promises";
import { dirname } from "node:path";
import type { ModelMessage } from "../messages/types";
import { siblingPath } from "./store-kit/file-write-lock";
import { parseStoredMessage } from "./store-kit/message-codec";

/** The file as a writer last saw it: absent, or an inode of some size. */
export type FileVersion =
  | { exists: false }
  | { exists: true; inode: number; size: number; endsWithNewline: boolean };

/** The line break, as a byte. */
const NEWLINE = 0x0a;
/** The version of a file that does not exist. */
export const ABSENT: FileVersion = { exists: false };

/** The UTF-8 byte order mark some editors put at the start of a file they save. */
const BYTE_ORDER_MARK = Buffer.from([0xef, 0xbb, 0xbf]);

/** The messages of a transcript, one per line; a line that is not a JSON message (a torn tail) is skipped. */
export function parseLines(content: Buffer): ModelMessage[] {
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

/** The whole file and its version (absent: no content). */
export async function readWholeFile(path: string): Promise<{ version: FileVersion; content: Buffer }> {
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
export async function readFileVersion(path: string): Promise<FileVersion> {
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

/** The version of the file from its metadata only: inode and size (a line break at its end is assumed). */
export async function statVersion(path: string): Promise<FileVersion> {
  try {
    const { ino, size } = await stat(path);
    return { exists: true, inode: ino, size, endsWithNewline: true };
  } catch (error) {
    if (isErrorCode(error, "ENOENT")) return ABSENT;
    throw error;
  }
}

/** How `current` differs from the `expected` version, in words; `undefined` when it is the same file. */
export function describeDifference(expected: FileVersion, current: FileVersion): string | undefined {
  if (!expected.exists) return current.exists ? "the file was created by another writer" : undefined;
  if (!current.exists) return "the file was deleted";
  if (current.inode !== expected.inode) return "the file was replaced by another writer";
  if (current.size !== expected.size) return `the file is ${current.size} bytes, expected ${expected.size}`;
  return undefined;
}

/** Writes all of `data` at the end of the file (a single `write` may write less). */
export async function writeAll(handle: FileHandle, data: Buffer): Promise<void> {
  let offset = 0;
  while (offset < data.length) {
    const { bytesWritten } = await handle.write(data, offset, data.length - offset);
    offset += bytesWritten;
  }
}

/** Replaces `path` with `content`: written aside, fsynced and renamed over it, so a crash leaves one or the other. */
export async function writeFileAtomically(path: string, content: string): Promise<void> {
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

/** Whether `error` carries the Node error code `code`. */
function isErrorCode(error: unknown, code: string): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === code;
}
