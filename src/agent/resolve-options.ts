/**
 * Agent options resolved into the loop's configuration: validated and defaulted here, once, at
 * creation — a mistake throws {@link InvalidOptionError} from `createAgent`, never mid-query.
 * @module
 */
import { DEFAULT_PRICING } from "../cost/pricing";
import { InvalidOptionError } from "../errors";
import { resolveGuardrails } from "../guardrails/guardrail";
import { validatePermissionOptions } from "../hooks/permissions";
import { validateHooks } from "../hooks/run-hooks";
import type {
  CompactionSettings,
  LoopConfig,
  LoopLimits,
  ToolResultCompactionSettings,
} from "../loop/state/loop-config";
import { MIN_SERVER_COMPACTION_TRIGGER } from "../model/context-management";
import { readEnv } from "../model/env";
import type { RetryPolicy } from "../model/retry";
import { secretsWorthRedacting, urlSecretsOf } from "../shared/redact";
import { abortableSleep } from "../shared/signals";
import { createSubmitOutputTool } from "../tools/submit-output";
import { resolveAgentSettings } from "./model-settings-options";
import {
  nonNegativeInteger,
  nonNegativeMilliseconds,
  positiveInteger,
  positiveMilliseconds,
  validatedPricing,
} from "./option-checks";
import {
  type AgentOptions,
  DEFAULT_AGENT_NAME,
  DEFAULT_COMPACTION_THRESHOLD_TOKENS,
  DEFAULT_COMPACTION_WINDOW_SHARE,
  DEFAULT_KEEP_RECENT_MESSAGES,
  DEFAULT_MAX_RETRIES,
  DEFAULT_MAX_TOKENS,
  DEFAULT_MAX_TURNS,
  DEFAULT_RETRY_INITIAL_DELAY_MS,
  DEFAULT_RETRY_MAX_DELAY_MS,
  DEFAULT_TOOL_CONCURRENCY,
  DEFAULT_TOOL_RESULT_THRESHOLD_CHARS,
} from "./options";
import { resolveContextSettings, resolveWhere } from "./resolve-context";

/** Output budget of a compaction or summary call, unless configured. */
export const DEFAULT_SUMMARY_MAX_TOKENS = 4096;

/**
 * Validates `options` and resolves everything the loop reads from them.
 * @throws InvalidOptionError on the first invalid option
 */
export function resolveLoopConfig<T>(options: AgentOptions<T>): LoopConfig<T> {
  if (typeof options.model !== "string" || options.model.length === 0) {
    throw new InvalidOptionError('createAgent: `model` is required (e.g. "claude-sonnet-4-6").');
  }
  const maxTurns = positiveInteger("maxTurns", options.maxTurns) ?? DEFAULT_MAX_TURNS;
  const maxTokens = positiveInteger("maxTokens", options.maxTokens) ?? DEFAULT_MAX_TOKENS;
  const requestTimeoutMs = requestTimeout(options.requestTimeoutMs);
  const toolTimeoutMs = positiveMilliseconds("toolTimeoutMs", options.toolTimeoutMs);
  const limits = resolveLimits(options, maxTurns);
  checkOutputOptions(options);
  const retry = resolveRetry(options.retry);
  validateHooks(options.hooks);
  validatePermissionOptions(options);
  const context = resolveContextSettings(options.model, options.contextManagement);
  const submitTool = options.outputSchema ? createSubmitOutputTool(options.outputSchema) : undefined;
  const request = resolveAgentSettings(options, {
    maxTokens,
    toolNames: knownToolNames(options),
    outputTool: submitTool?.definition.name,
  });
  return {
    modelSettings: {
      request,
      systemPrompt: options.systemPrompt,
      maxTokens,
      outputFormat: options.outputFormat,
      submitTool,
      fallbackModel: options.fallbackModel,
      streamEvents: options.includePartialMessages ?? false,
      onModelRequest: options.onModelRequest,
    },
    limits,
    deadlines: { requestTimeoutMs, toolTimeoutMs },
    retry,
    pricing: options.pricing ? { ...DEFAULT_PRICING, ...validatedPricing(options.pricing) } : DEFAULT_PRICING,
    compaction: {
      history: resolveAutoCompact(options.autoCompact, context.window),
      toolResults: resolveToolResultCompaction(options.compactToolResults),
    },
    context,
    hooks: options.hooks,
    permissions: {
      mode: options.permissionMode ?? "default",
      allowedTools: options.allowedTools,
      disallowedTools: options.disallowedTools,
      canUseTool: options.canUseTool,
    },
    secrets: agentSecrets(options),
    guardrails: resolveGuardrails(options.guardrails),
    agentName: agentName(options.name),
    handoffs: undefined,
    clock: {
      now: options._internal?.now ?? Date.now,
      sleep: options._internal?.sleep ?? abortableSleep,
      random: options._internal?.random ?? Math.random,
    },
  };
}

/** `AgentOptions.name` (or a handoff's), checked. */
export function agentName(name: unknown): string {
  if (name === undefined) return DEFAULT_AGENT_NAME;
  if (typeof name !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(name))
    throw new InvalidOptionError(
      `createAgent: name must be 1–64 letters, digits, _ or -, got ${JSON.stringify(name)}.`,
    );
  return name;
}

/**
 * The names of the agent's tools, as far as they are known at creation: not with MCP servers, whose
 * tools are listed only once they are connected.
 */
