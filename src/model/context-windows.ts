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
 *
 * Where each value comes from (checked 2026-12-03; docs/en/context.md keeps the same list):
 * - MiniMax: the provider's own model table (platform.minimax.io, Anthropic API page) — M2 to M2.7
 *   204,800, M3 1,000,000. Verified.
 * - Kimi: Moonshot's own quick start says kimi-k2.5, k2-0905, k2-turbo and k2-thinking have a
 *   "256K" window (taken as 256,000, the lower reading). The first K2 (`kimi-k2-0711`): unverified.
 * - DeepSeek V4 (`deepseek-v4-flash`, `deepseek-v4-pro`): 1,000,000 per several third-party pages
 *   citing DeepSeek's docs (DeepSeek's own page not reachable here). `deepseek-chat` /
 *   `deepseek-reasoner` (128,000): unverified — older DeepSeek pages said 64K.
 * - GLM: third-party pages only (GLM-4.6 200K, "expanded from 128K"); GLM-4.7 and GLM-5 unverified
 *   (sources disagree on GLM-5: 128K or 200K).
 */
export const CONTEXT_WINDOWS: Readonly<Record<string, number>> = Object.freeze({
  "claude-": CLAUDE_CONTEXT_WINDOW,
  "deepseek-": 128_000,
  "deepseek-v4": 1_000_000,
  "kimi-k2": 256_000,
  "kimi-k2-0711": 128_000,
  "glm-4.5": 128_000,
  "glm-4.6": 200_000,
  "glm-4.7": 200_000,
  "glm-5": 200_000,
  "MiniMax-M2": 204_800,
  "MiniMax-M3": 1_000_000,
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
