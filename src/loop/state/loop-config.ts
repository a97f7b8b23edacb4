/**
 * The loop's configuration: every setting the loop reads, resolved and validated once (by the agent,
 * from its options) and never changed afterwards. State that changes — the model, the tools, history
 * — lives in the {@link Conversation}; what one query changes lives in its {@link QueryState}.
 * @module
 */
import type { ModelPricing } from "../../cost/pricing";
import type { GuardrailsByStage } from "../../guardrails/guardrail";
import type { ToolPattern } from "../../hooks/permissions";
import type { CanUseTool, Hooks, PermissionMode } from "../../hooks/types";
import type { ModelMessage } from "../../messages/types";
import type { ModelRequest, OutputFormat } from "../../model/client";
import type { ContextEdits } from "../../model/context-management";
import type { RequestModelSettings } from "../../model/model-setting-keys";
import type { RetryPolicy } from "../../model/retry";
import type { SharedBudget } from "../../tools/agent-context";
import type { SubmitOutputTool } from "../../tools/submit-output";

/** Shapes one outgoing main request without touching history (`AgentOptions.onModelRequest`). */
export type ModelRequestShaper = (
  request: ModelRequest,
) => ModelRequest | void | Promise<ModelRequest | void>;

/**
 * The model settings a request carries, resolved: the sampling, tool-choice, thinking, effort,
 * metadata, tier and extra-body fields as set (absent: the provider's default), and prompt caching
 * as `{ ttl }` when on (absent when off). Their keys are listed once, in `model/model-setting-keys.ts`.
 */
export type RequestSettings = RequestModelSettings;

/** What every main request carries, besides the model and the messages. */
export interface ModelSettings<T> {
  /**
   * The agent's model settings: what each main request carries unless a query overrides them
   * (a query's own resolved settings are on its `QueryState`).
   */
  readonly request: Readonly<RequestSettings>;
  readonly systemPrompt: string | undefined;
  /** Output budget of each main response. */
  readonly maxTokens: number;
  /** Provider-native JSON output, when set. */
  readonly outputFormat: OutputFormat | undefined;
  /** The `submit_output` tool of an `outputSchema`, when set. */
  readonly submitTool: SubmitOutputTool<T> | undefined;
  /** Tried once the first model's retries are spent on a transient error. */
  readonly fallbackModel: string | undefined;
  /** Forward raw stream events as `stream_event` messages. */
  readonly streamEvents: boolean;
  readonly onModelRequest: ModelRequestShaper | undefined;
}

/** When a query stops by itself. */
export interface LoopLimits {
  /** Model requests one query may make. */
  readonly maxTurns: number;
  /** Over this cost (USD) a query ends `error_max_budget_usd`. */
  readonly maxBudgetUsd: number | undefined;
  /**
   * The budget of the query that started this agent (a subagent's child), shared live with the
   * other children it runs: each response's cost is added to it as it comes, and a query ends
   * `error_max_budget_usd` once it is crossed, as over its own `maxBudgetUsd`.
   */
  readonly sharedBudget: SharedBudget | undefined;
  /** How many subagents up the chain this agent runs: 0 for a top-level agent (`AgentToolContext.depth`). */
  readonly subagentDepth: number;
  /** Text-only responses cut at max_tokens that are continued. */
  readonly maxTokensContinuations: number;
  /** Read-only tool calls run at once. */
  readonly toolConcurrency: number;
  /** Read-only calls start while the response still streams (`AgentOptions.streamingToolExecution`). */
  readonly streamingToolExecution: boolean;
}

/** The deadlines of single operations, in milliseconds (validated for a timer). */
export interface LoopDeadlines {
  /** Each model request, unless a query overrides it. */
  readonly requestTimeoutMs: number | undefined;
  /** Each tool call. */
  readonly toolTimeoutMs: number | undefined;
}

/** Resolved automatic-compaction settings. */
export interface CompactionSettings {
  /** Compact once a response reported more input tokens than this. */
  readonly thresholdTokens: number;
  /** Messages kept verbatim at the end of history. */
  readonly keepRecentMessages: number;
  /** The summarising instruction; undefined: the default. */
  readonly prompt: string | undefined;
  /** Model of the summary call; undefined: the conversation's. */
  readonly model: string | undefined;
  /** Output budget of the summary call. */
  readonly maxTokens: number;
  /**
   * Who compacts: the SDK (`"client"`: a summary request), the provider (`"provider"`: server
   * compaction, `compact_20260112`), or `"auto"`: the provider where its profile says it compacts,
   * until it refuses or ignores it, the SDK elsewhere.
   */
  readonly where: "auto" | "provider" | "client";
}

