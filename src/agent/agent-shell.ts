/**
 * The stateful shell around the loop: it composes the loop's inputs from the options, holds the
 * conversation guard, and implements the public methods of an {@link Agent}. The loop's logic is
 * in `loop/`; nothing here decides a turn.
 * @module
 */

import type { SpendSink } from "../cost/usage";
import { InvalidOptionError } from "../errors";
import type { McpCatalog } from "../integrations/mcp/catalog-types";
import { agentLoop } from "../loop/agent-loop";
import { Conversation } from "../loop/state/conversation";
import type { LoopContext } from "../loop/state/loop-context";
import { QueryState } from "../loop/state/query-state";
import { type ApprovalInput, type PendingApproval, pendingPause } from "../messages/approvals";
import { checkHistoryInput } from "../messages/history-input";
import type { PendingInput } from "../messages/pending-inputs";
import type { PromptInput } from "../messages/prompt-input";
import type { SDKMessage, SDKResultMessage } from "../messages/sdk-messages";
import type { ModelMessage } from "../messages/types";
import { createAnthropicClient } from "../model/anthropic";
import type { InheritedTracing, SpanHandle, TelemetryOptions } from "../telemetry/telemetry";
import type { SharedBudget } from "../tools/agent-context";
import type { Tool } from "../tools/tool";
import { type ContextUsage, measureContextUsage } from "./context-usage";
import { type AgentQuery, ConversationGuard } from "./conversation-guard";
import { cycleLifecycle, type GuardUse } from "./cycle-lifecycle";
import { buildHandoffTeam, type HandoffTeam, handoffClientSecrets } from "./handoff-team";
import { McpAttachment, NO_MCP_CATALOG } from "./mcp-attachment";
import { checkToolChoice, overridesForSpecialist, resolveQuerySettings } from "./model-settings-options";
import type { AgentOptions, ParentQuery, QueryOptions } from "./options";
import { PromptAdditions } from "./prompt-additions";
import { createQueryHandle, type QueryHandle } from "./query-handle";
import { requestTimeout, resolveLoopConfig } from "./resolve-options";
import { type StreamControl, streamCycles } from "./stream-input";
import { resolveToolSearch, toolSearchSynonyms } from "./tool-search-option";

/** What a cycle takes: a prompt, or the decisions that resume a pause. */
type AgentInput = PromptInput | ApprovalInput;

/** One Agent's parts and methods. */
export class AgentShell<T> {
  readonly loop: LoopContext<T>;
  readonly guard = new ConversationGuard();
  private readonly mcp: McpAttachment | undefined;
  private readonly additions: PromptAdditions | undefined;
  /** The agents of a conversation with handoffs; undefined without `handoffs`. */
  private readonly team: HandoffTeam<T> | undefined;
  /** Set until OpenTelemetry is loaded (or found missing). */
  private telemetryOptions: TelemetryOptions | undefined;
  /** A subagent's child: the parent's `execute_tool` span its query spans nest under. */
  private readonly parentSpan: SpanHandle | undefined;
  private closingDone: Promise<void> | undefined;

  constructor(options: AgentOptions<T>) {
    const client =
      options.client ??
      createAnthropicClient({
        apiKey: options.apiKey,
        baseURL: options.baseURL,
        ...(options.providerProfile === undefined ? {} : { providerProfile: options.providerProfile }),
      });
    const specialistSecrets = handoffClientSecrets(options.handoffs);
    const config = resolveLoopConfig(
      specialistSecrets.length > 0
        ? { ...options, secrets: [...(options.secrets ?? []), ...specialistSecrets] }
        : options,
    );
    const conversation = new Conversation({
      model: options.model,
      historyStore: options.historyStore,
      submitTool: config.modelSettings.submitTool,
      secrets: config.secrets,
      agentName: config.agentName,
    });
    for (const tool of options.tools ?? []) conversation.tools.add(tool);
    conversation.tools.setToolSearch(
      resolveToolSearch(options.toolSearch, client),
      toolSearchSynonyms(options.toolSearch),
    );
    PromptAdditions.check(options.skills, options.instructions);
    this.additions =
      (options.skills?.length ?? 0) > 0 || options.instructions
        ? new PromptAdditions(conversation.rootSeat, options.skills ?? [], options.instructions)
        : undefined;
    this.team = buildHandoffTeam(options, { config, client }, conversation);
    this.loop = this.team ?? { config, conversation, services: { client } };
    this.mcp =
      options.mcpServers && Object.keys(options.mcpServers).length > 0
        ? new McpAttachment(conversation, options.mcpServers, options.onElicitation)
        : undefined;
    const parent = options._internal?.parent;
    const inherited = parent?.tracing as InheritedTracing | undefined;
    this.parentSpan = inherited?.span;
    this.telemetryOptions =
      options.telemetry === undefined && inherited
        ? inheritedTelemetry(inherited.settings, parent!)
        : options.telemetry
          ? options.telemetry === true
            ? {}
            : options.telemetry
          : undefined;
  }

  get conversation(): Conversation {
    return this.loop.conversation;
  }

