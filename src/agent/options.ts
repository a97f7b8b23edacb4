/**
 * Agent and query options, and every default in one place.
 * @module
 */

import type { ModelPricing } from "../cost/pricing";
import type { Guardrail } from "../guardrails/guardrail";
import type { HistoryStore } from "../history/store";
import type { CanUseTool, Hooks, PermissionMode } from "../hooks/types";
import type { McpServerConfig } from "../integrations/mcp/config";
import type { McpElicitationHandler } from "../integrations/mcp/elicitation-types";
import type { ModelClient, ModelRequest, OutputFormat } from "../model/client";
import type { ProviderProfile } from "../model/endpoint";
import type { QuerySettingKey } from "../model/model-setting-keys";
import type { ModelSettings, ModelSettingsInput } from "../model/model-settings";
import type { ProjectInstructions } from "../skills/project-instructions";
import type { Skill } from "../skills/skill";
import type { TelemetryOptions } from "../telemetry/telemetry";
import type { SharedBudget } from "../tools/agent-context";
import type { OutputSchema } from "../tools/output-schema";
import type { Tool } from "../tools/tool";
import type { ContextManagementOptions } from "./context-options";
import type { Handoff } from "./handoff";
import type { ToolSearchOption } from "./tool-search-option";

/** @see AgentOptions.maxTurns */
export const DEFAULT_MAX_TURNS = 50;
/** @see AgentOptions.maxTokens */
export const DEFAULT_MAX_TOKENS = 8192;
/** @see AgentOptions.toolConcurrency */
export const DEFAULT_TOOL_CONCURRENCY = 10;
/** The agent's name unless `AgentOptions.name` sets one. */
export const DEFAULT_AGENT_NAME = "main";
/** @see RetryOptions.maxRetries */
export const DEFAULT_MAX_RETRIES = 2;
/** @see RetryOptions.initialDelayMs */
export const DEFAULT_RETRY_INITIAL_DELAY_MS = 500;
/** @see RetryOptions.maxDelayMs */
export const DEFAULT_RETRY_MAX_DELAY_MS = 30_000;
/** @see AutoCompactOptions.thresholdTokens — for a model whose context window is not known. */
export const DEFAULT_COMPACTION_THRESHOLD_TOKENS = 100_000;
/**
 * The share of a known context window at which compaction starts by default (75 %: 150,000 tokens
 * of Claude's 200,000, 96,000 of a 128,000-token window). @see AutoCompactOptions.thresholdTokens
 */
export const DEFAULT_COMPACTION_WINDOW_SHARE = 0.75;
/** @see AutoCompactOptions.keepRecentMessages */
export const DEFAULT_KEEP_RECENT_MESSAGES = 6;
/** @see CompactToolResultsOptions.thresholdChars */
export const DEFAULT_TOOL_RESULT_THRESHOLD_CHARS = 50_000;

/** Retries of transient provider failures. */
export interface RetryOptions {
  /** Retries after the first attempt. @default 2 */
  maxRetries?: number;
  /** The first backoff ceiling; doubles each attempt, with full jitter. @default 500 */
  initialDelayMs?: number;
  /** The largest backoff, `retry-after` included (at most 2,147,483,647). @default 30000 */
  maxDelayMs?: number;
}

/** Tuning of automatic compaction. */
export interface AutoCompactOptions {
  /**
   * Compact once a response reported more input tokens (input + cache buckets) than this.
   * @default 75 % of the model's context window when known (`CONTEXT_WINDOWS`,
   * `contextManagement.contextWindow`), else 100000
   */
  thresholdTokens?: number;
  /** Messages kept verbatim at the end of history. @default 6 */
  keepRecentMessages?: number;
  /** The summarising instruction. @default DEFAULT_COMPACTION_PROMPT */
  prompt?: string;
  /** Model for the summary call. @default the agent's model */
  model?: string;
  /** Output budget of the summary call. @default 4096 */
  maxTokens?: number;
  /**
   * Who compacts. `"client"`: the SDK, with a summary request (the threshold as above).
   * `"provider"`: the provider's server compaction (`compact_20260112`, beta `compact-2026-01-12`)
   * at `thresholdTokens` (at least 50,000), with `prompt` as its instructions; its `compaction`
   * blocks stay in history and are sent back. `"auto"`: the provider on the Anthropic API, Bedrock
   * and Vertex AI (with a threshold of 50,000 or more), the SDK elsewhere — and the SDK from then
   * on when the provider refuses the compaction (a 400 naming it) or ignores it. `model` and
   * `maxTokens` apply to the SDK's compaction only.
   * @default "auto"
   */
  where?: "auto" | "provider" | "client";
}

