/**
 * `createAgent`: the stateful shell around the loop. It holds one conversation — history, store,
 * tools, model — and a guard so only one query runs on it at a time.
 * @module
 */
import { ConcurrentQueryError, InvalidOptionError } from "../errors";
import { closeDanglingToolUses } from "../history/dangling";
import { QueryRun } from "../loop/query-run";
import { type CycleLifecycle, runQuery } from "../loop/run-query";
import type { SDKMessage, SDKResultMessage } from "../messages/sdk-messages";
import type { ModelMessage } from "../messages/types";
import { createAnthropicClient } from "../model/anthropic";
import type { ModelClient } from "../model/client";
import { type LinkedController, linkSignals, raceWithSignal } from "../shared/signals";
import { NOOP_TELEMETRY } from "../telemetry/telemetry";
import type { Tool } from "../tools/tool";
import { type AgentCore, createAgentCore, positiveMilliseconds, registerTool } from "./agent-core";
import { McpAttachment } from "./mcp-attachment";
import type { AgentOptions, PromptInput, QueryOptions } from "./options";
import { createQueryHandle } from "./query-handle";

/** One conversation with a model. Create one Agent per concurrent conversation. */
export interface Agent<T = unknown> {
  /** Runs one prompt cycle and resolves with its result. Takes the conversation guard synchronously. */
  prompt(input: PromptInput, options?: QueryOptions): Promise<SDKResultMessage<T>>;
  /** Runs one prompt cycle, yielding its messages as you pull them; the result comes last. */
  query(input: PromptInput, options?: QueryOptions): AsyncGenerator<SDKMessage<T>, void>;
  /** Runs one full prompt cycle per input, in order, under one guard. */
  streamInput(
    inputs: AsyncIterable<PromptInput> | Iterable<PromptInput>,
    options?: QueryOptions,
  ): AsyncGenerator<SDKMessage<T>, void>;
  /** Ends the running query with `interrupted`; a running tool batch finishes first. No-op when idle. */
  interrupt(): void;
  /** A deep copy of the history (loading the store first when needed). */
  getHistory(): Promise<ModelMessage[]>;
  /** Replaces history and the store's copy. Idle only, and not after `close()`. The host owns its well-formedness. */
  replaceHistory(messages: ModelMessage[]): Promise<void>;
  /** Adds tools for later turns. */
  addTools(...tools: Tool[]): void;
  /** Switches the model for later turns (idle or between turns). */
  setModel(model: string): void;
  /** The model the next turn will use. */
  readonly model: string;
  /** Releases MCP connections and the store. */
  close(): Promise<void>;
}

/**
 * Creates an agent.
 *
 * @example
 * const agent = createAgent({ model: "claude-sonnet-4-6", tools: [readFile] });
 * const result = await agent.prompt("Summarise README.md");
 */
