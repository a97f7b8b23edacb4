/**
 * `createScriptedClient`: a {@link ModelClient} that replays scripted responses in order and records
 * every request. It fails loudly on a call the script did not expect.
 * @module
 */

import type { StreamContentBlock } from "../messages/stream-event";
import type { AssistantModelMessage, ContentBlock, StopReason, Usage } from "../messages/types";
import type { ModelClient, ModelRequest, ModelStreamEvent } from "../model/client";
import { holdStream, pausePosition, type StreamPause } from "./stream-pause";

/** One scripted step: a response, an error to throw, or a function of the request. */
export type ScriptedStep =
  | ScriptedResponse
  | Error
  | ((
      request: ModelRequest,
      callIndex: number,
    ) => ScriptedResponse | Error | Promise<ScriptedResponse | Error>);

/** A scripted response. Missing fields get sensible defaults. */
export interface ScriptedResponse {
  content: ContentBlock[] | string;
  /** @default "stop_sequence" with a `stop_sequence`, else "tool_use" when the content has tool calls, else "end_turn" */
  stop_reason?: StopReason | null;
  /** The stop sequence that ended the response, recorded on the message as `stop_sequence`. */
  stop_sequence?: string | null;
  /** Reported usage; omitted when not given (the loop then counts zeros). */
  usage?: Usage;
  model?: string;
  id?: string;
  /** Wait this long (honouring the request's signal) before answering. */
  delayMs?: number;
  /** Never answer (until the request's signal aborts, unless `ignoreSignal`). */
  hang?: boolean;
  /** Behave like a non-cooperative client: ignore the request's signal while delaying or hanging. */
  ignoreSignal?: boolean;
  /**
   * Streaming: hold the stream after the `content_block_stop` of one block — for `ms`
   * milliseconds, or until `until` settles, whichever comes first (either alone is fine) — then
   * send the rest. The request's signal ends the hold (and the request). What a consumer of the
   * events can do while the response is still streaming, a test sees here.
   */
  pauseAfterBlock?: StreamPause;
}

/** Options of {@link createScriptedClient}. */
export interface ScriptedClientOptions {
  /**
   * How requests are recorded: `"snapshot"` copies the messages array at call time (default),
   * `"reference"` keeps the request as given, `false` records nothing (for benchmarks).
   */
  record?: "snapshot" | "reference" | false;
  /** Emit stream events through `onEvent` (text and tool-input deltas), like a streaming client. @default true */
  emitEvents?: boolean;
}

/** Options of {@link ScriptedClient.waitForRequest}. */
export interface WaitForRequestOptions {
  /**
   * How long to wait before rejecting, in milliseconds: a liveness bound for a test whose agent
   * never makes the request, not a measure of speed.
   * @default 5000
   */
  timeoutMs?: number;
}

/** A scripted client with its recorded requests. */
export interface ScriptedClient extends ModelClient {
  /** Requests received, in order. */
  readonly requests: ModelRequest[];
  /** Number of createMessage calls so far. */
  readonly callCount: number;
  /** Scripted steps not yet consumed. */
  readonly remaining: number;
  /**
   * Appends steps to the script.
   * @throws TypeError when the script is a function (it answers every request: steps would never be used)
   */
  push(...steps: ScriptedStep[]): void;
  /**
   * Resolves with request #`n` (1-based) as soon as it reaches `createMessage` — before its step is
   * answered — or at once when it already has. It lets a test act at a known point of a query (abort,
   * interrupt, close) instead of after a guessed delay. Pair it with a step that does not answer at
   * once (`hang: true`, `delayMs`, or a function awaiting a promise the test settles) to act while the
   * request is still in flight: a plain response may be answered before the awaiting code runs.
   *
   * The request is the one `requests` records (a copy of its messages with `record: "snapshot"`).
   *
   * @example
   * const client = createScriptedClient([{ content: [toolUse] }, { content: "", hang: true }]);
   * const result = agent.prompt("go", { signal: controller.signal });
   * await client.waitForRequest(2); // the tool has run, the second request is in flight
   * controller.abort();
   *
   * @throws TypeError (as a rejection) when `n` is not a positive integer or `timeoutMs` not a
   * positive number of milliseconds, or with `record: false` when request #`n` has already arrived
   * (nothing was kept to hand back)
   * @throws Error (as a rejection) when request #`n` has not arrived within `timeoutMs`; the message
   * says how many requests did arrive
   */
  waitForRequest(n: number, options?: WaitForRequestOptions): Promise<ModelRequest>;
}

/** The longest delay a Node timer keeps (2^31 − 1 ms). */
const MAX_WAIT_MS = 2_147_483_647;
const DEFAULT_WAIT_MS = 5_000;