/** Resolved settings of summarising oversized tool results. */
export interface ToolResultCompactionSettings {
  /** Results longer than this many characters are summarised. */
  readonly thresholdChars: number;
  /** Model of the summary call; undefined: the conversation's. */
  readonly model: string | undefined;
  /** Output budget of the summary call. */
  readonly maxTokens: number;
}

/** Automatic compaction of history, and of oversized tool results. Undefined: off. */
export interface CompactionConfig {
  /** `autoCompact`: the history's older part summarised when the context grows past a threshold. */
  readonly history: CompactionSettings | undefined;
  /** `compactToolResults`: results over a length summarised before they enter history. */
  readonly toolResults: ToolResultCompactionSettings | undefined;
}

/** Context management (`contextManagement`), resolved. */
export interface ContextManagementConfig {
  /** The edits asked for (at least one). */
  readonly edits: ContextEdits;
  /** Who applies them: the provider, the SDK, or the provider's profile decides. */
  readonly where: "auto" | "provider" | "client";
}

/** Context management and the model's window. */
export interface ContextSettings {
  /** Undefined: no edits asked. */
  readonly management: ContextManagementConfig | undefined;
  /** The agent's model, whose window `window` is (`setModel()` may change the conversation's). */
  readonly model: string;
  /** The context window of the agent's model, when known (or given). */
  readonly window: number | undefined;
}

/** The static permission rules and the interactive check of tool calls. */
export interface PermissionSettings {
  readonly mode: PermissionMode;
  readonly allowedTools: readonly ToolPattern[] | undefined;
  readonly disallowedTools: readonly ToolPattern[] | undefined;
  readonly canUseTool: CanUseTool | undefined;
}

/** Time and chance, injectable for deterministic tests. */
export interface LoopClock {
  now(): number;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  random(): number;
}

/** What a specialist's requests carry of the conversation (`defineHandoff`'s `history`). */
export type HandoffHistoryForm = "full" | "summary" | "none" | ((messages: ModelMessage[]) => ModelMessage[]);

/** How an agent of a conversation with handoffs (`AgentOptions.handoffs`) hands off and sees history. */
export interface HandoffSettings {
  /** The `transfer_to_<name>` tools this agent offers, by tool name: the agent each passes control to. */
  readonly transfers: ReadonlyMap<string, string>;
  /**
   * What this agent's requests carry of the conversation, from history as it would be sent
   * otherwise (`defineHandoff`'s `history`, through `filterHandoffHistory`); undefined: all of it.
   */
  readonly view: ((messages: ModelMessage[]) => ModelMessage[]) | undefined;
}

/** Everything the loop reads and never changes. */
export interface LoopConfig<T> {
  /** What every main request carries: add a new model setting here (and copy it in `MainRequest`). */
  readonly modelSettings: ModelSettings<T>;
  readonly limits: LoopLimits;
  readonly deadlines: LoopDeadlines;
  /** Retries of transient provider failures. */
  readonly retry: Readonly<RetryPolicy>;
  /** USD per million tokens, by model. */
  readonly pricing: Readonly<Record<string, ModelPricing>>;
  readonly compaction: CompactionConfig;
  /** Context editing and the context window (`contextManagement`). */
  readonly context: ContextSettings;
  /** The hooks of every event, validated. */
  readonly hooks: Hooks | undefined;
  /** How tool calls are allowed. */
  readonly permissions: PermissionSettings;
  /** Strings that must never appear in errors, tool results or spans (the API key). */
  readonly secrets: readonly string[];
  /** `Date.now`, an abortable sleep and `Math.random`, unless a test injects its own. */
  readonly clock: LoopClock;
  /** The guardrails by stage (`AgentOptions.guardrails`); undefined: none, nothing is checked. */
  readonly guardrails: GuardrailsByStage | undefined;
  /** Who answers (`AgentOptions.name`, default `"main"`): named to guardrails, telemetry and history. */
  readonly agentName: string;
  /** Handoffs: set on every agent of a conversation with `AgentOptions.handoffs`; undefined without. */
  readonly handoffs: HandoffSettings | undefined;
}
