/**
 * One request of the built-in Anthropic client under its signals: the caller's and the request's
 * deadline, and how a failure maps — the caller's cancellation → its reason, the deadline →
 * {@link TimeoutError}, anything else → a redacted {@link ProviderError} that names the endpoint
 * when the network failed.
 * @module
 */
import { TimeoutError } from "../errors";
import type { AssistantModelMessage } from "../messages/types";
import { linkSignals, MAX_TIMER_MS } from "../shared/signals";
import type { ModelRequest } from "./client";
import { errorSourceOf, type ModelEndpoint, serviceLabelOf } from "./endpoint";
import { isAbortError, toProviderError } from "./errors";

/** What a failing request had achieved, for the `partial` flag. */
export interface RequestProgress {
  hasContent: boolean;
  /** The `request-id` header, once the response has started. */
  requestId?: string;
}

/** One request in progress: its own signal, which the caller's signal and its deadline abort. */
export interface RequestScope {
  /** Aborted when the caller's signal aborts, at the deadline, or by {@link RequestScope.abort}. */
  readonly signal: AbortSignal;
  /** Aborts this request only, with `reason` (a transport's own timer, say). */
  abort(reason: unknown): void;
  /** Whether the request has a deadline of its own (`timeoutMs`). */
  readonly hasDeadline: boolean;
  readonly progress: RequestProgress;
  /**
   * How errors name the service: "Anthropic API", or "Model provider host:port" for any other
   * endpoint (see {@link errorSourceOf}).
   */
  readonly source: string;
}

/** What a failure is described with: the secrets it must not show, and where the request went. */
export interface FailureContext {
  secrets: string[];
  endpoint: ModelEndpoint;
}

/**
 * Runs one request under the caller's signal and the request deadline, and maps how it failed:
 * the caller's cancellation → its reason, the deadline → {@link TimeoutError}, anything else →
 * ProviderError (with `partial` when content had already streamed; a network failure names the
 * endpoint, `host:port`, and its cause).
 *
 * `run` is called synchronously, before this function first awaits: an SDK client's span starts
 * while the agent's `chat` span is the one being parented to (see `sdk-span-parenting.ts`).
 */
export async function withFailureMapping(
  request: ModelRequest,
  context: FailureContext,
  run: (scope: RequestScope) => Promise<AssistantModelMessage>,
): Promise<AssistantModelMessage> {
  const timeoutMs = request.timeoutMs;
  // A signal of this request's own, dropped when it ends: the caller's signal lives for the whole
  // query, and listeners left on it would pile up, one per request.
  const link = linkSignals(request.signal);
  let expired = false;
  // The timer waits at most MAX_TIMER_MS, as a longer one would fire at once.
  const timer = timeoutMs
    ? setTimeout(
        () => {
          expired = true;
          link.abort(new TimeoutError(timeoutMs));
        },
        Math.min(timeoutMs, MAX_TIMER_MS),
      )
    : undefined;
  const scope: RequestScope = {
    signal: link.signal,
    abort: link.abort,
    hasDeadline: timer !== undefined,
    progress: { hasContent: false },
    source: errorSourceOf(context.endpoint),
  };
  try {
    return await run(scope);
  } catch (error) {
    if (request.signal.aborted) throw request.signal.reason ?? error;
    if (timeoutMs && (expired || isSdkTimeout(error))) throw new TimeoutError(timeoutMs);
    if (isAbortError(error)) throw error;
    throw toProviderError(error, {
      secrets: context.secrets,
      partial: scope.progress.hasContent || undefined,
      label: scope.source,
      requestId: scope.progress.requestId,
      endpoint: hostPortOf(context.endpoint),
      endpointLabel: serviceLabelOf(context.endpoint),
    });
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    link.dispose();
  }
}

function hostPortOf(endpoint: ModelEndpoint): string | undefined {
  return endpoint.address === undefined
    ? undefined
    : `${endpoint.address}${endpoint.port === undefined ? "" : `:${endpoint.port}`}`;
}

function isSdkTimeout(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as { name?: unknown }).name === "APIConnectionTimeoutError"
  );
}
