/**
 * Prices in USD per million tokens, and cost of a usage record.
 * @module
 */
import type { Usage } from "../messages/types";

/** USD per million tokens. Cache prices default to input × 1.25 (write) and input × 0.1 (read). */
export type ModelPricing = {
  inputPerMTok: number;
  outputPerMTok: number;
  cacheWritePerMTok?: number;
  cacheReadPerMTok?: number;
};

const claude = (input: number, output: number): ModelPricing => ({
  inputPerMTok: input,
  outputPerMTok: output,
  cacheWritePerMTok: input * 1.25,
  cacheReadPerMTok: input * 0.1,
});

/**
 * The built-in table, matched by model id: an exact id first, then the longest key the id starts
 * with (so dated ids such as `claude-sonnet-4-5-20250929` find `claude-sonnet-4-5`).
 * Public list prices; override or extend with `AgentOptions.pricing`.
 */
export const DEFAULT_PRICING: Readonly<Record<string, ModelPricing>> = Object.freeze({
  "claude-opus-4-8": claude(5, 25),
  "claude-opus-4-7": claude(5, 25),
  "claude-opus-4-6": claude(5, 25),
  "claude-opus-4-5": claude(5, 25),
  "claude-opus-4-1": claude(15, 75),
  "claude-opus-4-0": claude(15, 75),
  "claude-opus-4-20250514": claude(15, 75),
  "claude-sonnet-4-6": claude(3, 15),
  "claude-sonnet-4-5": claude(3, 15),
  "claude-sonnet-4-0": claude(3, 15),
  "claude-sonnet-4-20250514": claude(3, 15),
  "claude-3-7-sonnet": claude(3, 15),
  "claude-haiku-4-5": claude(1, 5),
  "claude-3-5-haiku": claude(0.8, 4),
  "claude-3-haiku": claude(0.25, 1.25),
  // DeepSeek (Anthropic-compatible endpoint); cache write is billed as a cache miss (input).
  "deepseek-chat": {
    inputPerMTok: 0.28,
    outputPerMTok: 0.42,
    cacheWritePerMTok: 0.28,
    cacheReadPerMTok: 0.028,
  },
  "deepseek-reasoner": {
    inputPerMTok: 0.28,
    outputPerMTok: 0.42,
    cacheWritePerMTok: 0.28,
    cacheReadPerMTok: 0.028,
  },
});

/** Resolves prices for a model, or `undefined` when none is known (never guessed). */
export function findPricing(
  model: string,
  table: Readonly<Record<string, ModelPricing>>,
): ModelPricing | undefined {
  const exact = table[model];
  if (exact) return exact;
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    if (model.startsWith(key) && (best === undefined || key.length > best.length)) best = key;
  }
  return best === undefined ? undefined : table[best];
}

/** Cost in USD of one usage record at the given prices. */
export function costOf(usage: Usage, pricing: ModelPricing): number {
  const cacheWrite = pricing.cacheWritePerMTok ?? pricing.inputPerMTok * 1.25;
  const cacheRead = pricing.cacheReadPerMTok ?? pricing.inputPerMTok * 0.1;
  return (
    (usage.input_tokens * pricing.inputPerMTok +
      usage.output_tokens * pricing.outputPerMTok +
      (usage.cache_creation_input_tokens ?? 0) * cacheWrite +
      (usage.cache_read_input_tokens ?? 0) * cacheRead) /
    1_000_000
  );
}