export function createAgent<T = unknown>(options: AgentOptions<T>): Agent<T> {
  const client: ModelClient =
    options.client ?? createAnthropicClient({ apiKey: options.apiKey, baseURL: options.baseURL });
  const core = createAgentCore(options, client);
  const mcp =
    options.mcpServers && Object.keys(options.mcpServers).length > 0
      ? new McpAttachment(core, options.mcpServers)
      : undefined;
  let running: QueryRun | undefined;
  let closed = false;
  let closingDone: Promise<void> | undefined;
  /** Aborted by `close()`: a stream waiting for its next input stops waiting. */
  const closing = new AbortController();

  /** A run for one cycle; validates the per-query options (throws on misuse, at call time). */
  function createRun(queryOptions: QueryOptions | undefined, requestTimeoutMs?: number): QueryRun {
    return new QueryRun({
      signal: abortSignalOption(queryOptions?.signal),
      requestTimeoutMs:
        requestTimeoutMs ??
        positiveMilliseconds("requestTimeoutMs", queryOptions?.requestTimeoutMs) ??
        core.requestTimeoutMs,
      now: core.now,
      pricing: core.pricing,
    });
  }

  /** Takes the conversation guard for `run`, or throws when another query holds it. */
  function take(run: QueryRun): void {
    if (closed) throw new InvalidOptionError("This Agent was closed; create a new one.");
    if (running) throw new ConcurrentQueryError();
    running = run;
  }

  function release(run: QueryRun): void {
    run.dispose();
    if (running === run) running = undefined;
  }

  async function prepare(): Promise<void> {
    await core.history.ensureLoaded();
    await mcp?.ensureConnected();
    if (core.telemetryOptions && core.telemetry === NOOP_TELEMETRY) await loadTelemetry();
  }

  /** Loads the OpenTelemetry implementation once; without `@opentelemetry/api` tracing stays off. */
  async function loadTelemetry(): Promise<void> {
    try {
      const { createOpenTelemetry } = await import("../telemetry/open-telemetry");
      core.telemetry = createOpenTelemetry(core.telemetryOptions, client.endpoint, core.secrets);
    } catch {
      core.telemetryOptions = undefined; // the optional peer dependency is missing: no-op
    }
  }

  /** The consumer left early or the loop threw: stop work in flight and keep history well-formed. */
  async function stopEarly(run: QueryRun): Promise<void> {
    run.cancel();
    const closing = closeDanglingToolUses(core.history.messages);
    if (closing) await core.history.append(closing)?.catch(() => {});
  }

  /**
   * Brackets one cycle. With `takeOnStart` the guard is taken when the generator first runs (so
   * `query()` throws ConcurrentQueryError on its first iteration); `releaseAtEnd` is false inside
   * `streamInput`, whose guard spans every cycle.
   */
  function lifecycle(run: QueryRun, takeOnStart: boolean, releaseAtEnd: boolean): CycleLifecycle {
    let held = !takeOnStart;
    let settled = false;
    /** Everything of this cycle is recorded: unbind the store from its signal, free the guard. */
    const settle = () => {
      if (settled) return;
      settled = true;
      core.history.bindSignal(undefined);
      if (releaseAtEnd) release(run);
    };
    return {
      async prepare() {
        if (!held) {
          take(run);
          held = true;
        }
        // Its cancellation (signal, interrupt, consumer leaving) bounds its store calls: a hung
        // store does not hold a cancelled query.
        core.history.bindSignal(run.modelSignal);
        await prepare();
      },
      settle() {
        if (held) settle();
      },
      async finish(completed) {
        if (!held) return; // the guard was never ours: touch nothing
        try {
          if (!completed) await stopEarly(run);
        } finally {
          settle();
        }
      },
    };
  }

  /**
   * The cycles of `streamInput`, one per input, under one guard. Waiting for the next input ends
   * when the caller's signal aborts, the agent is closed or the consumer stops the stream.
   */
  async function* guardedStream(
    inputs: AsyncIterable<PromptInput> | Iterable<PromptInput>,
    queryOptions: QueryOptions | undefined,
    control: StreamControl,
  ): AsyncGenerator<SDKMessage<T>, void> {
    const guard = createRun(queryOptions);
    assertPromptSource(inputs); // before the guard: a misuse holds nothing
    take(guard);
    guard.inFlight = control.inFlight;
    let stop: LinkedController | undefined;
    let pending: AsyncIterator<PromptInput> | undefined;
    let exhausted = false;
    try {
      stop = linkSignals(queryOptions?.signal, closing.signal, control.stopped.signal);
      pending = asyncIteratorOf(inputs); // may throw: the iterable's own code runs
      while (!guard.aborted && !closed) {
        const next = await nextInput(pending, stop.signal);
        if (next === undefined || next.done) {
          exhausted = next !== undefined;
          break;
        }
        if (guard.aborted || closed) break;
        const run = createRun(queryOptions, guard.requestTimeoutMs);
        run.inFlight = control.inFlight;
        running = run;
        control.current = run;
        try {
          yield* runQuery(core, run, next.value, lifecycle(run, false, false));
        } finally {
          run.dispose();
          control.current = undefined;
          running = guard;
        }
      }
    } finally {
      stop?.dispose();
      if (pending && !exhausted) abandonInputs(pending);
      release(guard);
    }
  }

  return {
    prompt(input, queryOptions) {
      let run: QueryRun;
      try {
        run = createRun(queryOptions);
        take(run); // synchronously, before the promise is returned
      } catch (error) {
        return Promise.reject(error);
      }
      const result = drainToResult(runQuery(core, run, input, lifecycle(run, false, true)));
      run.inFlight = () => result;
      return result;
    },
    query(input, queryOptions) {
      const run = createRun(queryOptions);
      const handle = createQueryHandle(runQuery(core, run, input, lifecycle(run, true, true)), () =>
        run.cancel(),
      );
      run.inFlight = () => handle.latestStep;
      return handle;
    },
    streamInput(inputs, queryOptions) {
      const control: StreamControl = {
        stopped: new AbortController(),
        current: undefined,
        inFlight: () => handle.latestStep,
      };
      const handle = createQueryHandle(guardedStream(inputs, queryOptions, control), () => {
        control.stopped.abort();
        control.current?.cancel();
      });
      return handle;
    },
    interrupt() {
      running?.interrupt();
    },
    async getHistory() {
      await core.history.ensureLoaded();
      return structuredClone(core.history.messages);
    },
    async replaceHistory(messages) {
      // The store is released (or being released): a write now would be lost.
      if (closed) throw new InvalidOptionError("This Agent was closed; create a new one.");
      if (running)
        throw new ConcurrentQueryError("replaceHistory() is idle-only: a query is running on this Agent.");
      if (!Array.isArray(messages))
        throw new InvalidOptionError("replaceHistory() takes an array of messages.");
      await core.history.replace(structuredClone(messages));
      // The usage the last response reported measured the old history; it must not compact the new one.
      core.lastInputTokens = undefined;
    },
    addTools(...tools) {
      for (const tool of tools) registerTool(core, tool);
    },
    setModel(model) {
      if (typeof model !== "string" || model.length === 0)
        throw new InvalidOptionError("setModel() takes a non-empty model id.");
      core.model = model;
    },
    get model() {
      return core.model;
    },
    close() {
      closingDone ??= closeAgent();
      return closingDone;
    },
  };

  /** Closes once; every `close()` call returns the same promise. */
  async function closeAgent(): Promise<void> {
    closed = true;
    closing.abort();
    // MCP goes at once (a connection still being made is abandoned; a running MCP call ends in
    // an error result). The store waits for the interrupted query to finish what it is doing —
    // a tool batch and its writes — but not for a query waiting for its consumer.
    const closingMcp = mcp?.close();
    const run = running;
    if (run) {
      run.interrupt();
      await run.inFlight?.()?.catch(() => {});
    }
    await Promise.allSettled([closingMcp, core.history.close()]);
  }
}

/** What `streamInput` shares with its handle. */
interface StreamControl {
  /** Aborted when the consumer stops the stream (`break`, `return()`). */
  readonly stopped: AbortController;
  /** The cycle running now. */
  current: QueryRun | undefined;
  readonly inFlight: () => Promise<unknown> | undefined;
}

/** The per-query `signal`, checked: passing the AbortController itself is an easy slip. */
function abortSignalOption(signal: unknown): AbortSignal | undefined {
  if (signal === undefined) return undefined;
  const candidate = signal as Partial<AbortSignal> | null;
  if (
    typeof candidate !== "object" ||
    candidate === null ||
    typeof candidate.aborted !== "boolean" ||
    typeof candidate.addEventListener !== "function" ||
    typeof candidate.removeEventListener !== "function"
  ) {
    throw new InvalidOptionError(
      "`signal` must be an AbortSignal (pass `controller.signal`, not the controller).",
    );
  }
  return signal as AbortSignal;
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

async function drainToResult<T>(
  messages: AsyncGenerator<SDKMessage<T>, SDKResultMessage<T>>,
): Promise<SDKResultMessage<T>> {
  while (true) {
    const step = await messages.next();
    if (step.done) return step.value;
  }
}

export type { AgentCore };