/** Summarising oversized tool results before they enter history. */
export interface CompactToolResultsOptions {
  /** Results longer than this many characters are summarised. @default 50000 */
  thresholdChars?: number;
  /** Model for the summary call. @default the agent's model */
  model?: string;
  /** Output budget of the summary call. @default 4096 */
  maxTokens?: number;
}

/**
 * Options of {@link createAgent}. The model settings (`temperature` … `extraBody`, `promptCaching`)
 * are {@link ModelSettingsInput}'s, listed once in `model/model-setting-keys.ts`.
 */
export interface AgentOptions<T = unknown> extends ModelSettingsInput {
  /** Model id, e.g. `claude-sonnet-4-6` or `deepseek-v4-flash`. */
  model: string;
  /** API key for the built-in client. @default process.env.ANTHROPIC_API_KEY */
  apiKey?: string;
  /** Base URL for the built-in client (any Anthropic-compatible endpoint). @default process.env.ANTHROPIC_BASE_URL */
  baseURL?: string;
  /**
   * The provider profile of the built-in client's endpoint (see `AnthropicClientOptions.providerProfile`):
   * `"anthropic"` for a gateway in front of the Anthropic API, `"portable"`, or each feature named.
   * @default each feature follows the host of `baseURL`
   */
  providerProfile?: ProviderProfile;
  /** A custom model client; when set, `apiKey`, `baseURL` and `providerProfile` are ignored. */
  client?: ModelClient;
  /**
   * More values to redact wherever the agent redacts its own key (yielded messages, stored history,
   * spans, errors, subagents): tokens the host's tools may see, say. Values shorter than 8
   * characters are ignored (they would redact ordinary words). The agent's `apiKey`, the key of a
   * client made with `createAnthropicClient` (its `secrets`), credentials in `baseURL` and the
   * `ANTHROPIC_*` environment keys are secrets without being listed here.
   */
  secrets?: string[];
  systemPrompt?: string;
  tools?: Tool[];
  /** Model requests one query may make. @default 50 */
  maxTurns?: number;
  /** Output budget per response. @default 8192 */
  maxTokens?: number;
  /** Deadline of each single model request, in ms (a positive integer, at most 2,147,483,647). Unset: none. */
  requestTimeoutMs?: number;
  /** Deadline of each tool call, in ms (at most 2,147,483,647); a call past it gets an error result and its signal aborts. Unset: none. */
  toolTimeoutMs?: number;
  historyStore?: HistoryStore;
  autoCompact?: boolean | AutoCompactOptions;
  /**
   * Clearing old tool results and old thinking from the requests (never from history), by the
   * provider or by the SDK, and the model's context window. @default off
   */
  contextManagement?: ContextManagementOptions;
  /** A validated, typed payload the run must end with, submitted through `submit_output`. */
  outputSchema?: OutputSchema<T>;
  /** Provider-native JSON output (the final text is parsed and validated). */
  outputFormat?: OutputFormat;
  /** Shapes one outgoing request without touching history. Return a replacement, or nothing. */
  onModelRequest?: (request: ModelRequest) => ModelRequest | void | Promise<ModelRequest | void>;
  /** Yield `stream_event` messages (text and tool-input deltas). @default false */
  includePartialMessages?: boolean;
  /** How many read-only calls run at once. @default 10 */
  toolConcurrency?: number;
  /**
   * Streaming tool execution: a read-only call starts as soon as its `tool_use` block is complete,
   * while the rest of the response still streams (after its checks, hooks and permissions, as
   * always), instead of after the whole response. Calls that are not read-only, and every call of
   * an agent whose batches may pause for approval (`canUseTool`, `askBeforeWrites`, a tool with
   * `needsApproval`) or with `compactToolResults` on, still wait for the whole response.
   * `false` restores that order for every call.
   * @default true
   */
  streamingToolExecution?: boolean;
  retry?: RetryOptions;
  /** Tried once the primary model's retries are spent on a transient error. */
  fallbackModel?: string;
  /** Over this cost a query ends `error_max_budget_usd`, keeping the partial text. */
  maxBudgetUsd?: number;
  /** USD per million tokens, merged over the built-in table. */
  pricing?: Record<string, ModelPricing>;
  compactToolResults?: boolean | CompactToolResultsOptions;
  /** A text-only response cut at max_tokens is continued up to this many times. @default 0 */
  maxTokensContinuations?: number;
  hooks?: Hooks;
  canUseTool?: CanUseTool;
  /** @default "default" */
  permissionMode?: PermissionMode;
  /** Tool names or patterns allowed without asking (`*` wildcards or RegExp). */
  allowedTools?: Array<string | RegExp>;
  /** Tool names or patterns always refused; wins over `allowedTools`. */
  disallowedTools?: Array<string | RegExp>;
  /** MCP servers whose tools the agent uses (needs `@modelcontextprotocol/sdk`). */
  mcpServers?: Record<string, McpServerConfig>;
  /**
   * Answers MCP servers' questions asked during a tool call (elicitation, form and URL modes): the
   * person's answer, `accept` with `content`, `decline` or `cancel`. Fields left out of an accepted
   * form get the schema's defaults. With it the MCP client declares the elicitation capability.
   */
  onElicitation?: McpElicitationHandler;
  /**
   * OpenTelemetry spans (`invoke_agent`, `chat <model>`, `execute_tool <name>`, `compaction`) with
   * the GenAI semantic conventions. Needs `@opentelemetry/api`; a no-op without it. @default off
   */
  telemetry?: boolean | TelemetryOptions;
  /**
   * Agent Skills: folders (a folder holding skill folders, or one skill folder with a `SKILL.md`),
   * read before the first query, or skills from `defineSkill` / `loadSkills`. Their names and
   * descriptions go into the system prompt; the model reads one with the `skill` tool. @default none
   */
  skills?: Array<string | Skill>;
  /**
   * Project instruction files (`AGENTS.md`, `CLAUDE.md` …) appended to the system prompt, in the
   * order listed, read before the first query. @default none
   */
  instructions?: ProjectInstructions;
  /**
   * Where deferred tools (`deferLoading`) are searched: `"provider"` (the Messages API's tool search:
   * `defer_loading` and its search tool), `"client"` (the agent's own `search_tools`, any provider),
   * `false` (deferral ignored: every tool sent); or `{ mode, synonyms }`, the synonyms added to
   * client-side search's defaults (docs/en/tools.md, "Tool search"). @default "auto": the provider
   * on the Anthropic API, the client elsewhere
   */
  toolSearch?: ToolSearchOption;
  /**
   * The agent's name: named to guardrails (`GuardrailContext.agent`), in telemetry and in history.
   * 1–64 letters, digits, `_` or `-`. @default "main"
   */
  name?: string;
  /**
   * Checks that run at fixed points of every query — the prompt before it is sent, each tool call
   * and result, the final answer — and may refuse, redact or stop it (`defineGuardrail`,
   * `piiGuardrail`, `judgeGuardrail`; see docs/en/guardrails.md). @default none
   */
  guardrails?: Guardrail[];
  /**
   * Specialists the conversation can be handed to (`defineHandoff`; see docs/en/handoffs.md). The
   * model sees each as the tool `transfer_to_<name>`; once it calls one, the specialist answers the
   * same conversation — this query's next request and every later prompt, in any process over the
   * same store — with its own system prompt, tools, model and settings, until it hands back
   * (`transfer_to_<name of this agent>`) or on. `agent.activeAgent` names who answers. @default none
   */
  handoffs?: Handoff[];
  /** Injected clock and sleep, for deterministic tests. */
  _internal?: InternalOptions;
}

