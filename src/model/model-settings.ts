/**
 * Model settings: the sampling, tool-choice, thinking, effort and caching options of a model
 * request, their types, and the checks that refuse — before anything is sent — every value and
 * every combination the Messages API refuses.
 * @module
 */
import { InvalidOptionError } from "../errors";

/**
 * Which tool the model may or must call: `"auto"` (its choice, the default), `"any"` (some tool),
 * `"none"` (no tool), or one named tool.
 */
export type ToolChoice = "auto" | "any" | "none" | { type: "tool"; name: string };

/**
 * Extended thinking: a token budget for it (`budgetTokens`, at least 1,024 and below `maxTokens`),
 * the model's own judgement (`adaptive`), or off.
 */
export type ThinkingConfig =
  | { type: "enabled"; budgetTokens: number }
  | { type: "adaptive" }
  | { type: "disabled" };

/** How much effort the model puts into a response (the API's `output_config.effort`). */
export type Effort = "low" | "medium" | "high" | "xhigh" | "max";

/** The API's `service_tier`: priority capacity when available (`auto`), or standard capacity only. */
export type ServiceTier = "auto" | "standard_only";

/** How long a prompt-cache entry lives: 5 minutes (refreshed by each read) or one hour. */
export type CacheTtl = "5m" | "1h";

/** Prompt caching as a request carries it: on, with the TTL of the markers the client places. */
export type PromptCachingConfig = { ttl: CacheTtl };

/** Prompt caching as an option: `true` (5-minute TTL), `false` (no marker at all), or a TTL. */
export type PromptCachingOption = boolean | { ttl?: CacheTtl };

/** Request metadata: `userId` is an opaque id of the end user (`metadata.user_id`), never a name or address. */
export type RequestMetadata = { userId?: string };

/**
 * The model settings of a request; every field is optional and absent means the provider's default.
 * The agent's options (`AgentOptions`) take them as they are, a query's options the ones a
 * query may override; `model-setting-keys.ts` lists them, with their Messages API names.
 */
export interface ModelSettings {
  /** Sampling temperature, 0 to 1 (1, or unset, while `thinking` is on). @default the provider's */
  temperature?: number;
  /** Nucleus sampling, above 0 and at most 1 (0.95 or more while `thinking` is on). @default the provider's */
  topP?: number;
  /** Sample only from the top K tokens: a positive integer (not while `thinking` is on). @default the provider's */
  topK?: number;
  /** Texts that end a response when generated (`stop_reason: "stop_sequence"`). @default none */
  stopSequences?: string[];
  /**
   * Which tool the model may or must call; a named tool must be one the agent has (re-checked by
   * `addTools`). Forcing tool use is refused while `thinking` is on, `"none"` with `outputSchema`.
   * @default "auto"
   */
  toolChoice?: ToolChoice;
  /** `false`: at most one tool call per response (`disable_parallel_tool_use`). @default true */
  parallelToolCalls?: boolean;
  /**
   * Extended thinking: `{ type: "enabled", budgetTokens }` (at least 1,024 and below `maxTokens`),
   * `{ type: "adaptive" }` or `{ type: "disabled" }`. Thinking blocks stay in history with their
   * signatures and go back to the model unchanged. @default the provider's (off)
   */
  thinking?: ThinkingConfig;
  /** How much effort the model spends (`output_config.effort`). @default the provider's */
  effort?: Effort;
  /** Request metadata: `userId`, an opaque id of the end user (`metadata.user_id`). @default none */
  metadata?: RequestMetadata;
  /** `service_tier`: `"auto"` (priority capacity when available) or `"standard_only"`. @default the provider's */
  serviceTier?: ServiceTier;
  /**
   * Fields merged into every request body, for provider fields this SDK does not model; written
   * after the modelled settings, never over `model`, `messages`, `max_tokens`, `tools`, `stream` or
   * `system` (refused). @default none
   */
  extraBody?: Record<string, unknown>;
}

