/**
 * Checking a prompt before it enters history. The Messages API refuses a message with empty
 * content anywhere but as the final assistant message, so an empty prompt recorded once would make
 * every later request of the conversation fail.
 * @module
 */
import { InvalidOptionError } from "../errors";
import { isBlankText } from "./blank-text";
import type { ContentBlock } from "./types";

/** A prompt: text or content blocks. */
export type PromptInput = string | ContentBlock[];

/**
 * What is wrong with `input` as a prompt, or `undefined` when it is a usable one: a string with
 * some non-blank text, or a non-empty array of content blocks (objects with a string `type`) whose
 * text blocks are not blank.
 */
export function promptProblem(input: unknown): string | undefined {
  if (typeof input === "string") return input.trim() === "" ? "is empty" : undefined;
  if (!Array.isArray(input))
    return `must be a string or an array of content blocks, got ${input === null ? "null" : typeof input}`;
  if (input.length === 0) return "has no content blocks";
  for (const [index, block] of input.entries()) {
    if (typeof block !== "object" || block === null || typeof block.type !== "string")
      return `block ${index} is not a content block (an object with a type)`;
    if (isBlankText(block)) return `block ${index} is a text block without text`;
  }
  return undefined;
}

/**
 * Throws when `input` cannot be sent as a prompt (see {@link promptProblem}).
 * @throws InvalidOptionError
 */
export function assertPrompt(input: unknown): void {
  const problem = promptProblem(input);
  if (problem !== undefined)
    throw new InvalidOptionError(
      `The prompt ${problem}: the Messages API refuses a message without content.`,
    );
}
