/**
 * Context windows by model: how many input tokens a request to each model may hold, for the
 * models whose window is documented (Anthropic's, and the Anthropic-compatible providers' of
 * providers.md). Used for compaction's default threshold and for `getContextUsage()`'s ratio.
 * @module
 */

/** The window of every Claude model, unless the 1M-token option applies. */
export const CLAUDE_CONTEXT_WINDOW = 200_000;

/** The long-context option of the Claude models that offer it (beta `context-1m-2025-08-07`). */
export const CLAUDE_LONG_CONTEXT_WINDOW = 1_000_000;

/**
 * Context windows by model id prefix, longest prefix first wins. A dated id (`claude-sonnet-4-5-20250929`)
 * and an alias (`claude-sonnet-4-5`) share their entry. Override one with
 * `contextManagement.contextWindow` (for example to use the 1M-token option).
 */
export const CONTEXT_WINDOWS: Readonly<Record<string, number>> = Object.freeze({
  "claude-": CLAUDE_CONTEXT_WINDOW,
  "deepseek-": 128_000,
  "kimi-k2": 256_000,
  "kimi-k2-0711": 128_000,
  "glm-4.5": 128_000,
  "glm-4.6": 200_000,
  "glm-4.7": 200_000,
  "glm-5": 200_000,
  "MiniMax-M2": 204_800,
});

/**
 * The Claude models that offer the 1M-token window (and their dated ids): a
 * `contextManagement.contextWindow` up to {@link CLAUDE_LONG_CONTEXT_WINDOW} is accepted for them.
 */
export const LONG_CONTEXT_MODELS: readonly string[] = [
  "claude-sonnet-4-6",
  "claude-sonnet-4-5",
  "claude-sonnet-4-2",
  "claude-sonnet-4-0",
  "claude-opus-4-6",
  "claude-opus-4-7",
  "claude-opus-4-8",
];

/** The context window of `model` from {@link CONTEXT_WINDOWS}; `undefined` for a model not in it. */
export function contextWindowOf(model: string): number | undefined {
  let best: string | undefined;
  for (const prefix of Object.keys(CONTEXT_WINDOWS)) {
    if (model.startsWith(prefix) && (best === undefined || prefix.length > best.length)) best = prefix;
  }
  return best === undefined ? undefined : CONTEXT_WINDOWS[best];
}

/** Whether `model` offers the 1M-token window. */
export function offersLongContext(model: string): boolean {
  return LONG_CONTEXT_MODELS.some((prefix) => model === prefix || model.startsWith(`${prefix}-`));
}
