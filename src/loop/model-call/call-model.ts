/**
 * One logical model request: deadline, racing, retries with backoff, and the fallback model.
 * Emits `stream_event`, `api_retry`, `model_fallback` and `hook_error` messages on the query's
 * channel; never throws for provider failures — every way out is a {@link ModelOutcome}.
 * @module
 */
import { totalInputTokens } from "../../cost/usage";
import { HookFailure, TimeoutError } from "../../errors";
import { meetHookFailure } from "../../hooks/hook-failure";
import type { SDKMessage } from "../../messages/sdk-messages";
import type { AssistantModelMessage } from "../../messages/types";
import type { ModelRequest, ModelSettingsField, ModelStreamEvent } from "../../model/client";
import { toProviderError } from "../../model/errors";
import type { RequestModelSettings } from "../../model/model-setting-keys";
import { isPromptTooLongError } from "../../model/prompt-too-long";
import { retryDelayMs } from "../../model/retry";
import { startDeadline } from "../../shared/deadline";
import { raceWithSignal } from "../../shared/signals";
import { NOOP_SPAN, type SpanHandle } from "../../telemetry/telemetry";
import type { Emit } from "../state/live-messages";
import type { LoopContext } from "../state/loop-context";
import type { QueryState } from "../state/query-state";
import { cancelledOutcome, type ModelFailure, type ModelOutcome, unfinishedOf } from "./model-outcome";
import { recordUsage } from "./record-usage";
import { hasRequestShapers, shapeRequest } from "./shape-request";
import { UnfinishedResponse } from "./unfinished-response";

/**
 * The request fields that do not change between attempts, the model settings apart: `settings`
 * holds only the ones that are set (`request-settings.ts`).
 */
export type RequestBase = Omit<
  ModelRequest,
  "signal" | "timeoutMs" | "model" | "onEvent" | ModelSettingsField
> & {
  settings: RequestModelSettings;
};

/** Settings of one logical request. Its deadline is the query's (`QueryState.requestTimeoutMs`). */
export interface ModelCallSettings {
  /** The model to try first. */
  model: string;
  /** Tried when the first model's retries are spent on a transient error. */
  fallbackModel?: string;
  /** Forward raw stream events as `stream_event` messages. */
  streamEvents: boolean;
  /** Run `onModelRequest` hooks (main turns only, not summaries). */
  applyRequestHooks: boolean;
  /** Parent of the `chat` span. @default the query span */
  parentSpan?: SpanHandle;
  /**
   * Streaming tool execution (main turns only): sees every stream event of each attempt, and
   * forgets what an attempt that got no response started.
   */
  streamedCalls?: StreamObserver;
  /** The signal of this call when it is not the query's model signal (one a guardrail's trip aborts). */
  signal?: AbortSignal;
  /** Where stream events go while they are held back (`QueryState.heldEvents`); absent: to the consumer. */
  heldEvents?: SDKMessage<unknown>[];
}

/** Follows the stream events of a request's attempts; told when an attempt fails. */
export interface StreamObserver {
  observe(event: ModelStreamEvent): void;
  discard(): void;
}

/** What one attempt works with. */
interface Attempt {
  readonly loop: LoopContext<unknown>;
  readonly query: QueryState;
  readonly base: RequestBase;
  readonly settings: ModelCallSettings;
}

/**
 * Makes one logical request, retrying transient failures and falling back when configured. When
 * it ends without a response, the usage the last attempt's stream had reported is counted (an
 * attempt that is retried is not: only the request that ends the query's call is).
 */
