/**
 * `contextManagement` and the context window resolved into the loop's configuration, validated at
 * creation: a mistake throws {@link InvalidOptionError} naming the option.
 * @module
 */
import { InvalidOptionError } from "../errors";
import type { ContextSettings } from "../loop/state/loop-config";
import type { ClearThinkingEdit, ClearToolUsesEdit } from "../model/context-management";
import { CLAUDE_LONG_CONTEXT_WINDOW, contextWindowOf, offersLongContext } from "../model/context-windows";
import { assertKnownOptions } from "../shared/known-options";
import {
  type ContextManagementOptions,
  type ContextManagementWhere,
  DEFAULT_CLEAR_AT_LEAST_TOKENS,
  DEFAULT_CLEAR_TRIGGER_TOKENS,
  DEFAULT_KEEP_THINKING_TURNS,
  DEFAULT_KEEP_TOOL_USES,
} from "./context-options";
import { nonNegativeInteger, positiveInteger } from "./option-checks";

const WHERE: readonly ContextManagementWhere[] = ["auto", "provider", "client"];

/** Checks a `where` option (`contextManagement.where`, `autoCompact.where`). */
export function resolveWhere(name: string, value: unknown): ContextManagementWhere {
  if (value === undefined) return "auto";
  if (!WHERE.includes(value as ContextManagementWhere)) {
    throw new InvalidOptionError(
      `\`${name}\` must be "auto", "provider" or "client", got ${JSON.stringify(value)}.`,
    );
  }
  return value as ContextManagementWhere;
}

/**
 * Resolves `contextManagement` for an agent on `model`.
 * @throws InvalidOptionError for an unknown field, a value of the wrong type or out of range
 */
export function resolveContextSettings(model: string, option: unknown): ContextSettings {
  if (option === undefined) return { model, management: undefined, window: contextWindowOf(model) };
  if (typeof option !== "object" || option === null || Array.isArray(option))
    throw new InvalidOptionError("createAgent: `contextManagement` must be an object.");
  assertKnownOptions("contextManagement", option as Record<string, unknown>, [
    "clearToolUses",
    "clearThinking",
    "where",
    "contextWindow",
  ]);
  const options = option as ContextManagementOptions;
  const window = resolveWindow(model, options.contextWindow);
  const where = resolveWhere("contextManagement.where", options.where);
  const clearToolUses = resolveClearToolUses(options.clearToolUses);
  const clearThinking = resolveClearThinking(options.clearThinking);
  if (!clearToolUses && !clearThinking) return { model, management: undefined, window };
  return {
    model,
    management: {
      where,
      edits: { ...(clearToolUses && { clearToolUses }), ...(clearThinking && { clearThinking }) },
    },
    window,
  };
}

function resolveWindow(model: string, value: number | undefined): number | undefined {
  const known = contextWindowOf(model);
  const given = positiveInteger("contextManagement.contextWindow", value);
  if (given === undefined) return known;
  if (
    model.startsWith("claude-") &&
    given > (offersLongContext(model) ? CLAUDE_LONG_CONTEXT_WINDOW : known!)
  ) {
    throw new InvalidOptionError(
      `\`contextManagement.contextWindow\` is ${given} tokens, more than ${model} offers (${offersLongContext(model) ? CLAUDE_LONG_CONTEXT_WINDOW : known}).`,
    );
  }
  return given;
}

function resolveClearToolUses(option: unknown): ClearToolUsesEdit | undefined {
  if (option === undefined || option === false) return undefined;
  if (option !== true && (typeof option !== "object" || option === null || Array.isArray(option)))
    throw new InvalidOptionError("`contextManagement.clearToolUses` must be a boolean or an object.");
  const settings = option === true ? {} : (option as Record<string, unknown>);
  assertKnownOptions("contextManagement.clearToolUses", settings, [
    "triggerTokens",
    "keepToolUses",
    "clearAtLeastTokens",
    "excludeTools",
    "clearInputs",
  ]);
  const { excludeTools, clearInputs } = settings;
  if (excludeTools !== undefined && (!Array.isArray(excludeTools) || !excludeTools.every(isName)))
    throw new InvalidOptionError(
      "`contextManagement.clearToolUses.excludeTools` must be an array of tool names.",
    );
  if (clearInputs !== undefined && typeof clearInputs !== "boolean")
    throw new InvalidOptionError("`contextManagement.clearToolUses.clearInputs` must be a boolean.");
  const number = (name: string) => settings[name] as number | undefined;
  return {
    triggerTokens:
      positiveInteger("contextManagement.clearToolUses.triggerTokens", number("triggerTokens")) ??
      DEFAULT_CLEAR_TRIGGER_TOKENS,
    keepToolUses:
      nonNegativeInteger("contextManagement.clearToolUses.keepToolUses", number("keepToolUses")) ??
      DEFAULT_KEEP_TOOL_USES,
    clearAtLeastTokens:
      nonNegativeInteger(
        "contextManagement.clearToolUses.clearAtLeastTokens",
        number("clearAtLeastTokens"),
      ) ?? DEFAULT_CLEAR_AT_LEAST_TOKENS,
    excludeTools: (excludeTools as string[] | undefined) ?? [],
    clearInputs: clearInputs === true,
  };
}

function resolveClearThinking(option: unknown): ClearThinkingEdit | undefined {
  if (option === undefined || option === false) return undefined;
  if (option !== true && (typeof option !== "object" || option === null || Array.isArray(option)))
    throw new InvalidOptionError("`contextManagement.clearThinking` must be a boolean or an object.");
  const settings = option === true ? {} : (option as Record<string, unknown>);
  assertKnownOptions("contextManagement.clearThinking", settings, ["keepTurns"]);
  const keep = settings.keepTurns;
  if (keep === "all") return { keepTurns: "all" };
  if (keep !== undefined && typeof keep !== "number")
    throw new InvalidOptionError(
      `\`contextManagement.clearThinking.keepTurns\` must be a positive integer or "all", got ${JSON.stringify(keep)}.`,
    );
  return {
    keepTurns:
      positiveInteger("contextManagement.clearThinking.keepTurns", keep as number | undefined) ??
      DEFAULT_KEEP_THINKING_TURNS,
  };
}

function isName(value: unknown): boolean {
  return typeof value === "string" && value.length > 0;
}