/**
 * Creates a scripted client.
 *
 * @example
 * const client = createScriptedClient([
 *   { content: [{ type: "tool_use", id: "t1", name: "add", input: { a: 1, b: 2 } }] },
 *   { content: "3", usage: { input_tokens: 10, output_tokens: 1 } },
 * ]);
 */
export function createScriptedClient(
  script:
    | ScriptedStep[]
    | ((
        request: ModelRequest,
        callIndex: number,
      ) => ScriptedResponse | Error | Promise<ScriptedResponse | Error>),
  options: ScriptedClientOptions = {},
): ScriptedClient {
  const steps: ScriptedStep[] = Array.isArray(script) ? [...script] : [];
  const generator = Array.isArray(script) ? undefined : script;
  const record = options.record ?? "snapshot";
  const emitEvents = options.emitEvents ?? true;
  const requests: ModelRequest[] = [];
  const arrivals = createArrivals(requests, record !== false);
  let callCount = 0;

  async function createMessage(request: ModelRequest): Promise<AssistantModelMessage> {
    const callIndex = callCount++;
    const received = record === "snapshot" ? { ...request, messages: [...request.messages] } : request;
    if (record !== false) requests.push(received);
    arrivals.arrived(callIndex + 1, received);
    const scripted: ScriptedStep | undefined = generator ?? steps.shift();
    if (scripted === undefined) {
      throw new Error(
        `createScriptedClient: unexpected model request #${callIndex + 1}; the script has no response left.`,
      );
    }
    const computed = typeof scripted === "function";
    const answer: unknown = computed ? await scripted(request, callIndex) : scripted;
    if (answer instanceof Error) throw answer;
    const problem = responseProblem(answer, computed ? "returned" : "is");
    if (problem !== undefined) {
      throw new TypeError(
        `createScriptedClient: the step for request #${callIndex + 1} ${problem}; expected a response ({ content, … }) or an Error.`,
      );
    }
    const step = answer as ScriptedResponse;
    if (step.hang || step.delayMs !== undefined) await wait(step, request.signal);
    if (request.signal.aborted && !step.ignoreSignal) throw abortReason(request.signal);
    const message = toAssistantMessage(step, request.model, callIndex);
    if (emitEvents && request.onEvent) {
      const events = streamEventsOf(message);
      const cut = step.pauseAfterBlock ? pausePosition(events, step.pauseAfterBlock.index) : events.length;
      for (const event of events.slice(0, cut)) request.onEvent(event);
      if (cut < events.length) {
        await holdStream(step.pauseAfterBlock!, request.signal);
        if (request.signal.aborted && !step.ignoreSignal) throw abortReason(request.signal);
        for (const event of events.slice(cut)) request.onEvent(event);
      }
    }
    return message;
  }

  return {
    createMessage,
    // toAssistantMessage builds every message anew (the script's own objects are never returned).
    freshMessages: true,
    requests,
    get callCount() {
      return callCount;
    },
    get remaining() {
      return steps.length;
    },
    push: (...more) => {
      if (generator)
        throw new TypeError(
          "createScriptedClient: push() needs an array script; this script is a function, which answers every request itself.",
        );
      steps.push(...more);
    },
    waitForRequest: (n, waitOptions) => arrivals.waitFor(n, waitOptions?.timeoutMs),
  };
}

interface Arrivals {
  arrived(number: number, request: ModelRequest): void;
  waitFor(number: number, timeoutMs: number | undefined): Promise<ModelRequest>;
}

/** The waiters of {@link ScriptedClient.waitForRequest}, by request number. */
function createArrivals(requests: readonly ModelRequest[], recorded: boolean): Arrivals {
  const waiters = new Map<number, Array<(request: ModelRequest) => void>>();
  let arrivedSoFar = 0;
  return {
    arrived(number, request) {
      arrivedSoFar = number;
      const waiting = waiters.get(number);
      if (waiting === undefined) return;
      waiters.delete(number);
      for (const resolve of waiting) resolve(request);
    },
    waitFor(number, timeoutMs = DEFAULT_WAIT_MS) {
      const problem = waitProblem(number, timeoutMs);
      if (problem !== undefined)
        return Promise.reject(new TypeError(`createScriptedClient: waitForRequest ${problem}`));
      if (number <= arrivedSoFar) {
        if (recorded) return Promise.resolve(requests[number - 1]!);
        return Promise.reject(
          new TypeError(
            `createScriptedClient: request #${number} has already arrived, and record: false kept nothing to hand back; wait before it is made.`,
          ),
        );
      }
      return new Promise((resolve, reject) => {
        const waiting = waiters.get(number) ?? [];
        waiters.set(number, waiting);
        const timer = setTimeout(() => {
          waiting.splice(waiting.indexOf(onArrival), 1);
          if (waiting.length === 0) waiters.delete(number);
          reject(
            new Error(
              `createScriptedClient: request #${number} did not arrive within ${timeoutMs} ms (${arrivedSoFar} request${arrivedSoFar === 1 ? "" : "s"} arrived).`,
            ),
          );
        }, timeoutMs);
        function onArrival(request: ModelRequest): void {
          clearTimeout(timer);
          resolve(request);
        }
        waiting.push(onArrival);
      });
    },
  };
}

