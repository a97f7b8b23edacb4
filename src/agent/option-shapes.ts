/**
 * What `createAgent` checks of its options before anything else: no name it does not know, and
 * the options whose shape a later step would trip over (a raw TypeError, or silently nothing)
 * refused here as {@link InvalidOptionError}s naming the option.
 * @module
 */
import { InvalidOptionError } from "../errors";
import { MODEL_SETTING_KEYS } from "../model/model-setting-keys";
import { assertKnownOptions } from "../shared/known-options";
import { checkHandoffList } from "./handoff";
import type { AgentOptions } from "./options";

/**
 * Every option name of `createAgent` — THE list to extend when an option is added (the type check
 * below fails when an option of {@link AgentOptions} is missing). The model settings come from
 * their own list, {@link MODEL_SETTING_KEYS}.
 */
export const AGENT_OPTION_NAMES = [
  "model",
  "apiKey",
  "baseURL",
  "providerProfile",
  "client",
  "secrets",
  "systemPrompt",
  "tools",
  "maxTurns",
  "maxTokens",
  "requestTimeoutMs",
  "toolTimeoutMs",
  "historyStore",
  "autoCompact",
  "contextManagement",
  "outputSchema",
  "outputFormat",
  "onModelRequest",
  "includePartialMessages",
  "toolConcurrency",
  "streamingToolExecution",
  "retry",
  "fallbackModel",
  "maxBudgetUsd",
  "pricing",
  "compactToolResults",
  "maxTokensContinuations",
  "hooks",
  "canUseTool",
  "permissionMode",
  "allowedTools",
  "disallowedTools",
  "mcpServers",
  "onElicitation",
  "telemetry",
  "skills",
  "instructions",
  "toolSearch",
  "name",
  "guardrails",
  "handoffs",
  "_internal",
  ...MODEL_SETTING_KEYS,
  "anthropic",
] as const;

type Unlisted = Exclude<keyof AgentOptions, (typeof AGENT_OPTION_NAMES)[number]>;
/** Fails to compile when an option of AgentOptions is not in {@link AGENT_OPTION_NAMES}. */
const everyOptionListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyOptionListed;

/**
 * Refuses unknown option names and options of the wrong shape.
 * @throws InvalidOptionError
 */
export function checkOptionShapes(options: AgentOptions<unknown>): void {
  if (typeof options !== "object" || options === null)
    throw new InvalidOptionError("createAgent takes an options object.");
  assertKnownOptions("createAgent", options, AGENT_OPTION_NAMES);
  const { tools, outputSchema, historyStore, systemPrompt, fallbackModel } = options as unknown as Record<
    string,
    unknown
  >;
  if (tools !== undefined && !Array.isArray(tools))
    throw new InvalidOptionError("createAgent: `tools` must be an array of tools.");
  if (outputSchema !== undefined && (typeof outputSchema !== "object" || outputSchema === null))
    throw new InvalidOptionError(
      "createAgent: `outputSchema` must be a schema object (a zod schema works directly).",
    );
  if (historyStore !== undefined) checkHistoryStore(historyStore);
  checkHandoffList((options as { handoffs?: unknown }).handoffs, "createAgent: `handoffs`");
  if (systemPrompt !== undefined && typeof systemPrompt !== "string")
    throw new InvalidOptionError("createAgent: `systemPrompt` must be a string.");
  if (fallbackModel !== undefined && (typeof fallbackModel !== "string" || fallbackModel === ""))
    throw new InvalidOptionError("createAgent: `fallbackModel` must be a non-empty model id.");
}

function checkHistoryStore(store: unknown): void {
  const methods = store as Record<string, unknown> | null;
  const missing = ["load", "append", "replace"].filter((name) => typeof methods?.[name] !== "function");
  if (typeof store !== "object" || store === null || missing.length > 0) {
    throw new InvalidOptionError(
      `createAgent: \`historyStore\` must have load, append and replace methods${missing.length > 0 && store ? ` (missing: ${missing.join(", ")})` : ""}.`,
    );
  }
}
