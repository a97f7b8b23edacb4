/**
 * `createAgent`: one conversation with a model — history, store, tools, model — and a guard so
 * only one query runs on it at a time.
 * @module
 */
import type { RunClaim, RunClaimOptions } from "../history/run-claim";
import type { McpCatalog } from "../integrations/mcp/catalog-types";
import type { ApprovalInput, PendingApproval } from "../messages/approvals";
import type { PendingInput } from "../messages/pending-inputs";
import type { PromptInput } from "../messages/prompt-input";
import type { SDKMessage, SDKResultMessage } from "../messages/sdk-messages";
import type { ModelMessage } from "../messages/types";
import type { Tool } from "../tools/tool";
import { AgentShell } from "./agent-shell";
import {
  type Checkpoint,
  type ForkOptions,
  forkHistory,
  listAgentCheckpoints,
  type RewindOptions,
  type RewindResult,
  rewindAgent,
} from "./checkpoint-methods";
import type { ContextUsage } from "./context-usage";
import { checkOptionShapes } from "./option-shapes";
import type { AgentOptions, QueryOptions } from "./options";
import { runClaimer } from "./run-claimer";

/** One conversation with a model. Create one Agent per concurrent conversation. */
export interface Agent<T = unknown> {
  /**
   * Runs one prompt cycle and resolves with its result. Takes the conversation guard synchronously.
   * `{ approvals }` instead of a prompt resumes a query that ended `requires_approval` (in this
   * process or another one over the same store); it throws `InvalidOptionError` when nothing is
   * pending, a decision names a call that is not pending or a pending call has none (nothing is
   * changed), and `ConversationConflictError` when another Agent resolved the pause first.
   */
  prompt(input: PromptInput | ApprovalInput, options?: QueryOptions): Promise<SDKResultMessage<T>>;
  /** Runs one prompt cycle (or a resume), yielding its messages as you pull them; the result comes last. */
  query(input: PromptInput | ApprovalInput, options?: QueryOptions): AsyncGenerator<SDKMessage<T>, void>;
  /** Runs one full prompt cycle per input (a prompt or `{ approvals }`), in order, under one guard. */
  streamInput(
    inputs: AsyncIterable<PromptInput | ApprovalInput> | Iterable<PromptInput | ApprovalInput>,
    options?: QueryOptions,
  ): AsyncGenerator<SDKMessage<T>, void>;
  /**
   * The calls waiting for a decision (the pause at the end of the history, loading the store first
   * when needed); empty when nothing is pending. A copy.
   */
  getPendingApprovals(): Promise<PendingApproval[]>;
  /**
   * The questions MCP servers asked that wait for an answer (`requires_input`; the pause at the end
   * of the history, loading the store first when needed); empty when none. A copy. Answer them
   * with `prompt({ inputs: { [id]: { action, content? } } })`.
   */
  getPendingInputs(): Promise<PendingInput[]>;
  /**
   * How full the context is, and with what: the context the next request would carry (system
   * prompt, tools, history as sent — edited, when the SDK manages context), counted by the provider
   * where it can (`measured: true`: the Messages API's `count_tokens`), estimated otherwise
   * (`measured: false`), split into `byCategory`, with the model's window and the ratio.
   */
  getContextUsage(): Promise<ContextUsage>;
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
  /** The model the next turn will use (the active agent's). */
  readonly model: string;
  /**
   * The name of the agent that answers now: `AgentOptions.name` (default `"main"`), or the
   * specialist a `transfer_to_<name>` call handed the conversation to (`AgentOptions.handoffs`) —
   * as history records it once the store is loaded (the first query, `getHistory()` …).
   */
  readonly activeAgent: string;
  /**
   * The strings this agent replaces by `[redacted]` in everything it yields and records: its API key
   * (given or from the environment), its `secrets` option, its client's credentials and those of its
   * base URL. For a host that keeps what the agent produces elsewhere, and what it throws — the
   * fleet's worker redacts a job's failure, result and messages with them. Held by the agent's
   * prototype, so neither JSON nor `util.inspect` (even with `showHidden`) shows them. Optional for
   * objects of your own that stand in for an Agent.
   */
  readonly secrets?: readonly string[];
  /**
   * The checkpoints of the conversation, oldest first: one per user prompt (loading the store first
   * when needed). A conversation stored before checkpoints existed gets ids derived from each
   * prompt's position and content — the same in every process.
   */
  checkpoints(): Promise<Checkpoint[]>;
  /**
   * Goes back to just before the prompt of checkpoint `to`: history keeps the messages before it
   * (a pause after it is gone with it), written to the store in one versioned replace. With
   * `files: true`, the files the workspace tools changed from that prompt on are put back first.
   * Idle only: throws `ConcurrentQueryError` while a query runs, `ConversationConflictError` when
   * another writer changed the stored conversation, `InvalidOptionError` for an unknown checkpoint.
   */
  rewind(options: RewindOptions): Promise<RewindResult>;
  /**
   * A new Agent, with this one's options, holding the conversation before the prompt of checkpoint
   * `at` — written first to `store` (an empty conversation under a new id), or in memory only
   * without one. The two go on independently. Idle only, like {@link Agent.rewind}.
   */
  fork(options: ForkOptions): Promise<Agent<T>>;
  /**
   * Claims the conversation for one run across processes, through the history store (the JSONL,
   * SQLite, PostgreSQL and Redis stores keep the claim where every process sees it; a claim nobody
   * renews expires after `ttlMs`). Resolves `undefined` when another run holds it. With a store that
   * cannot claim (in memory, a custom one without `claimRun`) the claim holds within this
   * Agent only (`shared: false`). Advisory: queries do not check it; `createChatHandler` of
   * `agent-lattice/ui` takes one for each run.
   */
  claimRun(options?: RunClaimOptions): Promise<RunClaim | undefined>;
  /**
   * The MCP servers' resources and prompts: `listResources(server?)`, `listResourceTemplates(server?)`,
   * `readResource(server, uri)`, `listPrompts(server?)`, `getPrompt(server, name, args?)`. The
   * servers connect on first use, as before the first query. Without `mcpServers`, lists are empty.
   */
  readonly mcp: McpCatalog;
  /** Releases MCP connections and the store. */
  close(): Promise<void>;
}

