/**
 * Checks of the overrides hooks return that the loop would otherwise pass on malformed: into history,
 * where the API would refuse it on every later request, or to the model client, which would fail
 * with an obscure TypeError. A check that throws fails its hook (see `runHookChain`).
 * @module
 */
import { promptProblem } from "../messages/prompt-input";
import type { ContentBlock } from "../messages/types";
import type { ModelRequest } from "../model/client";

/**
 * `updatedPrompt` as a prompt, by the rules a caller's prompt follows (see `promptProblem`): a
 * non-blank string, or a non-empty array of content blocks without blank text.
 * @throws TypeError otherwise
 */
export function promptOverride(value: unknown): string | ContentBlock[] {
  const problem = promptProblem(value);
  if (problem === undefined) return value as string | ContentBlock[];
  throw new TypeError(
    `updatedPrompt must be a non-empty string or a non-empty array of content blocks ({ type, … }): it ${problem}.`,
  );
}

/**
 * `continueWith` as the user message that continues the loop: a string (an empty one does not continue).
 * @throws TypeError for anything else but `undefined`
 */
export function continueWithOverride(value: unknown): string | undefined {
  if (value === undefined || typeof value === "string") return value;
  throw new TypeError("continueWith must be a string (the user message that continues the loop).");
}

/** A refusal message as given, or `undefined` when it is not a non-empty string (the default is used then). */
export function refusalMessage(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * An `onModelRequest` replacement as a request: an object with a model id, a messages array and
 * `maxTokens` (a hook returns `{ ...request, … }`).
 * @throws TypeError otherwise
 */
export function requestOverride(value: unknown): ModelRequest {
  const candidate = (typeof value === "object" && value !== null ? value : {}) as Partial<ModelRequest>;
  if (
    typeof candidate.model === "string" &&
    candidate.model !== "" &&
    Array.isArray(candidate.messages) &&
    typeof candidate.maxTokens === "number"
  )
    return candidate as ModelRequest;
  throw new TypeError(
    "the replacement request needs a model id, a messages array and maxTokens: return { ...request, … }.",
  );
}
