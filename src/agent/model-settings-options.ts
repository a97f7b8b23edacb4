/**
 * The model settings of the agent's options and of a query's overrides, validated and resolved
 * into what the loop's requests carry: once at `createAgent`, once per query (never per turn).
 * @module
 */
import type { RequestSettings } from "../loop/state/loop-config";
import { MODEL_SETTING_KEYS, QUERY_SETTING_KEYS } from "../model/model-setting-keys";
import {
  type ModelSettingsInput,
  resolvePromptCaching,
  validateModelSettings,
} from "../model/model-settings";
import { positiveInteger } from "./option-checks";
import type { AgentOptions, QueryOptions } from "./options";

/** What the settings are checked against beyond themselves. */
export interface SettingsCheck {
  /** The output budget of the requests. */
  maxTokens: number;
  /** The agent's tools; undefined when they cannot be known yet (MCP servers attach later). */
  toolNames: readonly string[] | undefined;
  /** `submit_output`, when the agent has an `outputSchema`. */
  outputTool: string | undefined;
}

/**
 * The agent's model settings, validated and resolved: each set option as given, prompt caching as
 * `{ ttl }` (on by default) or absent when off.
 * @throws InvalidOptionError naming the option
 */
export function resolveAgentSettings<T>(options: AgentOptions<T>, check: SettingsCheck): RequestSettings {
  const input: ModelSettingsInput = {};
  for (const key of MODEL_SETTING_KEYS) {
    const value = options[key];
    if (value !== undefined) (input as Record<string, unknown>)[key] = value;
  }
  validateModelSettings(input, "createAgent", check);
  const { promptCaching, ...settings } = input;
  const resolved: RequestSettings = {};
  for (const [key, value] of Object.entries(settings)) {
    if (value !== undefined) (resolved as Record<string, unknown>)[key] = copyOf(value);
  }
  const caching = resolvePromptCaching(promptCaching);
  if (caching) resolved.promptCaching = caching;
  return Object.freeze(resolved);
}

/**
 * A query's settings: the agent's with the query's overrides (`maxTokens`, `temperature`, `topP`,
 * `topK`, `stopSequences`, `toolChoice`, `thinking`, `effort`) over them, checked together. A query
 * without overrides shares the agent's object.
 * @throws InvalidOptionError naming the option
 */
export function resolveQuerySettings(
  agent: Readonly<RequestSettings>,
  agentMaxTokens: number,
  options: QueryOptions | undefined,
  check: Omit<SettingsCheck, "maxTokens">,
): { settings: Readonly<RequestSettings>; maxTokens: number } {
  const maxTokens = positiveInteger("maxTokens", options?.maxTokens) ?? agentMaxTokens;
  let settings = agent;
  if (options) {
    for (const key of QUERY_SETTING_KEYS) {
      const value = options[key];
      if (value === undefined) continue;
      if (settings === agent) settings = { ...agent };
      (settings as Record<string, unknown>)[key] = copyOf(value);
    }
  }
  const named = typeof settings.toolChoice === "object";
  if (settings !== agent || maxTokens !== agentMaxTokens || (named && check.toolNames)) {
    validateModelSettings(settings, "query", { ...check, maxTokens });
  }
  return { settings, maxTokens };
}

/**
 * A query's overrides for a specialist it was handed to mid-query: a `toolChoice` naming a tool the
 * specialist does not have is left out (its own `toolChoice` applies) — the request would be refused.
 * The same object when nothing is left out.
 */
export function overridesForSpecialist(
  options: QueryOptions | undefined,
  toolNames: readonly string[],
): QueryOptions | undefined {
  const choice = options?.toolChoice;
  if (typeof choice !== "object" || toolNames.includes(choice.name)) return options;
  const { toolChoice: _foreign, ...rest } = options!;
  return rest;
}

/**
 * `addTools`: the agent's `toolChoice`, when it names a tool, must still name one of the tools
 * (tools are only ever added, so this holds once it held; the check keeps it that way).
 * @throws InvalidOptionError naming the option
 */
export function checkToolChoice(agent: Readonly<RequestSettings>, check: SettingsCheck): void {
  if (typeof agent.toolChoice === "object" && check.toolNames) {
    validateModelSettings({ toolChoice: agent.toolChoice }, "addTools", check);
  }
}

/** A copy the caller cannot change afterwards (arrays and objects are copied; the rest is as is). */
function copyOf<V>(value: V): V {
  if (typeof value !== "object" || value === null) return value;
  try {
    return structuredClone(value);
  } catch {
    return value; // not cloneable (a function inside extraBody): the provider will say what it takes
  }
}
