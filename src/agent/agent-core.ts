/**
 * The agent's resolved configuration and long-lived state, shared by the shell (`createAgent`)
 * and the loop. Options are validated and defaulted here, once.
 * @module
 */
import { DEFAULT_PRICING, type ModelPricing } from "../cost/pricing";
import { InvalidOptionError } from "../errors";
import { HistoryLog } from "../history/history-log";
import { type ToolPattern, validatePermissionOptions } from "../hooks/permissions";
import { validateHooks } from "../hooks/run-hooks";
import type { CanUseTool, Hooks, PermissionMode } from "../hooks/types";
import type { McpServerStatus } from "../messages/sdk-messages";
import type {
  ModelClient,
  ModelRequest,
  ModelSettingsField,
  ModelToolDefinition,
  OutputFormat,
} from "../model/client";
import type { RetryPolicy } from "../model/retry";
import { urlSecretsOf } from "../shared/redact";
import { abortableSleep, MAX_TIMER_MS } from "../shared/signals";
import { NOOP_TELEMETRY, type Telemetry, type TelemetryOptions } from "../telemetry/telemetry";
import {
  createSubmitOutputTool,
  SUBMIT_OUTPUT_TOOL_NAME,
  type SubmitOutputTool,
} from "../tools/submit-output";
import type { Tool } from "../tools/tool";
import {
  type AgentOptions,
  DEFAULT_COMPACTION_THRESHOLD_TOKENS,
  DEFAULT_KEEP_RECENT_MESSAGES,
  DEFAULT_MAX_RETRIES,
  DEFAULT_MAX_TOKENS,
  DEFAULT_MAX_TURNS,
  DEFAULT_RETRY_INITIAL_DELAY_MS,
  DEFAULT_RETRY_MAX_DELAY_MS,
  DEFAULT_TOOL_CONCURRENCY,
  DEFAULT_TOOL_RESULT_THRESHOLD_CHARS,
} from "./options";

/** Output budget of a compaction or summary call, unless configured. */
export const DEFAULT_SUMMARY_MAX_TOKENS = 4096;

/** Resolved automatic-compaction settings. */
export interface CompactionSettings {
  thresholdTokens: number;
  keepRecentMessages: number;
  prompt: string | undefined;
  model: string | undefined;
  maxTokens: number;
}

/** What the loop reads from the agent. */
export interface AgentCore<T> {
  client: ModelClient;
  /** The model for the next turn (`setModel` changes it). */
  model: string;
  fallbackModel: string | undefined;
  systemPrompt: string | undefined;
  maxTurns: number;
  maxTokens: number;
  requestTimeoutMs: number | undefined;
  toolTimeoutMs: number | undefined;
  toolConcurrency: number;
  includePartialMessages: boolean;
  retry: RetryPolicy;
  maxBudgetUsd: number | undefined;
  maxTokensContinuations: number;
  pricing: Readonly<Record<string, ModelPricing>>;
  autoCompact: CompactionSettings | undefined;
  compactToolResults: { thresholdChars: number; model: string | undefined; maxTokens: number } | undefined;
  outputFormat: OutputFormat | undefined;
  submitTool: SubmitOutputTool<T> | undefined;
  onModelRequest: AgentOptions<T>["onModelRequest"];
  hooks: Hooks | undefined;
  canUseTool: CanUseTool | undefined;
  permissionMode: PermissionMode;
  allowedTools: readonly ToolPattern[] | undefined;
  disallowedTools: readonly ToolPattern[] | undefined;
  history: HistoryLog;
  tools: Map<string, Tool>;
  /** Tool definitions as sent to the model; rebuilt only when the tool set changes. */
  toolDefinitions(): ModelToolDefinition[] | undefined;
  /** Marks the cached tool definitions stale. */
  toolsChanged(): void;
  /** The definitions `toolDefinitions()` returns; `null` when stale. */
  toolDefinitionCache: ModelToolDefinition[] | undefined | null;
  compactionFailures: number;
  compactionDisabled: boolean;
  /** Input tokens (all buckets) the latest response reported; drives automatic compaction. */
  lastInputTokens: number | undefined;
  reportedUnpricedModels: Set<string>;
  mcpStatuses: McpServerStatus[] | undefined;
  /** Spans; the no-op until `prepare` loads OpenTelemetry for an agent with `telemetry` on. */
  telemetry: Telemetry;
  telemetryOptions: TelemetryOptions | undefined;
  /** Strings that must never appear in errors (the API key). */
  secrets: string[];
  now(): number;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  random(): number;
}

