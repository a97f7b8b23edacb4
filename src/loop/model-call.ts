/**
 * One logical model request: deadline, racing, retries with backoff, and the fallback model.
 * Emits `stream_event`, `api_retry` and `model_fallback` messages; never throws for provider
 * failures — every way out is a {@link ModelOutcome}.
 * @module
 */
import type { AgentCore, RequestBase } from "../agent/agent-core";
import { type ProviderError, TimeoutError } from "../errors";
import { requestOverride } from "../hooks/overrides";
import { HookFailure, runHookChain } from "../hooks/run-hooks";
import type { HookMatcher, ModelRequestInput, ModelRequestOutput } from "../hooks/types";
import type { SDKMessage } from "../messages/sdk-messages";
import type { AssistantModelMessage } from "../messages/types";
import type { ModelRequest, ModelStreamEvent } from "../model/client";
import { isPromptTooLongError, toProviderError } from "../model/errors";
import { retryDelayMs } from "../model/retry";
import { startDeadline } from "../shared/deadline";
import { raceWithSignal } from "../shared/signals";
import { NOOP_SPAN, type SpanHandle } from "../telemetry/telemetry";
import type { Emit } from "./live-messages";
import { InterruptReason, type QueryRun } from "./query-run";
import { UnfinishedResponse } from "./unfinished-response";
import { recordUsage } from "./usage-step";

/** How a model request ended. */
export type ModelOutcome =
  | { kind: "response"; message: AssistantModelMessage; model: string }
  | ({ kind: "aborted"; reason: unknown } & CutOff)
  | ({ kind: "interrupted" } & CutOff)
  | ({ kind: "timeout"; error: TimeoutError } & CutOff)
  | ({ kind: "failed"; error: ProviderError; promptTooLong: boolean } & CutOff)
  /** An `onModelRequest` hook threw or timed out: the request was not sent. */
  | { kind: "hook_failed"; error: HookFailure };

/** A request that got no response may have streamed part of one before it was cut off. */
interface CutOff {
  /** What the last attempt's stream had shown; its usage is already counted in the query's ledger. */
  unfinished?: UnfinishedResponse;
}

/** Settings of one logical request. */
export interface ModelCallSettings {
  /** The model to try first. */
  model: string;
  /** Tried when the first model's retries are spent on a transient error. */
  fallbackModel?: string;
  timeoutMs: number | undefined;
  /** Forward raw stream events as `stream_event` messages. */
  streamEvents: boolean;
  /** Run `onModelRequest` hooks (main turns only, not summaries). */
  applyRequestHooks: boolean;
  /** Parent of the `chat` span. @default the query span */
  parentSpan?: SpanHandle;
}

/**
 * Makes one logical request, retrying transient failures and falling back when configured. When
 * it ends without a response, the usage the last attempt's stream had reported is counted (an
 * attempt that is retried is not: only the request that ends the query's call is).
 */
export async function callModel<T>(
  core: AgentCore<T>,
  run: QueryRun,
  base: RequestBase,
  settings: ModelCallSettings,
  emit: Emit<SDKMessage<T>>,
): Promise<ModelOutcome> {
  const fallback =
    settings.fallbackModel && settings.fallbackModel !== settings.model ? settings.fallbackModel : undefined;
  let outcome: ModelOutcome | undefined;
  // The first model, then the fallback once the first one's retries are spent on a transient error.
  for (let model: string | undefined = settings.model; model !== undefined; ) {
    for (let attempt = 0; ; attempt++) {
      const streamed = settings.streamEvents ? { content: false } : undefined;
      outcome = await attemptOnce(core, run, base, model, settings, emit, streamed);
      if (outcome.kind === "response") return outcome;
      if (outcome.kind !== "failed" || !outcome.error.retryable) return ended(core, run, outcome, emit);
      // A stream that already showed content to the consumer is never silently replayed.
      if (streamed?.content) return ended(core, run, outcome, emit);
      if (attempt >= core.retry.maxRetries) break;
      const delay = retryDelayMs(core.retry, attempt + 1, outcome.error.retryAfterMs, core.random);
      emit({
        type: "system",
        subtype: "api_retry",
        attempt: attempt + 1,
        max_retries: core.retry.maxRetries,
        delay_ms: delay,
        status: outcome.error.status,
        error_type: outcome.error.errorType,
        error: outcome.error,
        model,
      });
      try {
        await core.sleep(delay, run.modelSignal);
      } catch {
        return cancelledOutcome(run);
      }
    }
    const next: string | undefined = model === settings.model ? fallback : undefined;
    if (next !== undefined && outcome.kind === "failed") {
      emit({ type: "system", subtype: "model_fallback", from: model, to: next, error: outcome.error });
    }
    model = next;
  }
  return ended(core, run, outcome!, emit);
}

