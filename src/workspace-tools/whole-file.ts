/**
 * Replacing the whole content of a file through an open descriptor, so the write lands in the file
 * that was verified, never in whatever its name leads to by then.
 * @module
 */
import type { FileHandle } from "node:fs/promises";

/** Writes `content` from the start of the file, then cuts the file to its length. */
export async function writeWholeFile(handle: FileHandle, content: Uint8Array): Promise<void> {
  let written = 0;
  while (written < content.length) {
    const { bytesWritten } = await handle.write(content, written, content.length - written, written);
    written += bytesWritten;
  }
  await handle.truncate(content.length);
}