  /** A query for one cycle; validates the per-query options (throws on misuse, at call time). */
  newQuery(queryOptions: QueryOptions | undefined, requestTimeoutMs?: number): AgentQuery {
    const { config, conversation } = this.loop;
    const { settings, maxTokens } = resolveQuerySettings(
      config.modelSettings.request,
      config.modelSettings.maxTokens,
      queryOptions,
      this.toolCheck(),
    );
    const state = new QueryState({
      signal: abortSignalOption(queryOptions?.signal),
      settings,
      maxTokens,
      requestTimeoutMs:
        requestTimeoutMs ??
        requestTimeout(queryOptions?.requestTimeoutMs) ??
        config.deadlines.requestTimeoutMs,
      startedAt: config.clock.now(),
      pricing: config.pricing,
      storeNotices: conversation.history,
      secrets: config.secrets,
      spendUpstream: spendUpstream(config.limits.sharedBudget),
      agent: config.agentName,
      agentOf: this.team && (() => conversation.activeAgent),
      // A handoff's specialist: its settings, with this query's overrides (checked above already;
      // a tool choice naming one of the tools it lacks is left out).
      settingsFor:
        this.team &&
        ((agent) =>
          resolveQuerySettings(
            agent.request,
            agent.maxTokens,
            overridesForSpecialist(queryOptions, conversation.tools.names()),
            {
              toolNames: undefined,
              outputTool: undefined,
            },
          )),
    });
    return { state, inFlight: undefined };
  }

  /** Runs one prompt cycle of the loop for `query`. */
  cycle(
    query: AgentQuery,
    prompt: AgentInput,
    use: GuardUse,
  ): AsyncGenerator<SDKMessage<T>, SDKResultMessage<T>> {
    return agentLoop(this.loop, query.state, prompt, cycleLifecycle(this, query, use));
  }

  /** Before a query: the store's load, the MCP connections, OpenTelemetry — each once it succeeds. */
  async prepare(): Promise<void> {
    await this.conversation.history.ensureLoaded();
    this.syncActiveAgent();
    await this.additions?.ensureLoaded();
    await this.team?.ensureLoaded();
    await this.mcp?.ensureConnected();
    if (this.telemetryOptions) await this.loadTelemetry(this.telemetryOptions);
  }

  /**
   * With handoffs: the agent history names answers from now on (after a load, a rewind, a
   * replaced history). Without, the root agent always answers.
   * @throws InvalidOptionError when history names an agent this one does not have
   */
  syncActiveAgent(): void {
    this.team?.syncWithHistory();
  }

  /** {@link syncActiveAgent} where a mismatch is for the next query to report. */
  private syncActiveAgentQuietly(): void {
    try {
      this.syncActiveAgent();
    } catch {
      // the next prompt() throws it
    }
  }

  /** Loads the OpenTelemetry implementation once; without `@opentelemetry/api` tracing stays off. */
  private async loadTelemetry(options: TelemetryOptions): Promise<void> {
    try {
      const { loadOpenTelemetry } = await import("../telemetry/open-telemetry");
      const { client } = this.loop.services;
      const { secrets } = this.loop.config;
      this.conversation.useTelemetry(
        await loadOpenTelemetry(options, client.endpoint, secrets, this.parentSpan),
      );
    } catch {
      // the optional peer dependency is missing: no-op
    }
    this.telemetryOptions = undefined;
  }

  /** `Agent.prompt`: takes the guard synchronously, before the promise is returned. */
  prompt(input: AgentInput, queryOptions: QueryOptions | undefined): Promise<SDKResultMessage<T>> {
    let query: AgentQuery;
    try {
      query = this.newQuery(queryOptions);
      this.guard.take(query);
    } catch (error) {
      return Promise.reject(error);
    }
    const result = drainToResult(this.cycle(query, input, { takeOnStart: false, releaseAtEnd: true }));
    query.inFlight = () => result;
    return result;
  }

  /** `Agent.query`: the guard is taken on the first iteration. */
  query(input: AgentInput, queryOptions: QueryOptions | undefined): QueryHandle<SDKMessage<T>> {
    const query = this.newQuery(queryOptions);
    const messages = this.cycle(query, input, { takeOnStart: true, releaseAtEnd: true });
    const handle = createQueryHandle(messages, () => query.state.signals.cancel());
    query.inFlight = () => handle.latestStep;
    return handle;
  }

  /** `Agent.streamInput`. */
  streamInput(
    inputs: AsyncIterable<AgentInput> | Iterable<AgentInput>,
    queryOptions: QueryOptions | undefined,
  ): QueryHandle<SDKMessage<T>> {
    const control: StreamControl = {
      stopped: new AbortController(),
      current: undefined,
      inFlight: () => handle.latestStep,
    };
    const handle = createQueryHandle(streamCycles(this, inputs, queryOptions, control), () => {
      control.stopped.abort();
      control.current?.state.signals.cancel();
    });
    return handle;
  }

  /** `Agent.interrupt`: reaches the running query (inside a stream, its current cycle). */
  interrupt(): void {
    this.guard.running?.state.signals.interrupt();
  }