/** Test seams, and what a subagent's child agent takes from the query that started it. */
export interface InternalOptions {
  now?: () => number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  random?: () => number;
  /** Set by `defineSubagent` on each child agent. */
  parent?: ParentQuery;
}

/** What a subagent's child agent takes from the query that started it. */
export interface ParentQuery {
  /** The parent query's budget, shared live with its other children (`AgentToolContext.budget`). */
  budget?: SharedBudget;
  /**
   * The tracing the child's spans nest in (`AgentToolContext.tracing`): without `telemetry` of its
   * own the child records with the parent's tracer and settings; either way its `invoke_agent`
   * span is a child of the call's `execute_tool` span.
   */
  tracing?: unknown;
  /** How many subagents up the chain the child runs: 1 for a top-level agent's subagent (`AgentToolContext.depth`). */
  depth?: number;
  /** `gen_ai.agent.name` of the child's spans when it inherits the parent's tracing. */
  agentName?: string;
  /** The child talks to a client of its own: the parent's `providerName` is not inherited. */
  ownClient?: boolean;
}

/**
 * Per-query options. The model settings a query may override (`temperature`, `topP`, `topK`,
 * `stopSequences`, `toolChoice` — a named tool must be one the agent has —, `thinking` — its budget
 * below this query's `maxTokens` — and `effort`) override the agent's for this query.
 */
export interface QueryOptions extends QueryModelSettings {
  /** Bounds the whole query; aborting ends it `error_abort`. */
  signal?: AbortSignal;
  /** Overrides the agent's `requestTimeoutMs` for this query. */
  requestTimeoutMs?: number;
  /** Overrides the agent's `maxTokens` for this query. */
  maxTokens?: number;
}

/** The model settings a query may override ({@link QuerySettingKey}), as {@link QueryOptions} takes them. */
export type QueryModelSettings = Pick<ModelSettings, QuerySettingKey>;
