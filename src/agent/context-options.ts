/**
 * The `contextManagement` option: clearing old tool results and old thinking from the requests of
 * a long conversation — by the provider where it does it (the Anthropic API, Bedrock, Vertex AI),
 * by the SDK on the outgoing request elsewhere — and the model's context window.
 * @module
 */

/** @see ClearToolUsesOptions.triggerTokens */
export const DEFAULT_CLEAR_TRIGGER_TOKENS = 100_000;
/** @see ClearToolUsesOptions.keepToolUses */
export const DEFAULT_KEEP_TOOL_USES = 3;
/** @see ClearToolUsesOptions.clearAtLeastTokens */
export const DEFAULT_CLEAR_AT_LEAST_TOKENS = 20_000;
/** @see ClearThinkingOptions.keepTurns */
export const DEFAULT_KEEP_THINKING_TURNS = 1;

/** Where context is managed. */
export type ContextManagementWhere = "auto" | "provider" | "client";

/**
 * Clearing old tool results (`clear_tool_uses_20250919`): once a request's input is over
 * `triggerTokens`, the results of all but the last `keepToolUses` tool calls are replaced by a short
 * placeholder, oldest first, in steps of `clearAtLeastTokens`. History keeps them whole.
 */
export interface ClearToolUsesOptions {
  /** Clearing starts once a request's input is over this many tokens. @default 100000 */
  triggerTokens?: number;
  /** The most recent tool calls whose results are kept. @default 3 */
  keepToolUses?: number;
  /**
   * Clear in steps of at least this many tokens, so the cached prompt prefix breaks once per step
   * rather than on every turn (0: clear everything eligible every time). @default 20000
   */
  clearAtLeastTokens?: number;
  /** Tools whose results are never cleared. @default none */
  excludeTools?: string[];
  /** Also clear the inputs of the cleared calls. @default false */
  clearInputs?: boolean;
}

/** Clearing old thinking (`clear_thinking_20251015`): only the last `keepTurns` turns keep theirs. */
export interface ClearThinkingOptions {
  /** Assistant turns (with thinking) that keep their thinking; `"all"` keeps all. @default 1 */
  keepTurns?: number | "all";
}

/** Options of context management (`AgentOptions.contextManagement`). */
export interface ContextManagementOptions {
  /** Clear old tool results; `true` for the defaults. @default off */
  clearToolUses?: boolean | ClearToolUsesOptions;
  /** Clear old thinking; `true` for the defaults. @default off */
  clearThinking?: boolean | ClearThinkingOptions;
  /**
   * Who applies the edits. `"provider"`: sent as `context_management` (beta
   * `context-management-2025-06-27`) for the provider to apply. `"client"`: applied by the SDK to
   * each outgoing request. `"auto"`: the provider on the Anthropic API, Bedrock and Vertex AI, the
   * SDK elsewhere. With `"provider"` or `"auto"`, a response without `context_management` (the
   * provider ignored the edits) switches the conversation to the SDK's side. @default "auto"
   */
  where?: ContextManagementWhere;
  /**
   * The model's context window in tokens, when the built-in table (`CONTEXT_WINDOWS`) does not
   * know it or to choose the 1M-token option of the Claude models that offer it. It sets
   * `autoCompact`'s default threshold and `getContextUsage()`'s ratio. @default from the table
   */
  contextWindow?: number;
}