  /** `Agent.getHistory`. */
  async getHistory(): Promise<ModelMessage[]> {
    await this.conversation.history.ensureLoaded();
    if (this.guard.running === undefined) this.syncActiveAgentQuietly();
    return structuredClone(this.conversation.history.messages);
  }

  /** `Agent.getPendingApprovals`: the pause at the end of the loaded history. */
  async getPendingApprovals(): Promise<PendingApproval[]> {
    await this.conversation.history.ensureLoaded();
    const pause = pendingPause(this.conversation.history.messages);
    return pause ? structuredClone(pause.marker.pending_approvals) : [];
  }

  /** `Agent.getPendingInputs`: the questions of the pause at the end of the loaded history. */
  async getPendingInputs(): Promise<PendingInput[]> {
    await this.conversation.history.ensureLoaded();
    const pause = pendingPause(this.conversation.history.messages);
    return structuredClone(pause?.marker.pending_inputs ?? []);
  }

  /** `Agent.getContextUsage`: the context the next request would carry, counted or estimated. */
  async getContextUsage(): Promise<ContextUsage> {
    await this.conversation.history.ensureLoaded();
    return measureContextUsage(this.loop as LoopContext<unknown>);
  }

  /**
   * Runs `work` (a rewind) holding the conversation guard, as a query would: a query started
   * meanwhile is refused, and `close()` waits for it.
   */
  async holdingGuard<R>(work: () => Promise<R>): Promise<R> {
    const query = this.newQuery(undefined);
    this.guard.take(query);
    const running = work();
    query.inFlight = () => running;
    try {
      return await running;
    } finally {
      this.guard.release(query);
    }
  }

  /** `Agent.replaceHistory`: idle only, and not after `close()`. */
  async replaceHistory(messages: ModelMessage[]): Promise<void> {
    this.guard.assertIdle();
    const checked = checkHistoryInput(messages);
    if (!checked.ok) throw new InvalidOptionError(`replaceHistory() ${checked.problem}.`);
    await this.conversation.history.replace(checked.messages);
    this.syncActiveAgent();
    // The usage the last response reported measured the old history; it must not compact the new one.
    this.conversation.forgetUsage();
  }

  /** `Agent.addTools`: the agent's `toolChoice` is checked against the new tool set. */
  addTools(tools: Tool[]): void {
    for (const tool of tools) this.conversation.rootTools.add(tool);
    const { request, maxTokens } = this.loop.config.modelSettings;
    checkToolChoice(request, { maxTokens, ...this.toolCheck() });
  }

  /** What a tool choice is checked against: the tools now (unknown while MCP servers may add some). */
  private toolCheck(): { toolNames: string[] | undefined; outputTool: string | undefined } {
    const { submitTool } = this.loop.config.modelSettings;
    const outputTool = submitTool?.definition.name;
    if (this.mcp) return { toolNames: undefined, outputTool };
    const toolNames = this.conversation.tools.names();
    return {
      toolNames: outputTool ? toolNames.filter((name) => name !== outputTool) : toolNames,
      outputTool,
    };
  }

  /** `Agent.setModel`. */
  setModel(model: string): void {
    if (typeof model !== "string" || model.length === 0)
      throw new InvalidOptionError("setModel() takes a non-empty model id.");
    this.conversation.setModel(model);
  }

  /** `Agent.close`: closes once; every call returns the same promise. */
  /** The MCP servers' resources and prompts (connecting first); empty without `mcpServers`. */
  mcpCatalog(): McpCatalog {
    return this.mcp?.catalog() ?? NO_MCP_CATALOG;
  }

  close(): Promise<void> {
    this.closingDone ??= this.closeOnce();
    return this.closingDone;
  }

  private async closeOnce(): Promise<void> {
    this.guard.close();
    // MCP goes at once (a connection still being made is abandoned; a running MCP call ends in
    // an error result). The store waits for the interrupted query to finish what it is doing —
    // a tool batch and its writes — but not for a query waiting for its consumer.
    const closingMcp = this.mcp?.close();
    const running = this.guard.running;
    if (running) {
      running.state.signals.interrupt();
      await running.inFlight?.()?.catch(() => {});
    }
    await Promise.allSettled([closingMcp, this.conversation.history.close()]);
  }
}

/**
 * The tracing settings of a child agent without `telemetry` of its own: the parent's tracer and
 * provider name (not with a client of its own), under the subagent's name.
 */
function inheritedTelemetry(settings: TelemetryOptions, parent: ParentQuery): TelemetryOptions {
  const inherited: TelemetryOptions = { ...settings, agentName: parent.agentName };
  if (parent.ownClient) delete inherited.providerName;
  return inherited;
}

/** Where a child's ledger passes on its spending: the parent's shared budget. */
function spendUpstream(budget: SharedBudget | undefined): SpendSink | undefined {
  return budget && ((modelUsage) => budget.spend(modelUsage));
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

async function drainToResult<T>(
  messages: AsyncGenerator<SDKMessage<T>, SDKResultMessage<T>>,
): Promise<SDKResultMessage<T>> {
  while (true) {
    const step = await messages.next();
    if (step.done) return step.value;
  }
}