/** Model settings plus the caching option, as {@link validateModelSettings} checks them. */
export interface ModelSettingsInput extends ModelSettings {
  /**
   * Prompt caching: each request marks what it shares with the next as cacheable (`cache_control`),
   * the tools and system prompt included; `{ ttl: "1h" }` marks with the one-hour TTL, `false`
   * sends no marker at all. @default true (5-minute TTL)
   */
  promptCaching?: PromptCachingOption;
}

/** What the checks of {@link validateModelSettings} need to know beyond the settings. */
export interface ModelSettingsContext {
  /** The request's `maxTokens`: a thinking budget must be below it. */
  maxTokens?: number;
  /** The names of the tools the model is offered: a forced tool must be one of them. */
  toolNames?: readonly string[];
  /**
   * The tool that submits structured output, when the agent has an `outputSchema`: the model must
   * be able to call it, so `toolChoice: "none"` and a forced other tool are refused.
   */
  outputTool?: string;
}

/** The least thinking budget the Messages API accepts. */
export const MIN_THINKING_BUDGET_TOKENS = 1024;

/** The body fields the SDK sets itself, which `extraBody` may never override. */
export const RESERVED_BODY_FIELDS: readonly string[] = Object.freeze([
  "model",
  "messages",
  "max_tokens",
  "tools",
  "stream",
  "system",
]);

/** The effort levels, from least to most. */
export const EFFORT_LEVELS: readonly Effort[] = Object.freeze(["low", "medium", "high", "xhigh", "max"]);

/**
 * With thinking on, the API accepts `top_p` only from 0.95 to 1 (Claude docs, "Building with
 * extended thinking": feature compatibility).
 */
export const MIN_TOP_P_WITH_THINKING = 0.95;

/**
 * Checks model settings (agent options, a query's overrides merged over them, a subagent's) and
 * throws an {@link InvalidOptionError} naming the option and what it accepts, so that nothing
 * reaches the provider to be refused there. Refused: out-of-range numbers (`temperature` outside
 * 0..1, `topP` outside (0, 1], `topK` not a positive integer), stop sequences that are not
 * strings or hold no visible character (the API refuses empty and whitespace-only ones), a
 * thinking budget below {@link MIN_THINKING_BUDGET_TOKENS} or not below `maxTokens`, unknown
 * `toolChoice` / `thinking` / `effort` / `serviceTier` values, a forced tool missing from
 * `context.toolNames`, `extraBody` overriding a {@link RESERVED_BODY_FIELDS reserved field}, and the
 * combinations the Messages API refuses (Claude docs, "Building with extended thinking"): thinking
 * with a forced tool choice (`any` or a named tool), with a `temperature` other than 1, with `topK`,
 * or with a `topP` below {@link MIN_TOP_P_WITH_THINKING}; plus `toolChoice: "none"` (or a forced
 * other tool) when `context.outputTool` must be callable.
 *
 * @param where names the caller in the message, e.g. `"createAgent"` or `"query"`.
 * @throws {InvalidOptionError}
 * @example
 * validateModelSettings({ temperature: 0.2, thinking: { type: "enabled", budgetTokens: 2048 } }, "createAgent", { maxTokens: 8192 });
 * // throws: createAgent: `temperature` must be 1 (or unset) while `thinking` is on …
 */
export function validateModelSettings(
  settings: ModelSettingsInput,
  where: string,
  context: ModelSettingsContext = {},
): void {
  const fail = (message: string): never => {
    throw new InvalidOptionError(`${where}: ${message}`);
  };
  const problem = valueProblem(settings, context) ?? combinationProblem(settings, context);
  if (problem) fail(problem);
}

