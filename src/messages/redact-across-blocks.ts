/**
 * Secrets split across text blocks. A model (or a tool) can write a secret in two pieces — the end
 * of one text block and the start of the next — and each block alone holds none. The text blocks
 * of one content array (an assistant message's, a prompt's, one tool result's) are read joined, the
 * way the model receives them, and every secret found in the joined text is mapped back: each block
 * it touches has its part of it replaced by `[redacted]` (so no block is left empty).
 *
 * The joined text is the blocks' texts in order, with nothing between them, other blocks (tool
 * calls, images) skipped: a secret interrupted by a tool call or an image is still found; one split
 * with a separator in between (`sk-ant-ab` / `\ncd`) is not a secret in any text anyone reads whole.
 * @module
 */
import { mayHoldSecret, REDACTED, secretRanges } from "../shared/redact";
import type { KeepAsIs } from "../shared/redact-value";

/** Nesting the walk follows (messages inside pause markers inside SDK messages stay well within it). */
const MAX_DEPTH = 8;

type Block = { type: "text"; text: string };
type Shape = Record<string, unknown>;

/**
 * `value` with every secret split across the text blocks of one content array redacted; the same
 * value (no copy) when there is none. Only where content arrays live is looked at — a message's
 * `content` (and each tool result's in it), an SDK message's `message`, a pause marker's settled
 * results and its children's histories, arrays of these — so the walk costs a few property reads
 * per message; what `keep` names is left alone.
 */
export function redactAcrossBlocks<V>(value: V, secrets: readonly string[], keep: KeepAsIs): V {
  return visit(value, secrets, keep, 0) as V;
}

function visit(value: unknown, secrets: readonly string[], keep: KeepAsIs, depth: number): unknown {
  if (typeof value !== "object" || value === null || depth > MAX_DEPTH || keep(value)) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const clean = visit(value[index], secrets, keep, depth + 1);
      if (clean !== value[index]) (copy ??= value.slice())[index] = clean;
    }
    return copy ?? value;
  }
  const shape = value as Shape;
  let copy: Shape | undefined;
  const { content, message } = shape;
  if (Array.isArray(content)) {
    const clean = redactContent(content, secrets);
    if (clean !== content) copy = { ...shape, content: clean };
  }
  if (typeof message === "object" && message !== null) {
    const clean = visit(message, secrets, keep, depth + 1);
    if (clean !== message) copy = { ...(copy ?? shape), message: clean };
  }
  if (shape.settled_results === undefined && shape.suspended_calls === undefined) return copy ?? value;
  return markerParts(copy ?? shape, secrets, keep, depth);
}

/** A pause marker's settled results and its children's histories. */
function markerParts(shape: Shape, secrets: readonly string[], keep: KeepAsIs, depth: number): Shape {
  let copy: Shape | undefined;
  const { settled_results: settled, suspended_calls: suspended } = shape;
  if (Array.isArray(settled)) {
    const clean = redactContent(settled, secrets);
    if (clean !== settled) copy = { ...shape, settled_results: clean };
  }
  if (Array.isArray(suspended)) {
    let calls: unknown[] | undefined;
    for (let index = 0; index < suspended.length; index++) {
      const call = suspended[index] as Shape | null;
      const history = call?.history;
      if (!Array.isArray(history)) continue;
      const clean = visit(history, secrets, keep, depth + 1);
      if (clean !== history) (calls ??= suspended.slice())[index] = { ...call, history: clean };
    }
    if (calls) copy = { ...(copy ?? shape), suspended_calls: calls };
  }
  return copy ?? shape;
}

/** A content array with its joined text blocks redacted, and each tool result's blocks too. */
function redactContent(blocks: unknown[], secrets: readonly string[]): unknown[] {
  let copy: unknown[] | undefined;
  const joined = redactJoined(blocks, secrets);
  for (let index = 0; index < joined.length; index++) {
    const block = joined[index] as { type?: unknown; content?: unknown } | null;
    if (block?.type !== "tool_result" || !Array.isArray(block.content)) continue;
    const clean = redactJoined(block.content, secrets);
    if (clean !== block.content) (copy ??= joined.slice())[index] = { ...block, content: clean };
  }
  return copy ?? joined;
}

/** `blocks` with the secrets of its joined text blocks redacted (a copy), or `blocks` itself. */
function redactJoined(blocks: unknown[], secrets: readonly string[]): unknown[] {
  let count = 0;
  for (let index = 0; index < blocks.length && count < 2; index++) if (isTextBlock(blocks[index])) count++;
  if (count < 2) return blocks; // the common case: nothing allocated
  const texts: number[] = [];
  for (let index = 0; index < blocks.length; index++) if (isTextBlock(blocks[index])) texts.push(index);
  const joined = texts.map((index) => (blocks[index] as Block).text).join("");
  if (!mayHoldSecret(joined, secrets)) return blocks;
  const ranges = secretRanges(joined, secrets);
  if (ranges.length === 0) return blocks;
  const copy = blocks.slice();
  let start = 0;
  for (const index of texts) {
    const block = blocks[index] as Block;
    const end = start + block.text.length;
    const text = redactSpans(block.text, start, ranges);
    if (text !== block.text) copy[index] = { ...block, text };
    start = end;
  }
  return copy;
}

/** `text` (which starts at `offset` of the joined text) with its parts of `ranges` replaced. */
function redactSpans(text: string, offset: number, ranges: ReadonlyArray<[number, number]>): string {
  let out = "";
  let at = 0;
  for (const [from, to] of ranges) {
    const start = Math.max(from - offset, 0);
    const end = Math.min(to - offset, text.length);
    if (end <= 0 || start >= text.length || end <= start) continue;
    out += text.slice(at, start) + REDACTED;
    at = end;
  }
  return at === 0 && out === "" ? text : out + text.slice(at);
}

function isTextBlock(value: unknown): value is Block {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { type?: unknown }).type === "text" &&
    typeof (value as { text?: unknown }).text === "string"
  );
}