export function knownToolNames<T>(options: AgentOptions<T>): string[] | undefined {
  if (options.mcpServers && Object.keys(options.mcpServers).length > 0) return undefined;
  const names: string[] = [];
  for (const tool of options.tools ?? []) if (typeof tool?.name === "string") names.push(tool.name);
  return names;
}

/**
 * The deadline of each model request: the agent's `requestTimeoutMs`, or a query's override of it
 * (`QueryOptions.requestTimeoutMs`) — one rule for both.
 * @throws InvalidOptionError
 */
export function requestTimeout(value: number | undefined): number | undefined {
  return positiveMilliseconds("requestTimeoutMs", value);
}

function resolveLimits<T>(options: AgentOptions<T>, maxTurns: number): LoopLimits {
  const toolConcurrency =
    positiveInteger("toolConcurrency", options.toolConcurrency) ?? DEFAULT_TOOL_CONCURRENCY;
  const maxTokensContinuations =
    nonNegativeInteger("maxTokensContinuations", options.maxTokensContinuations) ?? 0;
  if (options.maxBudgetUsd !== undefined && !(options.maxBudgetUsd >= 0)) {
    throw new InvalidOptionError("createAgent: `maxBudgetUsd` must be a non-negative number of US dollars.");
  }
  const streaming = options.streamingToolExecution;
  if (streaming !== undefined && typeof streaming !== "boolean") {
    throw new InvalidOptionError("createAgent: `streamingToolExecution` must be true or false.");
  }
  return {
    maxTurns,
    maxBudgetUsd: options.maxBudgetUsd,
    sharedBudget: options._internal?.parent?.budget,
    subagentDepth: options._internal?.parent?.depth ?? 0,
    maxTokensContinuations,
    toolConcurrency,
    streamingToolExecution: streaming ?? true,
  };
}

/** `outputSchema` and `outputFormat` exclude each other; a schema must be able to parse. */
function checkOutputOptions<T>(options: AgentOptions<T>): void {
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
}

function resolveRetry(retry: AgentOptions["retry"]): RetryPolicy {
  return {
    maxRetries: nonNegativeInteger("retry.maxRetries", retry?.maxRetries) ?? DEFAULT_MAX_RETRIES,
    initialDelayMs:
      nonNegativeMilliseconds("retry.initialDelayMs", retry?.initialDelayMs) ??
      DEFAULT_RETRY_INITIAL_DELAY_MS,
    maxDelayMs: nonNegativeMilliseconds("retry.maxDelayMs", retry?.maxDelayMs) ?? DEFAULT_RETRY_MAX_DELAY_MS,
  };
}

function resolveAutoCompact(
  option: AgentOptions["autoCompact"],
  window: number | undefined,
): CompactionSettings | undefined {
  if (!option) return undefined;
  const settings = option === true ? {} : option;
  const thresholdTokens =
    positiveInteger("autoCompact.thresholdTokens", settings.thresholdTokens) ??
    (window ? Math.floor(window * DEFAULT_COMPACTION_WINDOW_SHARE) : DEFAULT_COMPACTION_THRESHOLD_TOKENS);
  return {
    thresholdTokens,
    where: resolveCompactionWhere(settings.where, thresholdTokens),
    keepRecentMessages:
      nonNegativeInteger("autoCompact.keepRecentMessages", settings.keepRecentMessages) ??
      DEFAULT_KEEP_RECENT_MESSAGES,
    prompt: settings.prompt,
    model: settings.model,
    maxTokens: positiveInteger("autoCompact.maxTokens", settings.maxTokens) ?? DEFAULT_SUMMARY_MAX_TOKENS,
  };
}

/**
 * `autoCompact.where`. `"provider"` asks for the provider's server compaction (`compact_20260112`),
 * whose trigger must be at least 50,000 tokens: a lower `thresholdTokens` is refused with it (and
 * compacts on our side with `"auto"`).
 */
function resolveCompactionWhere(value: unknown, thresholdTokens: number): "auto" | "provider" | "client" {
  const where = resolveWhere("autoCompact.where", value);
  if (where === "provider" && thresholdTokens < MIN_SERVER_COMPACTION_TRIGGER) {
    throw new InvalidOptionError(
      `\`autoCompact.where: "provider"\` needs \`autoCompact.thresholdTokens\` of at least ${MIN_SERVER_COMPACTION_TRIGGER} (the lowest trigger of the provider's server compaction), got ${thresholdTokens}.`,
    );
  }
  return where;
}

function resolveToolResultCompaction(
  option: AgentOptions["compactToolResults"],
): ToolResultCompactionSettings | undefined {
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

/**
 * The credentials the agent keeps out of errors and tool results: its API key (given, or the
 * environment's), an auth token from the environment, and credentials in its base URL.
 */
function agentSecrets(options: AgentOptions<unknown>): string[] {
  if (
    options.secrets !== undefined &&
    (!Array.isArray(options.secrets) || options.secrets.some((value) => typeof value !== "string"))
  ) {
    throw new InvalidOptionError("createAgent: secrets must be an array of strings.");
  }
  const clientSecrets = options.client?.secrets;
  const candidates = [
    ...(options.secrets ?? []),
    ...(Array.isArray(clientSecrets) ? clientSecrets : []),
    options.apiKey,
    readEnv("ANTHROPIC_API_KEY"),
    readEnv("ANTHROPIC_AUTH_TOKEN"),
    ...urlSecretsOf(options.baseURL ?? readEnv("ANTHROPIC_BASE_URL")),
  ];
  return secretsWorthRedacting(candidates);
}