/** What is wrong with one of the values on its own, or `undefined`. */
function valueProblem(settings: ModelSettingsInput, context: ModelSettingsContext): string | undefined {
  return (
    numberProblem(
      "temperature",
      settings.temperature,
      (value) => value >= 0 && value <= 1,
      "a number from 0 to 1",
    ) ??
    numberProblem(
      "topP",
      settings.topP,
      (value) => value > 0 && value <= 1,
      "a number above 0 and at most 1",
    ) ??
    numberProblem(
      "topK",
      settings.topK,
      (value) => Number.isSafeInteger(value) && value >= 1,
      "a positive integer",
    ) ??
    stopSequencesProblem(settings.stopSequences) ??
    toolChoiceProblem(settings.toolChoice, context) ??
    typeProblem("parallelToolCalls", settings.parallelToolCalls, "boolean") ??
    thinkingProblem(settings.thinking, context.maxTokens) ??
    oneOfProblem("effort", settings.effort, EFFORT_LEVELS) ??
    metadataProblem(settings.metadata) ??
    oneOfProblem("serviceTier", settings.serviceTier, ["auto", "standard_only"]) ??
    promptCachingProblem(settings.promptCaching) ??
    extraBodyProblem(settings.extraBody)
  );
}

/** What the Messages API refuses about the values together, or `undefined`. */
function combinationProblem(settings: ModelSettingsInput, context: ModelSettingsContext): string | undefined {
  const { toolChoice } = settings;
  if (context.outputTool !== undefined) {
    if (toolChoice === "none") {
      return `\`toolChoice: "none"\` cannot be combined with \`outputSchema\`: the model could never call ${context.outputTool} to submit its output.`;
    }
    if (isForcedTool(toolChoice) && toolChoice.name !== context.outputTool) {
      return `\`toolChoice\` forces the tool "${toolChoice.name}", so with \`outputSchema\` the model could never call ${context.outputTool} to submit its output.`;
    }
  }
  if (!isThinkingOn(settings.thinking)) return undefined;
  const on = `while \`thinking\` is on (${settings.thinking.type}): the Messages API refuses the combination`;
  if (toolChoice === "any" || isForcedTool(toolChoice)) {
    return `\`toolChoice\` cannot force tool use (${JSON.stringify(toolChoice)}) ${on}; use "auto" or "none", or turn thinking off.`;
  }
  if (settings.temperature !== undefined && settings.temperature !== 1) {
    return `\`temperature\` must be 1 (or unset) ${on}.`;
  }
  if (settings.topK !== undefined) return `\`topK\` cannot be set ${on}.`;
  if (settings.topP !== undefined && settings.topP < MIN_TOP_P_WITH_THINKING) {
    return `\`topP\` must be from ${MIN_TOP_P_WITH_THINKING} to 1 (or unset) ${on}.`;
  }
  return undefined;
}

/** Whether `thinking` asks the model to think (`enabled` or `adaptive`). */
export function isThinkingOn(
  thinking: ThinkingConfig | undefined,
): thinking is Exclude<ThinkingConfig, { type: "disabled" }> {
  return thinking?.type === "enabled" || thinking?.type === "adaptive";
}

/**
 * The caching a request carries for a `promptCaching` option: on by default with the 5-minute
 * TTL, `undefined` (no marker at all) for `false`.
 */
export function resolvePromptCaching(
  option: PromptCachingOption | undefined,
): PromptCachingConfig | undefined {
  if (option === false) return undefined;
  if (option === undefined || option === true) return { ttl: "5m" };
  return { ttl: option.ttl ?? "5m" };
}

function isForcedTool(choice: unknown): choice is { type: "tool"; name: string } {
  return isRecord(choice) && choice.type === "tool";
}

function numberProblem(
  option: string,
  value: unknown,
  accepts: (value: number) => boolean,
  expected: string,
): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "number" && Number.isFinite(value) && accepts(value)) return undefined;
  return `\`${option}\` must be ${expected} (got ${describe(value)}).`;
}

function typeProblem(option: string, value: unknown, type: "boolean" | "string"): string | undefined {
  if (value === undefined || typeof value === type) return undefined;
  return `\`${option}\` must be a ${type} (got ${describe(value)}).`;
}

function oneOfProblem(option: string, value: unknown, allowed: readonly string[]): string | undefined {
  if (value === undefined || (typeof value === "string" && allowed.includes(value))) return undefined;
  return `\`${option}\` must be one of ${allowed.map((entry) => `"${entry}"`).join(", ")} (got ${describe(value)}).`;
}