/** A call that ends without a response: the usage its last attempt's stream reported is counted. */
function ended<T>(
  core: AgentCore<T>,
  run: QueryRun,
  outcome: ModelOutcome,
  emit: Emit<SDKMessage<T>>,
): ModelOutcome {
  const unfinished = unfinishedOf(outcome);
  const usage = unfinished?.usage;
  if (unfinished && usage) recordUsage(core, run, unfinished.model, usage, emit);
  return outcome;
}

/** What the request that ended a call without a response had streamed, if anything. */
export function unfinishedOf(outcome: ModelOutcome): UnfinishedResponse | undefined {
  return outcome.kind === "response" || outcome.kind === "hook_failed" ? undefined : outcome.unfinished;
}

async function attemptOnce<T>(
  core: AgentCore<T>,
  run: QueryRun,
  base: RequestBase,
  model: string,
  settings: ModelCallSettings,
  emit: Emit<SDKMessage<T>>,
  streamed: { content: boolean } | undefined,
): Promise<ModelOutcome> {
  if (run.modelSignal.aborted) return cancelledOutcome(run);
  // A request deadline needs a signal of its own; without one the query's signal is enough
  // (an AbortController per request is a measurable share of a turn).
  const deadline =
    settings.timeoutMs === undefined
      ? undefined
      : startDeadline(run.modelSignal, settings.timeoutMs, requestTimedOut);
  const signal = deadline?.signal ?? run.modelSignal;
  let span = NOOP_SPAN;
  const unfinished = new UnfinishedResponse(model);
  try {
    let request = requestFor(base, model, signal);
    if (deadline) request.timeoutMs = deadline.timeoutMs;
    request.onEvent = streamed
      ? (event) => {
          unfinished.observe(event);
          forwardStreamEvent(event, emit, streamed);
        }
      : (event) => unfinished.observe(event);
    if (settings.applyRequestHooks && hasRequestHooks(core)) {
      request = await raceWithSignal(applyRequestHooks(core, request), signal);
      unfinished.model = request.model; // a hook may have routed the request to another model
    }
    span = core.telemetry.modelCall(settings.parentSpan ?? run.span, request);
    // A synchronous throw of the client lands in the catch below, like a rejection.
    const answer = span.activate
      ? span.activate(() => core.client.createMessage(request))
      : core.client.createMessage(request);
    const message = await raceWithSignal(Promise.resolve(answer), signal);
    assertAssistantMessage(message);
    recordResponseOnSpan(span, message);
    return { kind: "response", message, model: message.model ?? model };
  } catch (error) {
    const outcome = failedAttempt(core, run, error, signal, emit);
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
function failedAttempt<T>(
  core: AgentCore<T>,
  run: QueryRun,
  error: unknown,
  signal: AbortSignal,
  emit: Emit<SDKMessage<T>>,
): Exclude<ModelOutcome, { kind: "response" }> {
  if (signal.aborted) {
    const reason = signal.reason;
    if (reason instanceof TimeoutError) return { kind: "timeout", error: reason };
    return cancelledOutcome(run);
  }
  if (error instanceof TimeoutError) return { kind: "timeout", error }; // the client's own deadline
  if (error instanceof HookFailure) {
    emit({ type: "system", subtype: "hook_error", hook: "onModelRequest", error });
    return { kind: "hook_failed", error };
  }
  return {
    kind: "failed",
    error: toProviderError(error, { secrets: core.secrets }),
    promptTooLong: isPromptTooLongError(error),
  };
}

/** The abort reason of a request that outlived its deadline. */
function requestTimedOut(timeoutMs: number): TimeoutError {
  return new TimeoutError(timeoutMs);
}

/**
 * The request of one attempt. Written out field by field: a spread followed by more fields takes
 * V8's slow property-definition path on every call (measured: ~20% of a turn's instructions).
 */
function requestFor(base: RequestBase, model: string, signal: AbortSignal): ModelRequest {
  const request: ModelRequest = { model, messages: base.messages, maxTokens: base.maxTokens, signal };
  if (base.system !== undefined) request.system = base.system;
  if (base.tools !== undefined) request.tools = base.tools;
  if (base.outputFormat !== undefined) request.outputFormat = base.outputFormat;
  return request;
}

/** Compiles only while `requestFor` copies every field of the request base: add new ones there. */
type CopiedByRequestFor = "system" | "messages" | "tools" | "maxTokens" | "outputFormat";
type _RequestForCopiesEveryField = AssertNever<Exclude<keyof RequestBase, CopiedByRequestFor>>;
type AssertNever<T extends never> = T;

function recordResponseOnSpan(span: SpanHandle, message: AssistantModelMessage): void {
  if (span === NOOP_SPAN) return;
  span.set({
    "gen_ai.response.model": message.model,
    "gen_ai.response.id": message.providerResponseId,
    "gen_ai.response.finish_reasons": message.stop_reason ? [message.stop_reason] : undefined,
    "gen_ai.usage.input_tokens": message.usage?.input_tokens,
    "gen_ai.usage.output_tokens": message.usage?.output_tokens,
    "gen_ai.usage.cache_creation.input_tokens": message.usage?.cache_creation_input_tokens,
    "gen_ai.usage.cache_read.input_tokens": message.usage?.cache_read_input_tokens,
  });
}

function hasRequestHooks<T>(core: AgentCore<T>): boolean {
  return core.onModelRequest !== undefined || (core.hooks?.onModelRequest?.length ?? 0) > 0;
}

/** How a cancelled call ends: aborted by the caller's signal (or the consumer), or interrupted. */
export function cancelledOutcome(run: QueryRun): Extract<ModelOutcome, { kind: "aborted" | "interrupted" }> {
  if (run.aborted) return { kind: "aborted", reason: run.userSignal.reason };
  if (run.interrupted || run.modelSignal.reason instanceof InterruptReason) return { kind: "interrupted" };
  return { kind: "aborted", reason: run.modelSignal.reason };
}

function forwardStreamEvent<T>(
  event: ModelStreamEvent,
  emit: Emit<SDKMessage<T>>,
  streamed: { content: boolean },
): void {
  if (event.type === "content_block_start" || event.type === "content_block_delta") streamed.content = true;
  emit({ type: "stream_event", event });
}

/**
 * `onModelRequest` (option, then hooks in order): each may return a replacement for this call only.
 * Each runs under the hook timeout; a throw or timeout is thrown as a {@link HookFailure}.
 */
async function applyRequestHooks<T>(core: AgentCore<T>, request: ModelRequest): Promise<ModelRequest> {
  const hooks = core.hooks?.onModelRequest;
  const option = core.onModelRequest;
  if (!option && !hooks?.length) return request;
  // A deep copy, so a hook that edits messages, system or tools in place cannot change history.
  const { system, messages, tools } = request;
  let current: ModelRequest = { ...request, ...structuredClone({ system, messages, tools }) };
  const replace = (output: ModelRequestOutput) => {
    if (output.request) current = keepControl(requestOverride(output.request), request);
  };
  const input = () => ({ request: current });
  if (option) {
    const asHook: HookMatcher<ModelRequestInput, ModelRequestOutput> = {
      handler: async ({ request: shaped }) => ({ request: (await option(shaped)) ?? undefined }),
    };
    const failure = await runHookChain({
      event: "onModelRequest option",
      hooks: [asHook],
      input,
      onOutput: replace,
    });
    if (failure) throw failure;
  }
  const failure = await runHookChain({ event: "onModelRequest", hooks, input, onOutput: replace });
  if (failure) throw failure;
  return current;
}

/** A replacement request keeps the loop's signal, deadline and event sink. */
function keepControl(replacement: ModelRequest, original: ModelRequest): ModelRequest {
  return {
    ...replacement,
    signal: original.signal,
    timeoutMs: original.timeoutMs,
    onEvent: original.onEvent,
  };
}

function assertAssistantMessage(message: unknown): asserts message is AssistantModelMessage {
  const candidate = message as AssistantModelMessage | undefined;
  if (!candidate || !Array.isArray(candidate.content)) {
    throw Object.assign(
      new Error(
        'The model client returned no assistant message (expected { role: "assistant", content: [...] }).',
      ),
      {
        nonRetryable: true,
      },
    );
  }
}
