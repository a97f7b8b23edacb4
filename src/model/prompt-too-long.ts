/**
 * Recognising a context-window overflow in what a model client threw, across the wordings and codes
 * of the common Anthropic-compatible providers.
 * @module
 */
import { collectErrorText, readErrorCodes, readErrorType, readStatus } from "./provider-error-fields";

/**
 * Whether `error` is an API error saying the prompt no longer fits the model's context window
 * (so compacting the history and retrying can help). Recognises the wordings of Anthropic
 * ("prompt is too long: 210000 tokens > 200000 maximum"), DeepSeek and OpenAI-style endpoints
 * ("maximum context length is … tokens", `context_length_exceeded`), Moonshot/Kimi ("exceeded model
 * token limit"), Zhipu GLM ("Prompt exceeds max length", code 1261), MiniMax ("context window
 * exceeds limit"), and generic ones ("input is too long", "too many tokens"). Rate-limit errors that
 * talk about tokens per minute are not overflows.
 */
export function isPromptTooLongError(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const status = readStatus(error);
  if (status !== undefined && status !== 400 && status !== 413 && status !== 422) return false;
  const errorType = readErrorType(error);
  if (errorType === "rate_limit_error") return false;
  const text = collectErrorText(error);
  if (RATE_LIMIT_WORDING.test(text)) return false;
  if (PROMPT_TOO_LONG_CODES.some((code) => readErrorCodes(error).includes(code))) return true;
  return PROMPT_TOO_LONG_WORDINGS.some((pattern) => pattern.test(text));
}

/** Wordings of a prompt that exceeds the context window, across providers. */
const PROMPT_TOO_LONG_WORDINGS: RegExp[] = [
  /prompt is too long/i, // Anthropic
  /maximum context length is \d+/i, // OpenAI, DeepSeek, vLLM
  /maximum prompt length is \d+/i, // xAI
  /context[_ ]length[_ ]exceeded/i, // OpenAI code, Ollama, LiteLLM
  /exceeded model token limit/i, // Moonshot / Kimi
  /prompt exceeds max(imum)? length/i, // Zhipu GLM
  /\[code (.*, )?1261\b/, // Zhipu GLM's code, as toProviderError writes it
  /context window exceeds limit/i, // MiniMax
  /exceeds? (the )?(model'?s? )?context (window|length|size)/i, // generic
  /input (is )?too long/i, // Bedrock, Vertex, generic
  /too many (input )?tokens/i, // generic
  /input token count .* exceeds the maximum/i, // Gemini-style gateways
  /request exceeds the available context size/i, // llama.cpp server
];

/** Provider error codes of a prompt that exceeds the context window. */
const PROMPT_TOO_LONG_CODES = ["1261", "context_length_exceeded"];

/** A rate limit counted in tokens is not an overflow. */
const RATE_LIMIT_WORDING = /per minute|rate limit|\bTPM\b|\bTPD\b|tokens per day/i;
