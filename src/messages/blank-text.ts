/**
 * Blank text blocks, which the Messages API refuses ("text content blocks must be non-empty"): kept in
 * history once, one would fail every later request of the conversation.
 * @module
 */

/** Whether `block` is a text block without any text but whitespace (or without a string `text`). */
export function isBlankText(block: { type: string; text?: unknown }): boolean {
  return block.type === "text" && !(typeof block.text === "string" && /\S/.test(block.text));
}