/** Validates options and builds the core. `client` is resolved by the caller. */
export function createAgentCore<T>(options: AgentOptions<T>, client: ModelClient): AgentCore<T> {
  if (typeof options.model !== "string" || options.model.length === 0) {
    throw new InvalidOptionError('createAgent: `model` is required (e.g. "claude-sonnet-4-6").');
  }
  const maxTurns = positiveInteger("maxTurns", options.maxTurns) ?? DEFAULT_MAX_TURNS;
  const maxTokens = positiveInteger("maxTokens", options.maxTokens) ?? DEFAULT_MAX_TOKENS;
  const requestTimeoutMs = positiveMilliseconds("requestTimeoutMs", options.requestTimeoutMs);
  const toolTimeoutMs = positiveMilliseconds("toolTimeoutMs", options.toolTimeoutMs);
  const toolConcurrency =
    positiveInteger("toolConcurrency", options.toolConcurrency) ?? DEFAULT_TOOL_CONCURRENCY;
  const maxTokensContinuations =
    nonNegativeInteger("maxTokensContinuations", options.maxTokensContinuations) ?? 0;
  if (options.maxBudgetUsd !== undefined && !(options.maxBudgetUsd >= 0)) {
    throw new InvalidOptionError("createAgent: `maxBudgetUsd` must be a non-negative number of US dollars.");
  }
  if (options.outputSchema && options.outputFormat) {
    throw new InvalidOptionError(
      "createAgent: set either `outputSchema` (submit_output tool) or `outputFormat` (provider-native), not both.",
    );
  }
  if (
    options.outputSchema &&
    typeof options.outputSchema.parse !== "function" &&
    !("~standard" in options.outputSchema)
  ) {
    throw new InvalidOptionError(
      "createAgent: `outputSchema` needs a parse(input) method (a zod schema works directly).",
    );
  }
  const retry: RetryPolicy = {
    maxRetries: nonNegativeInteger("retry.maxRetries", options.retry?.maxRetries) ?? DEFAULT_MAX_RETRIES,
    initialDelayMs:
      nonNegativeMilliseconds("retry.initialDelayMs", options.retry?.initialDelayMs) ??
      DEFAULT_RETRY_INITIAL_DELAY_MS,
    maxDelayMs:
      nonNegativeMilliseconds("retry.maxDelayMs", options.retry?.maxDelayMs) ?? DEFAULT_RETRY_MAX_DELAY_MS,
  };
  validateHooks(options.hooks);
  validatePermissionOptions(options);
  const submitTool = options.outputSchema ? createSubmitOutputTool(options.outputSchema) : undefined;
  const tools = new Map<string, Tool>();
  const core: AgentCore<T> = {
    client,
    model: options.model,
    fallbackModel: options.fallbackModel,
    systemPrompt: options.systemPrompt,
    maxTurns,
    maxTokens,
    requestTimeoutMs,
    toolTimeoutMs,
    toolConcurrency,
    includePartialMessages: options.includePartialMessages ?? false,
    retry,
    maxBudgetUsd: options.maxBudgetUsd,
    maxTokensContinuations,
    pricing: options.pricing ? { ...DEFAULT_PRICING, ...validatedPricing(options.pricing) } : DEFAULT_PRICING,
    autoCompact: resolveAutoCompact(options.autoCompact),
    compactToolResults: resolveToolResultCompaction(options.compactToolResults),
    outputFormat: options.outputFormat,
    submitTool,
    onModelRequest: options.onModelRequest,
    hooks: options.hooks,
    canUseTool: options.canUseTool,
    permissionMode: options.permissionMode ?? "default",
    allowedTools: options.allowedTools,
    disallowedTools: options.disallowedTools,
    history: new HistoryLog(options.historyStore),
    tools,
    // Shared functions, not closures per Agent: the loop calls them every turn, and one call
    // target for every Agent keeps that call site monomorphic.
    toolDefinitions: cachedToolDefinitions,
    toolsChanged: forgetToolDefinitions,
    toolDefinitionCache: null,
    compactionFailures: 0,
    compactionDisabled: false,
    lastInputTokens: undefined,
    reportedUnpricedModels: new Set(),
    mcpStatuses: undefined,
    telemetry: NOOP_TELEMETRY,
    telemetryOptions: options.telemetry ? (options.telemetry === true ? {} : options.telemetry) : undefined,
    secrets: agentSecrets(options),
    now: options._internal?.now ?? Date.now,
    sleep: options._internal?.sleep ?? abortableSleep,
    random: options._internal?.random ?? Math.random,
  };
  for (const tool of options.tools ?? []) registerTool(core, tool);
  return core;
}