/**
 * Creates an agent. Options are validated here, once: a mistake throws `InvalidOptionError`.
 *
 * @example
 * const agent = createAgent({ model: "claude-sonnet-4-6", tools: [readFile] });
 * const result = await agent.prompt("Summarise README.md");
 */
export function createAgent<T = unknown>(options: AgentOptions<T>): Agent<T> {
  checkOptionShapes(options);
  const shell = new AgentShell(options);
  // Plain functions, not methods: `const { prompt } = agent` works.
  return withSecrets(shell.loop.config.secrets, {
    prompt: (input, queryOptions) => shell.prompt(input, queryOptions),
    query: (input, queryOptions) => shell.query(input, queryOptions),
    streamInput: (inputs, queryOptions) => shell.streamInput(inputs, queryOptions),
    interrupt: () => shell.interrupt(),
    getHistory: () => shell.getHistory(),
    getPendingApprovals: () => shell.getPendingApprovals(),
    getPendingInputs: () => shell.getPendingInputs(),
    getContextUsage: () => shell.getContextUsage(),
    replaceHistory: (messages) => shell.replaceHistory(messages),
    addTools: (...tools) => shell.addTools(tools),
    setModel: (model) => shell.setModel(model),
    checkpoints: () => listAgentCheckpoints(shell),
    claimRun: runClaimer(options.historyStore),
    rewind: (rewindOptions) => rewindAgent(shell, rewindOptions),
    fork: async (forkOptions) => {
      const kept = await forkHistory(shell, forkOptions);
      const forked = createAgent<T>({ ...options, historyStore: forkOptions.store });
      if (forkOptions.store === undefined) await forked.replaceHistory(kept);
      // Loads what was just written there, so `activeAgent` names who answers at `at` at once.
      else await forked.getHistory();
      return forked;
    },
    get model() {
      return shell.conversation.model;
    },
    get activeAgent() {
      return shell.conversation.activeAgent;
    },
    mcp: shell.mcpCatalog(),
    close: () => shell.close(),
  });
}

/** The agent with its `secrets` held by its prototype: never an own property (JSON, `util.inspect`). */
function withSecrets<A extends object>(secrets: readonly string[], agent: A): A {
  const holder = Object.create(Object.prototype, {
    constructor: { value: Object, enumerable: false },
    secrets: { value: Object.freeze([...secrets]), enumerable: false },
  }) as object;
  return Object.setPrototypeOf(agent, holder) as A;
}