export async function callModel(
  loop: LoopContext<unknown>,
  query: QueryState,
  base: RequestBase,
  settings: ModelCallSettings,
): Promise<ModelOutcome> {
  const { retry, clock } = loop.config;
  const emit = query.outgoing.emit;
  const fallback =
    settings.fallbackModel && settings.fallbackModel !== settings.model ? settings.fallbackModel : undefined;
  const attempt: Attempt = { loop, query, base, settings };
  const startedAt = clock.now();
  let retried = 0;
  let outcome: ModelOutcome | undefined;
  // The first model, then the fallback once the first one's retries are spent on a transient error.
  for (let model: string | undefined = settings.model; model !== undefined; ) {
    for (let retries = 0; ; retries++) {
      const streamed = settings.streamEvents ? { content: false } : undefined;
      outcome = await attemptOnce(attempt, model, streamed);
      if (outcome.kind === "response") {
        const fallbackFrom = model === settings.model ? undefined : settings.model;
        outcome.timing = { startedAt, endedAt: clock.now(), retries: retried, fallbackFrom };
        return outcome;
      }
      if (outcome.kind !== "failed" || !outcome.error.retryable) return ended(attempt, outcome);
      // A stream that already showed content to the consumer is never silently replayed; one held
      // back showed nothing: its events are dropped and the request retried.
      if (streamed?.content && !settings.heldEvents) return ended(attempt, outcome);
      if (settings.heldEvents) settings.heldEvents.length = 0;
      if (retries >= retry.maxRetries) break;
      retried++;
      const delay = retryDelayMs(retry, retries + 1, outcome.error.retryAfterMs, clock.random);
      emit({
        type: "system",
        subtype: "api_retry",
        attempt: retries + 1,
        max_retries: retry.maxRetries,
        delay_ms: delay,
        status: outcome.error.status,
        error_type: outcome.error.errorType,
        error: outcome.error,
        model,
      });
      try {
        await clock.sleep(delay, settings.signal ?? query.signals.model);
      } catch {
        return cancelledOutcome(query.signals);
      }
    }
    const next: string | undefined = model === settings.model ? fallback : undefined;
    if (next !== undefined && outcome.kind === "failed") {
      emit({ type: "system", subtype: "model_fallback", from: model, to: next, error: outcome.error });
    }
    model = next;
  }
  return ended(attempt, outcome!);
}

/** A call that ends without a response: the usage its last attempt's stream reported is counted. */
function ended(attempt: Attempt, outcome: ModelOutcome): ModelOutcome {
  const unfinished = unfinishedOf(outcome);
  const usage = unfinished?.usage;
  if (unfinished && usage)
    recordUsage(
      attempt.loop.conversation,
      attempt.query,
      unfinished.model,
      usage,
      attempt.query.outgoing.emit,
    );
  return outcome;
}

async function attemptOnce(
  attempt: Attempt,
  model: string,
  streamed: { content: boolean } | undefined,
): Promise<ModelOutcome> {
  const { loop, query, base, settings } = attempt;
  const querySignal = settings.signal ?? query.signals.model;
  if (settings.signal ? settings.signal.aborted : query.signals.modelAborted)
    return cancelledOutcome(query.signals);
  // A request deadline needs a signal of its own; without one the query's signal is enough
  // (an AbortController per request is a measurable share of a turn).
  const timeoutMs = query.requestTimeoutMs;
  const deadline =
    timeoutMs === undefined ? undefined : startDeadline(querySignal, timeoutMs, requestTimedOut);
  const signal = deadline?.signal ?? querySignal;
  const held = settings.heldEvents;
  const emit = held ? (message: SDKMessage<unknown>) => void held.push(message) : query.outgoing.emit;
  let span = NOOP_SPAN;
  const unfinished = new UnfinishedResponse(model);
  try {
    let request = requestFor(base, model, signal);
    if (deadline) request.timeoutMs = deadline.timeoutMs;
    const observer = settings.streamedCalls;
    request.onEvent = streamed
      ? (event) => {
          unfinished.observe(event);
          observer?.observe(event);
          forwardStreamEvent(event, emit, streamed);
        }
      : (event) => {
          unfinished.observe(event);
          observer?.observe(event);
        };
    const { onModelRequest } = loop.config.modelSettings;
    if (settings.applyRequestHooks && hasRequestShapers(onModelRequest, loop.config.hooks)) {
      request = await raceWithSignal(shapeRequest(request, onModelRequest, loop.config.hooks), signal);
      unfinished.model = request.model; // a hook may have routed the request to another model
    }
    span = loop.conversation.telemetry.modelCall(settings.parentSpan ?? query.span, request);
    // With handoffs, each request's span names the agent that made it.
    if (loop.config.handoffs) span.set({ "gen_ai.agent.name": loop.config.agentName });
    const client = loop.services.client;
    // A synchronous throw of the client lands in the catch below, like a rejection.
    const answer = span.activate
      ? span.activate(() => client.createMessage(request))
      : client.createMessage(request);
    const message = await raceWithSignal(Promise.resolve(answer), signal);
    assertAssistantMessage(message);
    recordResponseOnSpan(span, message);
    return { kind: "response", message, model: message.model ?? model, timing: undefined };
  } catch (error) {
    settings.streamedCalls?.discard(); // what this attempt started is never run as a batch
    const outcome = failedAttempt(attempt, error, signal);
    // The span records what the query reports (a ProviderError, redacted), not the raw throw.
    span.fail(signal.aborted ? signal.reason : "error" in outcome ? outcome.error : error);
    if (outcome.kind !== "hook_failed") outcome.unfinished = unfinished;
    return outcome;
  } finally {
    span.end();
    deadline?.clear();
  }
}