/** Adds a tool; throws on a duplicate name or on `submit_output` while `outputSchema` is set. */
export function registerTool<T>(core: AgentCore<T>, tool: Tool): void {
  if (
    !tool ||
    typeof tool.name !== "string" ||
    typeof tool.execute !== "function" ||
    typeof tool.parseInput !== "function"
  ) {
    throw new InvalidOptionError(
      "A tool must be created with defineTool() (it needs name, inputSchema and execute).",
    );
  }
  if (core.submitTool && tool.name === SUBMIT_OUTPUT_TOOL_NAME) {
    throw new InvalidOptionError(
      `The tool name "${SUBMIT_OUTPUT_TOOL_NAME}" is reserved while outputSchema is set.`,
    );
  }
  if (core.tools.has(tool.name))
    throw new InvalidOptionError(`A tool named "${tool.name}" is already registered.`);
  core.tools.set(tool.name, tool);
  core.toolsChanged();
}

function cachedToolDefinitions(this: AgentCore<unknown>): ModelToolDefinition[] | undefined {
  if (this.toolDefinitionCache === null)
    this.toolDefinitionCache = buildToolDefinitions(this.tools, this.submitTool);
  return this.toolDefinitionCache;
}

function forgetToolDefinitions(this: AgentCore<unknown>): void {
  this.toolDefinitionCache = null;
}

function buildToolDefinitions(
  tools: Map<string, Tool>,
  submitTool: SubmitOutputTool<unknown> | undefined,
): ModelToolDefinition[] | undefined {
  const definitions: ModelToolDefinition[] = [];
  for (const tool of tools.values()) {
    const definition: ModelToolDefinition = { name: tool.name, input_schema: tool.inputSchema };
    if (tool.description) definition.description = tool.description;
    definitions.push(definition);
  }
  if (submitTool) definitions.push(submitTool.definition);
  return definitions.length > 0 ? definitions : undefined;
}

function resolveAutoCompact(option: AgentOptions["autoCompact"]): CompactionSettings | undefined {
  if (!option) return undefined;
  const settings = option === true ? {} : option;
  return {
    thresholdTokens:
      positiveInteger("autoCompact.thresholdTokens", settings.thresholdTokens) ??
      DEFAULT_COMPACTION_THRESHOLD_TOKENS,
    keepRecentMessages:
      nonNegativeInteger("autoCompact.keepRecentMessages", settings.keepRecentMessages) ??
      DEFAULT_KEEP_RECENT_MESSAGES,
    prompt: settings.prompt,
    model: settings.model,
    maxTokens: positiveInteger("autoCompact.maxTokens", settings.maxTokens) ?? DEFAULT_SUMMARY_MAX_TOKENS,
  };
}

