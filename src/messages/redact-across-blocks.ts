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
const MAX_DEPTH = 24;

type Block = { type: "text"; text: string };

/**
 * `value` with every secret split across the text blocks of one content array redacted; the same
 * value (no copy) when there is none. Plain objects and arrays are walked (tool inputs and what
 * `keep` names are not: they are no content arrays), copied along the path to each change only.
 */
export function redactAcrossBlocks<V>(value: V, secrets: readonly string[], keep: KeepAsIs): V {
  const visit = (current: unknown, depth: number): unknown => {
    if (typeof current !== "object" || current === null || depth > MAX_DEPTH || keep(current)) return current;
    if (Array.isArray(current)) {
      const joined = redactJoined(current, secrets);
      let copy: unknown[] | undefined;
      for (let index = 0; index < joined.length; index++) {
        const item = joined[index];
        const clean = visit(item, depth + 1);
        if (clean !== item) {
          copy ??= joined === current ? current.slice() : joined;
          copy[index] = clean;
        }
      }
      return copy ?? joined;
    }
    if (!isPlainObject(current)) return current;
    let copy: Record<string, unknown> | undefined;
    for (const key in current) {
      if (key === "input") continue; // a tool call's input: JSON of the tool's own, never joined
      const item = (current as Record<string, unknown>)[key];
      if (typeof item !== "object" || item === null) continue;
      const clean = visit(item, depth + 1);
      if (clean !== item) {
        copy ??= { ...current };
        copy[key] = clean;
      }
    }
    return copy ?? current;
  };
  return visit(value, 0) as V;
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

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
