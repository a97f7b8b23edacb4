/**
 * A window of a JSONL transcript without parsing all of it: the file is split into lines (a byte
 * scan), a line counts as a message when it is shaped like one JSON object (`{` … `}`), and only
 * the window's lines are parsed. A line in the window that does not parse after all (a write torn
 * just after a `}`) makes the read exact the slow way: every line parsed, as `load()` does.
 * @module
 */
import type { ModelMessage } from "../messages/types";
import { type HistoryRange, type HistoryWindow, sliceWindow, windowBounds } from "./history-window";
import { parseLines } from "./jsonl-file";
import { parseStoredMessage } from "./store-kit/message-codec";

const NEWLINE = 0x0a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
/** Bytes that may pad a line: space, tab, carriage return. */
const PADDING = new Set([0x20, 0x09, 0x0d]);
const BYTE_ORDER_MARK = Buffer.from([0xef, 0xbb, 0xbf]);

/** The window `range` of the transcript `content`. */
export function windowOfLines(content: Buffer, range: HistoryRange): HistoryWindow {
  const lines = objectLines(content);
  const total = lines.length / 2;
  const { start, end } = windowBounds(total, range);
  const messages: ModelMessage[] = [];
  for (let index = start; index < end; index++) {
    const message = parseStoredMessage(content.toString("utf8", lines[2 * index]!, lines[2 * index + 1]!));
    if (!message) return sliceWindow(parseLines(content), range);
    messages.push(message);
  }
  return { messages, from: start, total };
}

/** Start and end offsets (flat pairs) of the lines shaped like a JSON object. */
function objectLines(content: Buffer): number[] {
  const offsets: number[] = [];
  let start = content.subarray(0, 3).equals(BYTE_ORDER_MARK) ? 3 : 0;
  while (start < content.length) {
    let end = content.indexOf(NEWLINE, start);
    if (end === -1) end = content.length;
    let first = start;
    let last = end - 1;
    while (first <= last && PADDING.has(content[first]!)) first++;
    while (last >= first && PADDING.has(content[last]!)) last--;
    if (last > first && content[first] === OPEN_BRACE && content[last] === CLOSE_BRACE)
      offsets.push(first, last + 1);
    start = end + 1;
  }
  return offsets;
}
