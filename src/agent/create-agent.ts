/**
 * `createAgent`: the stateful shell around the loop. It holds one conversation — history, store,
 * tools, model — and a guard so only one query runs on it at a time.
 * @module
 */
import { ConcurrentQueryError, InvalidOptionError } from "../errors";
import { closeDanglingToolUses } from "../history/dangling";
import { QueryRun } from "../loop/query-run";
import { runQuery } from "../loop/run-query";
import type { SDKMessage, SDKResultMessage } from "../messages/sdk-messages";
import type { ModelMessage } from "../messages/types";
import { createAnthropicClient } from "../model/anthropic";
import type { ModelClient } from "../model/client";
import type { Tool } from "../tools/tool";
import { type AgentCore, createAgentCore, positiveInteger, registerTool } from "./agent-core";
import { McpAttachment } from "./mcp-attachment";
import type { AgentOptions, PromptInput, QueryOptions } from "./options";

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
  /** Replaces history and the store's copy. Idle only. The host owns its well-formedness. */
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
  let busy = false;
  let closed = false;

  function acquire(queryOptions: QueryOptions | undefined): QueryRun {
    if (closed) throw new InvalidOptionError("This Agent was closed; create a new one.");
    if (busy) throw new ConcurrentQueryError();
    const requestTimeoutMs =
      positiveInteger("requestTimeoutMs", queryOptions?.requestTimeoutMs) ?? core.requestTimeoutMs;
    busy = true;
    return newRun(queryOptions, requestTimeoutMs);
  }

  function newRun(queryOptions: QueryOptions | undefined, requestTimeoutMs: number | undefined): QueryRun {
    running = new QueryRun({
      signal: queryOptions?.signal,
      requestTimeoutMs,
      now: core.now,
      pricing: core.pricing,
    });
    return running;
  }

  function release(): void {
    running?.dispose();
    running = undefined;
    busy = false;
  }

  async function prepare(): Promise<void> {
    await core.history.ensureLoaded();
    await mcp?.ensureConnected();
  }

  async function* guardedCycle(
    run: QueryRun,
    input: PromptInput,
  ): AsyncGenerator<SDKMessage<T>, SDKResultMessage<T>> {
    let finished = false;
    try {
      await prepare();
      const result = yield* runQuery(core, run, input);
      finished = true;
      return result;
    } finally {
      if (!finished) await stopEarly(run);
      release();
    }
  }

  /** The consumer left early or the loop threw: stop work in flight and keep history well-formed. */
  async function stopEarly(run: QueryRun): Promise<void> {
    run.cancel();
    const closing = closeDanglingToolUses(core.history.messages);
    if (closing) await core.history.append(closing).catch(() => {});
  }

  async function* guardedStream(
    first: QueryRun,
    inputs: AsyncIterable<PromptInput> | Iterable<PromptInput>,
    queryOptions: QueryOptions | undefined,
  ) {
    try {
      await prepare();
      let run: QueryRun | undefined = first;
      for await (const input of inputs) {
        run ??= newRun(queryOptions, first.requestTimeoutMs);
        let finished = false;
        try {
          yield* runQuery(core, run, input);
          finished = true;
        } finally {
          if (!finished) await stopEarly(run);
        }
        run.dispose();
        run = undefined;
        if (first.aborted) break;
      }
    } finally {
      release();
    }
  }

  return {
    prompt(input, queryOptions) {
      let run: QueryRun;
      try {
        run = acquire(queryOptions);
      } catch (error) {
        return Promise.reject(error);
      }
      return drainToResult(guardedCycle(run, input));
    },
    async *query(input, queryOptions) {
      const run = acquire(queryOptions);
      yield* guardedCycle(run, input);
    },
    async *streamInput(inputs, queryOptions) {
      const run = acquire(queryOptions);
      yield* guardedStream(run, inputs, queryOptions);
    },
    interrupt() {
      running?.interrupt();
    },
    async getHistory() {
      await core.history.ensureLoaded();
      return structuredClone(core.history.messages);
    },
    async replaceHistory(messages) {
      if (busy)
        throw new ConcurrentQueryError("replaceHistory() is idle-only: a query is running on this Agent.");
      if (!Array.isArray(messages))
        throw new InvalidOptionError("replaceHistory() takes an array of messages.");
      await core.history.replace(structuredClone(messages));
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
    async close() {
      if (closed) return;
      closed = true;
      running?.interrupt();
      await Promise.allSettled([mcp?.close(), core.history.close()]);
    },
  };
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