function resolveToolResultCompaction(option: AgentOptions["compactToolResults"]) {
  if (!option) return undefined;
  const settings = option === true ? {} : option;
  return {
    thresholdChars:
      positiveInteger("compactToolResults.thresholdChars", settings.thresholdChars) ??
      DEFAULT_TOOL_RESULT_THRESHOLD_CHARS,
    model: settings.model,
    maxTokens:
      positiveInteger("compactToolResults.maxTokens", settings.maxTokens) ?? DEFAULT_SUMMARY_MAX_TOKENS,
  };
}

/** Every price must be a finite non-negative number: a NaN cost would never cross a budget. */
function validatedPricing(pricing: Record<string, ModelPricing>): Record<string, ModelPricing> {
  for (const [model, price] of Object.entries(pricing)) {
    const bands: Array<[string, Record<string, unknown> | undefined]> = [
      [model, price as Record<string, unknown>],
      [`${model}.longPrompt`, price?.longPrompt as Record<string, unknown> | undefined],
    ];
    for (const [where, band] of bands) {
      if (band === undefined && where !== model) continue;
      for (const field of ["inputPerMTok", "outputPerMTok", "cacheWritePerMTok", "cacheReadPerMTok"]) {
        const value = band?.[field];
        const required = field === "inputPerMTok" || field === "outputPerMTok";
        if (value === undefined && !required) continue;
        if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
          throw new InvalidOptionError(
            `\`pricing["${where}"].${field}\` must be a finite non-negative number of USD per million tokens.`,
          );
        }
      }
    }
  }
  return pricing;
}

/**
 * The credentials the agent keeps out of errors and tool results: its API key (given, or the
 * environment's), an auth token from the environment, and credentials in its base URL.
 */
function agentSecrets(options: AgentOptions<unknown>): string[] {
  const candidates = [
    options.apiKey,
    process.env.ANTHROPIC_API_KEY,
    process.env.ANTHROPIC_AUTH_TOKEN,
    ...urlSecretsOf(options.baseURL ?? process.env.ANTHROPIC_BASE_URL),
  ];
  return [
    ...new Set(candidates.filter((value): value is string => typeof value === "string" && value.length >= 8)),
  ];
}

/** Validates an optional positive integer option. */
export function positiveInteger(name: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value <= 0) {
    throw new InvalidOptionError(`\`${name}\` must be a positive integer, got ${JSON.stringify(value)}.`);
  }
  return value;
}

/** Validates an optional non-negative integer option. */
function nonNegativeInteger(name: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 0) {
    throw new InvalidOptionError(`\`${name}\` must be a non-negative integer, got ${JSON.stringify(value)}.`);
  }
  return value;
}

/**
 * Validates an optional positive duration in milliseconds. It goes to a timer, so it is also at
 * most {@link MAX_TIMER_MS}: a larger one would fire at once.
 */
export function positiveMilliseconds(name: string, value: number | undefined): number | undefined {
  return withinTimerRange(name, positiveInteger(name, value));
}

/** Validates an optional non-negative duration in milliseconds; see {@link positiveMilliseconds}. */
function nonNegativeMilliseconds(name: string, value: number | undefined): number | undefined {
  return withinTimerRange(name, nonNegativeInteger(name, value));
}

function withinTimerRange(name: string, value: number | undefined): number | undefined {
  if (value !== undefined && value > MAX_TIMER_MS) {
    throw new InvalidOptionError(
      `\`${name}\` must be at most ${MAX_TIMER_MS} ms (about 24.8 days, the longest a timer can wait), got ${value}.`,
    );
  }
  return value;
}

/** The request fields that do not change between attempts (the model settings: not resolved yet). */
export type RequestBase = Omit<
  ModelRequest,
  "signal" | "timeoutMs" | "model" | "onEvent" | ModelSettingsField
>;
