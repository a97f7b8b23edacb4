/**
 * Reading text files line by line, without holding a whole huge file (or line) in memory, and
 * telling binary files apart.
 * @module
 */
import type { FileHandle } from "node:fs/promises";
import { StringDecoder } from "node:string_decoder";

/** How many leading bytes are inspected to decide whether a file is binary (as git does). */
export const BINARY_SNIFF_BYTES = 8_000;

const CHUNK_BYTES = 64 * 1024;

/** Whether the file's first bytes hold a NUL byte, which text files never do. */
export async function looksBinary(handle: FileHandle): Promise<boolean> {
  const buffer = Buffer.alloc(BINARY_SNIFF_BYTES);
  const { bytesRead } = await handle.read(buffer, 0, BINARY_SNIFF_BYTES, 0);
  return buffer.subarray(0, bytesRead).includes(0);
}

/** One line of a text file. */
export interface TextLine {
  /** 1-based line number. */
  number: number;
  /** The line without its line ending, at most `maxLineChars` characters of it. */
  text: string;
  /** The full length of the line in characters (larger than `text.length` when it was cut). */
  length: number;
}

/**
 * The lines of an open file, from its start. `\n` and `\r\n` end lines; a final line without a
 * line ending counts, an empty one after the last line ending does not. Stops with the signal's
 * reason when it aborts.
 */
export async function* readTextLines(
  handle: FileHandle,
  options: { maxLineChars?: number; signal?: AbortSignal } = {},
): AsyncGenerator<TextLine> {
  const maxLineChars = options.maxLineChars ?? Number.POSITIVE_INFINITY;
  const decoder = new StringDecoder("utf8");
  const buffer = Buffer.alloc(CHUNK_BYTES);
  let position = 0;
  let line = { text: "", length: 0, endsWithCarriageReturn: false };
  let number = 0;
  const append = (piece: string) => {
    if (piece.length === 0) return;
    if (line.text.length < maxLineChars) line.text += piece.slice(0, maxLineChars - line.text.length);
    line.length += piece.length;
    line.endsWithCarriageReturn = piece.endsWith("\r");
  };
  const finish = (): TextLine => {
    const finished = line;
    line = { text: "", length: 0, endsWithCarriageReturn: false };
    number++;
    if (!finished.endsWithCarriageReturn) return { number, text: finished.text, length: finished.length };
    const text = finished.text.length === finished.length ? finished.text.slice(0, -1) : finished.text;
    return { number, text, length: finished.length - 1 };
  };
  for (;;) {
    options.signal?.throwIfAborted();
    const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const chunk = decoder.write(buffer.subarray(0, bytesRead));
    let start = 0;
    for (let newline = chunk.indexOf("\n"); newline !== -1; newline = chunk.indexOf("\n", start)) {
      append(chunk.slice(start, newline));
      yield finish();
      start = newline + 1;
    }
    append(chunk.slice(start));
  }
  append(decoder.end());
  if (line.length > 0) yield finish();
}
