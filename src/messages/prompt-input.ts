/**
 * Checking a prompt before it enters history. The Messages API refuses a message with empty
 * content anywhere but as the final assistant message, a block it does not know, an image it
 * cannot decode — and history is sent again on every later request, so a bad prompt recorded once
 * would make every later request of the conversation fail. Such a prompt is refused instead.
 * @module
 */
import { InvalidOptionError } from "../errors";
import { isWellFormedText, toPlainJson } from "../shared/plain-json";
import { isBlankText } from "./blank-text";
import type { ContentBlock } from "./types";

/** A prompt: text or content blocks. */
export type PromptInput = string | ContentBlock[];

/** The image media types the Messages API accepts. */
export const IMAGE_MEDIA_TYPES: readonly string[] = ["image/jpeg", "image/png", "image/gif", "image/webp"];

/** Blocks only the model writes: a prompt never holds them. */
const MODEL_ONLY_BLOCKS = new Set(["tool_use", "thinking", "redacted_thinking"]);

/** Standard base64, padded. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * What is wrong with `input` as a prompt, or `undefined` when it is a usable one: a string with
 * some non-blank text, or a non-empty array of text, image and tool_result blocks that JSON can
 * write — no blank text, images of a media type the API accepts with decodable base64. Whether a
 * tool_result answers a call of the history is checked when the prompt enters it.
 */
export function promptProblem(input: unknown): string | undefined {
  if (typeof input === "string") {
    if (input.trim() === "") return "is empty";
    return isWellFormedText(input)
      ? undefined
      : "holds a lone UTF-16 surrogate (half of a character), which is not text";
  }
  if (!Array.isArray(input))
    return `must be a string or an array of content blocks, got ${input === null ? "null" : typeof input}`;
  if (input.length === 0) return "has no content blocks";
  // Plain data first (nothing else read yet: a getter is refused before it can run).
  const plain = toPlainJson(input, "prompt");
  if (!plain.ok) return `cannot be kept in history as JSON (${plain.problem})`;
  for (const [index, block] of (plain.value as unknown[]).entries()) {
    const problem = blockProblem(block, `block ${index}`, true);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function blockProblem(block: unknown, where: string, topLevel: boolean): string | undefined {
  if (typeof block !== "object" || block === null || typeof (block as { type?: unknown }).type !== "string")
    return `${where} is not a content block (an object with a type)`;
  const { type } = block as { type: string };
  if (MODEL_ONLY_BLOCKS.has(type)) return `${where} is a ${type} block, which only the model writes`;
  if (type === "text")
    return isBlankText(block as { type: string }) ? `${where} is a text block without text` : undefined;
  if (type === "image") return imageProblem((block as { source?: unknown }).source, where);
  if (type === "tool_result" && topLevel) return toolResultProblem(block, where);
  return `${where} has the type "${type}", which a prompt cannot hold (text, image or tool_result)`;
}

function imageProblem(source: unknown, where: string): string | undefined {
  if (typeof source !== "object" || source === null) return `${where} is an image without a source`;
  const { type, media_type, data, url } = source as Record<string, unknown>;
  if (type === "url")
    return typeof url === "string" && url !== "" ? undefined : `${where} is an image without a url`;
  if (type !== "base64") return `${where} is an image whose source type is neither base64 nor url`;
  if (typeof media_type !== "string" || !IMAGE_MEDIA_TYPES.includes(media_type))
    return `${where} is an image of media type ${String(media_type)}; the API accepts ${IMAGE_MEDIA_TYPES.join(", ")}`;
  if (typeof data !== "string" || data === "" || !BASE64.test(data))
    return `${where} is an image whose data is not decodable base64`;
  return undefined;
}

function toolResultProblem(block: object, where: string): string | undefined {
  const { tool_use_id, content } = block as { tool_use_id?: unknown; content?: unknown };
  if (typeof tool_use_id !== "string" || tool_use_id === "")
    return `${where} is a tool_result without a tool_use_id`;
  if (content === undefined || typeof content === "string") return undefined;
  if (!Array.isArray(content)) return `${where} is a tool_result whose content is neither text nor blocks`;
  for (const [index, inner] of content.entries()) {
    const problem = blockProblem(inner, `${where}, item ${index} of its content,`, false);
    if (problem !== undefined) return problem;
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
    throw new InvalidOptionError(`The prompt ${problem}: the Messages API would refuse it.`);
}