function waitProblem(number: number, timeoutMs: number): string | undefined {
  if (!Number.isInteger(number) || number < 1) return `takes a request number from 1 (got ${String(number)})`;
  if (typeof timeoutMs !== "number" || !(timeoutMs > 0) || timeoutMs > MAX_WAIT_MS)
    return `takes a timeoutMs above 0 and up to ${MAX_WAIT_MS} (got ${String(timeoutMs)})`;
  return undefined;
}

/**
 * What makes `step` unusable as a response, or `undefined` when it has its `content` (a string or
 * an array of blocks). `verb` words the message for a step given as is or returned by a function.
 * @internal
 */
export function responseProblem(step: unknown, verb: "is" | "returned"): string | undefined {
  if (step === null || step === undefined) return `${verb} ${step}`;
  if (typeof step !== "object") return `${verb} a ${typeof step}`;
  const { content } = step as { content?: unknown };
  if (typeof content !== "string" && !Array.isArray(content))
    return "has no content (a string or an array of content blocks)";
  return undefined;
}

function wait(step: ScriptedResponse, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = step.hang ? undefined : setTimeout(done, step.delayMs);
    const onAbort = () => {
      if (timer) clearTimeout(timer);
      reject(abortReason(signal));
    };
    function done() {
      if (!step.ignoreSignal) signal.removeEventListener("abort", onAbort);
      resolve();
    }
    if (!step.ignoreSignal) {
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
    }
  });
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("The operation was aborted.", "AbortError");
}

function toAssistantMessage(
  step: ScriptedResponse,
  requestedModel: string,
  callIndex: number,
): AssistantModelMessage {
  const content: ContentBlock[] =
    typeof step.content === "string"
      ? [{ type: "text", text: step.content }]
      : step.content.map((block) => ({ ...block }));
  const hasToolUse = content.some((block) => block.type === "tool_use");
  const stopSequence =
    typeof step.stop_sequence === "string" && step.stop_sequence ? step.stop_sequence : undefined;
  const defaultStop = stopSequence !== undefined ? "stop_sequence" : hasToolUse ? "tool_use" : "end_turn";
  const message: AssistantModelMessage = {
    role: "assistant",
    content,
    stop_reason: step.stop_reason === undefined ? defaultStop : step.stop_reason,
    providerResponseId: step.id ?? `msg_scripted_${callIndex + 1}`,
    model: step.model ?? requestedModel,
  };
  if (stopSequence !== undefined) message.stop_sequence = stopSequence;
  if (step.usage) message.usage = { ...step.usage };
  return message;
}

/**
 * The events a streaming client would emit for this message: one delta per text or tool block, a
 * `thinking_delta` then a `signature_delta` per thinking block, other blocks whole in their start.
 */
function streamEventsOf(message: AssistantModelMessage): ModelStreamEvent[] {
  const events: ModelStreamEvent[] = [];
  const onEvent = (event: ModelStreamEvent) => events.push(event);
  onEvent({
    type: "message_start",
    message: {
      id: message.providerResponseId,
      type: "message",
      role: "assistant",
      model: message.model,
      content: [],
    },
  });
  message.content.forEach((block, index) => {
    if (block.type === "text") {
      onEvent({ type: "content_block_start", index, content_block: { type: "text", text: "" } });
      onEvent({ type: "content_block_delta", index, delta: { type: "text_delta", text: block.text } });
    } else if (block.type === "tool_use") {
      onEvent({
        type: "content_block_start",
        index,
        content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
      });
      onEvent({
        type: "content_block_delta",
        index,
        delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
      });
    } else if (block.type === "thinking") {
      onEvent({
        type: "content_block_start",
        index,
        content_block: { type: "thinking", thinking: "", signature: "" },
      });
      onEvent({
        type: "content_block_delta",
        index,
        delta: { type: "thinking_delta", thinking: block.thinking },
      });
      onEvent({
        type: "content_block_delta",
        index,
        delta: { type: "signature_delta", signature: block.signature },
      });
    } else {
      // Any other block arrives whole in its start, as the API sends server-tool results.
      onEvent({ type: "content_block_start", index, content_block: block as StreamContentBlock });
    }
    onEvent({ type: "content_block_stop", index });
  });
  onEvent({
    type: "message_delta",
    delta: { stop_reason: message.stop_reason ?? null, stop_sequence: message.stop_sequence ?? null },
    usage: message.usage ?? {},
  });
  onEvent({ type: "message_stop" });
  return events;
}
