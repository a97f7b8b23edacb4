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

type Block = { type: "text"; text: string };

/**
 * `blocks` with the secrets of its joined text blocks redacted (a copy), or `blocks` itself: an
 * array of fewer than two text blocks costs a few property reads. `redactMessage` applies it to
 * every array of the message in its one walk (a content array, a tool result's, a pause marker's).
 */
export function redactAcrossBlocks(blocks: unknown[], secrets: readonly string[]): unknown[] {
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
