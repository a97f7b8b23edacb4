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
  if (Array.isArray(value)) return mapCopy(value, (item) => visit(item, secrets, keep, depth + 1));
  const shape = value as Shape;
  let copy: Shape | undefined;
  const set = (key: string, clean: unknown) => {
    if (clean === shape[key]) return;
    copy ??= { ...shape };
    copy[key] = clean;
  };
  if (Array.isArray(shape.content)) set("content", redactContent(shape.content, secrets));
  if (typeof shape.message === "object") set("message", visit(shape.message, secrets, keep, depth + 1));
  if (Array.isArray(shape.settled_results))
    set("settled_results", redactContent(shape.settled_results, secrets));
  if (Array.isArray(shape.suspended_calls))
    set(
      "suspended_calls",
      mapCopy(shape.suspended_calls, (call) =>
        typeof call === "object" && call !== null && Array.isArray((call as Shape).history)
          ? withField(call as Shape, "history", visit((call as Shape).history, secrets, keep, depth + 1))
          : call,
      ),
    );
  return copy ?? value;
}

/** A content array with its joined text blocks redacted, and each tool result's blocks too. */
function redactContent(blocks: unknown[], secrets: readonly string[]): unknown[] {
  const joined = redactJoined(blocks, secrets);
  const results = mapCopy(joined, (block) => {
    const content = (block as { type?: unknown; content?: unknown } | null)?.content;
    if ((block as { type?: unknown }).type !== "tool_result" || !Array.isArray(content)) return block;
    return withField(block as Shape, "content", redactJoined(content, secrets));
  });
  return results;
}

/** `items` mapped, copied only when an item changes. */
function mapCopy(items: unknown[], map: (item: unknown) => unknown): unknown[] {
  let copy: unknown[] | undefined;
  for (let index = 0; index < items.length; index++) {
    const item = items[index];
    if (typeof item !== "object" || item === null) continue;
    const clean = map(item);
    if (clean !== item) {
      copy ??= items.slice();
      copy[index] = clean;
    }
  }
  return copy ?? items;
}

function withField(object: Shape, key: string, clean: unknown): Shape {
  return clean === object[key] ? object : { ...object, [key]: clean };
}

/** `blocks` with the secrets of its joined text blocks redacted (a copy), or `blocks` itself. */
function redactJoined(blocks: unknown[], secrets: readonly string[]): unknown[] {
  const texts: number[] = [];
  for (let index = 0; index < blocks.length; index++) if (isTextBlock(blocks[index])) texts.push(index);
  if (texts.length < 2) return blocks;
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
