/**
 * `streamInput`: one full prompt cycle per input, in order, under one guard. Waiting for the next
 * input ends when the caller's signal aborts, the agent is closed or the consumer stops the stream.
 * @module
 */
import { InvalidOptionError } from "../errors";
import type { ApprovalInput } from "../messages/approvals";
import type { PromptInput } from "../messages/prompt-input";

/** One input of a stream: a prompt, or the decisions that resume a pause. */
type AgentInput = PromptInput | ApprovalInput;

import type { SDKMessage, SDKResultMessage } from "../messages/sdk-messages";
import { type LinkedController, linkSignals, raceWithSignal } from "../shared/signals";
import type { AgentQuery, ConversationGuard } from "./conversation-guard";
import type { GuardUse } from "./cycle-lifecycle";
import type { QueryOptions } from "./options";

/** What a stream needs from its agent. */
export interface StreamHost<T> {
  readonly guard: ConversationGuard;
  /** A query for one cycle (or the stream's guard); validates the per-query options. */
  newQuery(options: QueryOptions | undefined, requestTimeoutMs?: number): AgentQuery;
  /** Runs one prompt cycle of the loop. */
  cycle(
    query: AgentQuery,
    prompt: AgentInput,
    use: GuardUse,
  ): AsyncGenerator<SDKMessage<T>, SDKResultMessage<T>>;
}

/** What `streamInput` shares with its handle. */
export interface StreamControl {
  /** Aborted when the consumer stops the stream (`break`, `return()`). */
  readonly stopped: AbortController;
  /** The cycle running now. */
  current: AgentQuery | undefined;
  readonly inFlight: () => Promise<unknown> | undefined;
}

/** The cycles of one `streamInput` call. */
export async function* streamCycles<T>(
  host: StreamHost<T>,
  inputs: AsyncIterable<AgentInput> | Iterable<AgentInput>,
  queryOptions: QueryOptions | undefined,
  control: StreamControl,
): AsyncGenerator<SDKMessage<T>, void> {
  const { guard } = host;
  const stream = host.newQuery(queryOptions);
  assertPromptSource(inputs); // before the guard: a misuse holds nothing
  guard.take(stream);
  stream.inFlight = control.inFlight;
  let stop: LinkedController | undefined;
  let pending: AsyncIterator<AgentInput> | undefined;
  let exhausted = false;
  try {
    stop = linkSignals(queryOptions?.signal, guard.closing, control.stopped.signal);
    pending = asyncIteratorOf(inputs); // may throw: the iterable's own code runs
    while (!stream.state.signals.aborted && !guard.closed) {
      const next = await nextInput(pending, stop.signal);
      if (next === undefined || next.done) {
        exhausted = next !== undefined;
        break;
      }
      if (stream.state.signals.aborted || guard.closed) break;
      const query = host.newQuery(queryOptions, stream.state.requestTimeoutMs);
      query.inFlight = control.inFlight;
      guard.handTo(query);
      control.current = query;
      try {
        yield* host.cycle(query, next.value, { takeOnStart: false, releaseAtEnd: false });
      } finally {
        query.state.signals.dispose();
        control.current = undefined;
        guard.handTo(stream);
      }
    }
  } finally {
    stop?.dispose();
    if (pending && !exhausted) abandonInputs(pending);
    guard.release(stream);
  }
}

/** Misuse, refused before the guard is taken: `streamInput` reads an iterable of prompts. */
function assertPromptSource(inputs: unknown): void {
  const iterable =
    typeof inputs === "object" &&
    inputs !== null &&
    (Symbol.asyncIterator in inputs || Symbol.iterator in inputs);
  if (!iterable) {
    throw new InvalidOptionError(
      `streamInput() takes an iterable of prompts (an array, a generator, an async iterable), got ${
        typeof inputs === "string"
          ? "a string; for one prompt use query()"
          : inputs === null
            ? "null"
            : typeof inputs
      }.`,
    );
  }
}

function asyncIteratorOf<I>(inputs: AsyncIterable<I> | Iterable<I>): AsyncIterator<I> {
  if (Symbol.asyncIterator in inputs) return inputs[Symbol.asyncIterator]();
  return (async function* () {
    yield* inputs; // awaits each value, as for await does
  })();
}

/** The next input, or undefined when `signal` aborts first. */
async function nextInput<I>(
  pending: AsyncIterator<I>,
  signal: AbortSignal,
): Promise<IteratorResult<I> | undefined> {
  if (signal.aborted) return undefined;
  try {
    return await raceWithSignal(Promise.resolve(pending.next()), signal);
  } catch (error) {
    if (signal.aborted) return undefined;
    throw error;
  }
}

/** Tells an input source we stopped reading, without waiting on it (it may be stuck). */
function abandonInputs(pending: AsyncIterator<unknown>): void {
  try {
    Promise.resolve(pending.return?.()).catch(() => {});
  } catch {
    // a return() that throws: nothing more to tell it
  }
}
