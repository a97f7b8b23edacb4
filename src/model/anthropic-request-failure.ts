/**
 * One request of the built-in Anthropic client under its signals: the caller's and the request's
 * deadline, and how a failure maps — the caller's cancellation → its reason, the deadline →
 * {@link TimeoutError}, anything else → a redacted {@link ProviderError}.
 * @module
 */
import { TimeoutError } from "../errors";
import type { AssistantModelMessage } from "../messages/types";
import { startDeadline } from "../shared/deadline";
import { linkSignals, MAX_TIMER_MS } from "../shared/signals";
import type { ModelRequest } from "./client";
import { isAbortError, toProviderError } from "./errors";

/** What a failing request had achieved, for the `partial` flag. */
export interface RequestProgress {
  hasContent: boolean;
  /** The `request-id` header, once the response has started. */
  requestId?: string;
}

/** The per-request options handed to the SDK. */
export type SdkRequestOptions = { signal: AbortSignal; maxRetries: number; timeout: number };

/**
 * Runs one request under the caller's signal and the request deadline, and maps how it failed:
 * the caller's cancellation → its reason, the deadline → {@link TimeoutError}, anything else →
 * ProviderError (with `partial` when content had already streamed).
 */
export async function withFailureMapping(
  request: ModelRequest,
  secrets: string[],
  run: (signal: AbortSignal, progress: RequestProgress) => Promise<AssistantModelMessage>,
): Promise<AssistantModelMessage> {
  const timeoutMs = request.timeoutMs;
  // A signal of this request's own, dropped when it ends: the SDK leaves an abort listener on the
  // signal it is given when a response is consumed raw, and the caller's signal lives for the
  // whole query — listeners would pile up on it, one per request. With a deadline, the deadline's
  // signal (which follows the caller's) is that signal; the timer waits at most MAX_TIMER_MS, as a
  // longer one would fire at once.
  const deadline = timeoutMs
    ? startDeadline(request.signal, Math.min(timeoutMs, MAX_TIMER_MS), () => new TimeoutError(timeoutMs))
    : undefined;
  const link = deadline ? undefined : linkSignals(request.signal);
  const signal = deadline ? deadline.signal : link!.signal;
  const progress: RequestProgress = { hasContent: false };
  try {
    return await run(signal, progress);
  } catch (error) {
    if (request.signal.aborted) throw request.signal.reason ?? error;
    if (timeoutMs && (deadline?.expired || isSdkTimeout(error))) throw new TimeoutError(timeoutMs);
    if (isAbortError(error)) throw error;
    throw toProviderError(error, {
      secrets,
      partial: progress.hasContent || undefined,
      label: "Anthropic API",
      requestId: progress.requestId,
    });
  } finally {
    deadline?.clear();
    link?.dispose();
  }
}

function isSdkTimeout(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as { name?: unknown }).name === "APIConnectionTimeoutError"
  );
}