/** The outcome of an attempt that threw: cancelled, timed out, refused by a hook, or failed. */
function failedAttempt(attempt: Attempt, error: unknown, signal: AbortSignal): ModelFailure {
  if (signal.aborted) {
    const reason = signal.reason;
    if (reason instanceof TimeoutError) return { kind: "timeout", error: reason };
    return cancelledOutcome(attempt.query.signals);
  }
  if (error instanceof TimeoutError) return { kind: "timeout", error }; // the client's own deadline
  if (error instanceof HookFailure) {
    meetHookFailure(error, signal, attempt.query.outgoing.emit, "onModelRequest"); // not aborted: reported
    return { kind: "hook_failed", error };
  }
  return {
    kind: "failed",
    error: toProviderError(error, { secrets: [...attempt.loop.config.secrets] }),
    promptTooLong: isPromptTooLongError(error),
  };
}

/** The abort reason of a request that outlived its deadline. */
function requestTimedOut(timeoutMs: number): TimeoutError {
  return new TimeoutError(timeoutMs);
}

/**
 * The request of one attempt: the base's fields, then the model settings that are set (no key list
 * here: `settings` holds only those). Written out field by field, never spread: a spread followed by
 * more fields takes V8's slow property-definition path on every call.
 */
function requestFor(base: RequestBase, model: string, signal: AbortSignal): ModelRequest {
  const request: ModelRequest = { model, messages: base.messages, maxTokens: base.maxTokens, signal };
  if (base.system !== undefined) request.system = base.system;
  if (base.tools !== undefined) request.tools = base.tools;
  if (base.outputFormat !== undefined) request.outputFormat = base.outputFormat;
  if (base.contextManagement !== undefined) request.contextManagement = base.contextManagement;
  return Object.assign(request, base.settings);
}

/** Compiles only while `requestFor` copies every field of the request base: add new ones there. */
type CopiedByRequestFor =
  | "system"
  | "messages"
  | "tools"
  | "maxTokens"
  | "outputFormat"
  | "contextManagement"
  | "settings";
type _RequestForCopiesEveryField = AssertNever<Exclude<keyof RequestBase, CopiedByRequestFor>>;
type AssertNever<T extends never> = T;

function recordResponseOnSpan(span: SpanHandle, message: AssistantModelMessage): void {
  if (span === NOOP_SPAN) return;
  span.set({
    "gen_ai.response.model": message.model,
    "gen_ai.response.id": message.providerResponseId,
    "gen_ai.response.finish_reasons": message.stop_reason ? [message.stop_reason] : undefined,
    "gen_ai.usage.input_tokens": message.usage ? totalInputTokens(message.usage) : undefined,
    "gen_ai.usage.output_tokens": message.usage?.output_tokens,
    "gen_ai.usage.cache_creation.input_tokens": message.usage?.cache_creation_input_tokens,
    "gen_ai.usage.cache_read.input_tokens": message.usage?.cache_read_input_tokens,
  });
}

function forwardStreamEvent(
  event: ModelStreamEvent,
  emit: Emit<SDKMessage<unknown>>,
  streamed: { content: boolean },
): void {
  if (event.type === "content_block_start" || event.type === "content_block_delta") streamed.content = true;
  emit({ type: "stream_event", event });
}

function assertAssistantMessage(message: unknown): asserts message is AssistantModelMessage {
  const candidate = message as AssistantModelMessage | undefined;
  if (!candidate || !Array.isArray(candidate.content)) {
    throw Object.assign(
      new Error(
        'The model client returned no assistant message (expected { role: "assistant", content: [...] }).',
      ),
      { nonRetryable: true },
    );
  }
}