function stopSequencesProblem(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) return `\`stopSequences\` must be an array of strings (got ${describe(value)}).`;
  for (const [index, sequence] of value.entries()) {
    if (typeof sequence !== "string") {
      return `\`stopSequences[${index}]\` must be a string (got ${describe(sequence)}).`;
    }
    if (sequence.trim() === "") {
      return `\`stopSequences[${index}]\` must contain a character other than whitespace (got ${JSON.stringify(sequence)}): the Messages API refuses empty and whitespace-only stop sequences.`;
    }
  }
  return undefined;
}

function toolChoiceProblem(value: unknown, context: ModelSettingsContext): string | undefined {
  if (value === undefined || value === "auto" || value === "any" || value === "none") return undefined;
  if (!isForcedTool(value)) {
    return `\`toolChoice\` must be "auto", "any", "none" or { type: "tool", name } (got ${describe(value)}).`;
  }
  if (typeof value.name !== "string" || value.name === "") {
    return `\`toolChoice.name\` must name a tool (got ${describe(value.name)}).`;
  }
  const known = [...(context.toolNames ?? []), ...(context.outputTool ? [context.outputTool] : [])];
  if (context.toolNames && !known.includes(value.name)) {
    const list = known.length > 0 ? known.map((name) => `"${name}"`).join(", ") : "none";
    return `\`toolChoice\` forces the tool "${value.name}", which the agent does not have (its tools: ${list}).`;
  }
  return undefined;
}

function thinkingProblem(value: unknown, maxTokens: number | undefined): string | undefined {
  if (value === undefined) return undefined;
  const shapes = '{ type: "enabled", budgetTokens }, { type: "adaptive" } or { type: "disabled" }';
  if (!isRecord(value) || !["enabled", "adaptive", "disabled"].includes(value.type as string)) {
    return `\`thinking\` must be ${shapes} (got ${describe(value)}).`;
  }
  if (value.type !== "enabled") return undefined;
  const budget = value.budgetTokens;
  if (typeof budget !== "number" || !Number.isSafeInteger(budget) || budget < MIN_THINKING_BUDGET_TOKENS) {
    return `\`thinking.budgetTokens\` must be an integer of at least ${MIN_THINKING_BUDGET_TOKENS} (got ${describe(budget)}).`;
  }
  if (maxTokens !== undefined && budget >= maxTokens) {
    return `\`thinking.budgetTokens\` (${budget}) must be below \`maxTokens\` (${maxTokens}): thinking counts toward the response's tokens.`;
  }
  return undefined;
}

function metadataProblem(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (!isPlainObject(value))
    return `\`metadata\` must be an object such as { userId } (got ${describe(value)}).`;
  return typeProblem("metadata.userId", value.userId, "string");
}

function promptCachingProblem(value: unknown): string | undefined {
  if (value === undefined || typeof value === "boolean") return undefined;
  if (isPlainObject(value) && (value.ttl === undefined || value.ttl === "5m" || value.ttl === "1h"))
    return undefined;
  return `\`promptCaching\` must be true, false or { ttl: "5m" | "1h" } (got ${describe(value)}).`;
}

function extraBodyProblem(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (!isPlainObject(value))
    return `\`extraBody\` must be a plain object of body fields (got ${describe(value)}).`;
  const reserved = Object.keys(value).filter((key) => RESERVED_BODY_FIELDS.includes(key));
  if (reserved.length === 0) return undefined;
  return `\`extraBody\` cannot set ${reserved.map((key) => `\`${key}\``).join(", ")}: the SDK sets ${RESERVED_BODY_FIELDS.map((key) => `\`${key}\``).join(", ")} itself (use the agent's own options for them).`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value) || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** A short description of a rejected value (never more than a few dozen characters). */
function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === "number" || typeof value === "boolean" || value === null || value === undefined)
    return String(value);
  if (Array.isArray(value)) return "an array";
  const text = JSON.stringify(value);
  return text && text.length <= 60 ? text : `a ${typeof value}`;
}
