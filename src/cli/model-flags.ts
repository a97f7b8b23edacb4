/**
 * The model-setting flags of the command line — `--temperature`, `--thinking`, `--effort`,
 * `--max-tokens`, `--no-cache` — parsed into the agent's options and checked the way `createAgent`
 * checks them, with errors that name the flags; and `--no-thinking-display`.
 * @module
 */
import { DEFAULT_MAX_TOKENS } from "../agent/options";
import { InvalidOptionError } from "../errors";
import type { FlagSettingKey } from "../model/model-setting-keys";
import {
  EFFORT_LEVELS,
  type Effort,
  isThinkingOn,
  MIN_THINKING_BUDGET_TOKENS,
  type ThinkingConfig,
  validateModelSettings,
} from "../model/model-settings";
import { UsageError } from "./usage-error";

/** The `parseArgs` options of the model-setting flags (merged into the command's). */
export const MODEL_FLAG_SPEC = {
  temperature: { type: "string" },
  thinking: { type: "string" },
  effort: { type: "string" },
  "max-tokens": { type: "string" },
  "no-cache": { type: "boolean" },
  "no-thinking-display": { type: "boolean" },
} as const;

/** The flags' values as `parseArgs` returns them. */
export interface ModelFlagValues {
  temperature?: string;
  thinking?: string;
  effort?: string;
  "max-tokens"?: string;
  "no-cache"?: boolean;
  "no-thinking-display"?: boolean;
}

/** The agent options the flags set (each absent when its flag is): the settings with a flag, and `maxTokens`. */
export interface CliModelSettings {
  temperature?: number;
  thinking?: ThinkingConfig;
  effort?: Effort;
  maxTokens?: number;
  /** `false` with `--no-cache`; absent otherwise (caching stays on, the default). */
  promptCaching?: false;
}

/** Their lines of the usage text. */
export const MODEL_FLAG_USAGE = `  --temperature <n>        sampling temperature, 0 to 1 (not with --thinking)
  --thinking <budget>      extended thinking with a budget of tokens (at least ${MIN_THINKING_BUDGET_TOKENS},
                           below --max-tokens), or "adaptive" (the model decides), or "off"
  --effort <level>         how much effort the model spends: ${EFFORT_LEVELS.join(", ")}
  --max-tokens <n>         the most tokens of one response, thinking included (default: ${DEFAULT_MAX_TOKENS})
  --no-cache               send no prompt-caching markers (caching is on by default)
  --no-thinking-display    do not show the model's thinking (shown dimmed on a terminal)`;

/**
 * The model settings of the flags.
 * @throws {UsageError} for a value out of range, an unknown thinking mode or effort level, and the
 * combinations the Messages API refuses (thinking with a temperature other than 1, a thinking
 * budget not below the response's max tokens).
 */
export function modelSettingsOf(values: ModelFlagValues): CliModelSettings {
  const settings: CliModelSettings = {};
  for (const [key, parse] of Object.entries(FLAG_PARSERS)) {
    const value = parse(values);
    if (value !== undefined) (settings as Record<string, unknown>)[key] = value;
  }
  const maxTokens = maxTokensOf(values["max-tokens"]);
  if (maxTokens !== undefined) settings.maxTokens = maxTokens;
  checkTogether(settings);
  return settings;
}

/**
 * The parser of each model setting that has a flag (`MODEL_SETTINGS[key].flag`), in the order
 * their errors are reported; the type fails to compile when such a setting has no parser here.
 */
const FLAG_PARSERS: {
  readonly [K in FlagSettingKey]: (values: ModelFlagValues) => CliModelSettings[K] | undefined;
} = {
  temperature: (values) => temperatureOf(values.temperature),
  thinking: (values) => thinkingOf(values.thinking),
  effort: (values) => effortOf(values.effort),
  promptCaching: (values) => (values["no-cache"] ? false : undefined),
};

function temperatureOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value.trim());
  if (value.trim() === "" || !Number.isFinite(number) || number < 0 || number > 1)
    throw new UsageError(`--temperature must be a number from 0 to 1, got "${value}"`);
  return number;
}

function thinkingOf(value: string | undefined): ThinkingConfig | undefined {
  if (value === undefined) return undefined;
  const word = value.trim().toLowerCase();
  if (word === "adaptive") return { type: "adaptive" };
  if (word === "off" || word === "disabled") return { type: "disabled" };
  const budget = Number(word.replace(/[_,]/g, ""));
  if (!/^\d[\d_,]*$/.test(word) || !Number.isSafeInteger(budget))
    throw new UsageError(
      `--thinking takes a budget of tokens (a whole number, at least ${MIN_THINKING_BUDGET_TOKENS}), "adaptive" or "off", got "${value}"`,
    );
  if (budget < MIN_THINKING_BUDGET_TOKENS)
    throw new UsageError(
      `--thinking: the budget must be at least ${MIN_THINKING_BUDGET_TOKENS} tokens (the Messages API's minimum), got ${budget}`,
    );
  return { type: "enabled", budgetTokens: budget };
}

function effortOf(value: string | undefined): Effort | undefined {
  if (value === undefined) return undefined;
  const level = value.trim().toLowerCase();
  if (!(EFFORT_LEVELS as readonly string[]).includes(level))
    throw new UsageError(`--effort must be one of ${EFFORT_LEVELS.join(", ")}, got "${value}"`);
  return level as Effort;
}

function maxTokensOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value.trim());
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(number) || number <= 0)
    throw new UsageError(`--max-tokens must be a positive integer, got "${value}"`);
  return number;
}

/** The combinations the Messages API refuses, worded with the flags. */
function checkTogether(settings: CliModelSettings): void {
  const { thinking, temperature } = settings;
  const maxTokens = settings.maxTokens ?? DEFAULT_MAX_TOKENS;
  if (isThinkingOn(thinking) && temperature !== undefined && temperature !== 1)
    throw new UsageError(
      "--temperature cannot be combined with --thinking: while thinking is on the Messages API accepts only temperature 1",
    );
  if (thinking?.type === "enabled" && thinking.budgetTokens >= maxTokens)
    throw new UsageError(
      `--thinking ${thinking.budgetTokens} must be below the response's max tokens (${maxTokens}${settings.maxTokens === undefined ? ", the default" : ""}): thinking counts toward them; raise --max-tokens`,
    );
  // Whatever else createAgent would refuse is refused here, before anything runs.
  try {
    validateModelSettings(settings, "the command line", { maxTokens });
  } catch (error) {
    if (error instanceof InvalidOptionError) throw new UsageError(error.message);
    throw error;
  }
}
