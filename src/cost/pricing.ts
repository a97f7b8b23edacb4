/**
 * Prices in USD per million tokens, matching a model id to its price, and the cost of a usage record.
 * @module
 */
import type { Usage } from "../messages/types";

/**
 * Rates for a request whose prompt is longer than `aboveInputTokens` (input plus both cache
 * buckets). They replace the base rates for every token of that request, output included.
 */
export type LongPromptPricing = {
  /** The prompt length (input + cache writes + cache reads) above which these rates apply. */
  aboveInputTokens: number;
  inputPerMTok: number;
  outputPerMTok: number;
  cacheWritePerMTok?: number;
  cacheWrite1hPerMTok?: number;
  cacheReadPerMTok?: number;
};

/**
 * USD per million tokens. A missing cache price follows Anthropic's standard multipliers
 * (Claude docs, "Prompt caching" pricing): a five-minute cache write = input × 1.25, a one-hour
 * cache write = input × 2, a cache read = input × 0.1.
 */
export type ModelPricing = {
  inputPerMTok: number;
  outputPerMTok: number;
  /** The five-minute cache write (and any write whose TTL is not reported). */
  cacheWritePerMTok?: number;
  /** The one-hour cache write, billed for the `usage.cache_creation.ephemeral_1h_input_tokens` part. */
  cacheWrite1hPerMTok?: number;
  cacheReadPerMTok?: number;
  /** A second price band for long prompts (Claude Haiku 5.5 bills prompts over 100K tokens higher). */
  longPrompt?: LongPromptPricing;
};

/** Anthropic's standard prompt-caching multipliers, applied to the base input price. */
const CACHE_WRITE_MULTIPLIER = 1.25;
const CACHE_WRITE_1H_MULTIPLIER = 2;
const CACHE_READ_MULTIPLIER = 0.1;

/** A Claude price: input, output, the 5-minute cache write, and the cache read, as published. */
const claude = (input: number, output: number, cacheWrite: number, cacheRead: number): ModelPricing => ({
  inputPerMTok: input,
  outputPerMTok: output,
  cacheWritePerMTok: cacheWrite,
  cacheReadPerMTok: cacheRead,
});

/**
 * A DeepSeek price. DeepSeek bills no cache write: a prompt that is not yet cached is billed as a
 * cache miss, which is the input price.
 */
const deepseek = (cacheHit: number, cacheMiss: number, output: number): ModelPricing => ({
  inputPerMTok: cacheMiss,
  outputPerMTok: output,
  cacheWritePerMTok: cacheMiss,
  cacheReadPerMTok: cacheHit,
});

/**
 * A Z.ai (Zhipu) GLM price: input, cached input, output. Z.ai bills no cache write (storage is free
 * for a limited time): a prompt not yet cached is billed as input.
 */
const glm = (input: number, cachedInput: number, output: number): ModelPricing => ({
  inputPerMTok: input,
  outputPerMTok: output,
  cacheWritePerMTok: input,
  cacheReadPerMTok: cachedInput,
});

/**
 * A Moonshot (Kimi) price: cache hit, cache miss, output. Caching is automatic and no cache write
 * is billed: a prompt not yet cached is billed as a cache miss, which is the input price.
 */
const kimi = (cacheHit: number, cacheMiss: number, output: number): ModelPricing => ({
  inputPerMTok: cacheMiss,
  outputPerMTok: output,
  cacheWritePerMTok: cacheMiss,
  cacheReadPerMTok: cacheHit,
});

/** A MiniMax price: input, output, cache write and cache read, as published. */
const minimax = (input: number, output: number, cacheWrite: number, cacheRead: number): ModelPricing => ({
  inputPerMTok: input,
  outputPerMTok: output,
  cacheWritePerMTok: cacheWrite,
  cacheReadPerMTok: cacheRead,
});

/*
 * Sources, checked 2026-11-30:
 * - Anthropic, Claude Platform docs, "Pricing" (Model pricing table; Prompt caching: cache reads at
 *   0.1× input, 0.025× on Claude Fable 5.1 and Claude Mythos 5.1) and each model's overview page
 *   ("Models overview"; "Claude Opus 5.5", "Claude Sonnet 5", "Claude Sonnet 5.5", "Claude Haiku 5.5",
 *   "Claude Fable 5", "What's new in Claude Fable 5.2" — Mythos models share their Fable sibling's
 *   price), the Claude Sonnet 5 launch post (introductory price made permanent), and the
 *   Project Glasswing announcement (Claude Mythos Preview).
 *   The cache-write column is the 5-minute write; 1-hour writes, reported apart in
 *   `usage.cache_creation`, cost 2× input unless an entry gives `cacheWrite1hPerMTok`.
 * - DeepSeek API docs, "Models & Pricing" (api-docs.deepseek.com/quick_start/pricing, read again
 *   2026-12-01, unchanged): peak-hour rates. DeepSeek bills off-peak hours at half the peak rate; a
 *   cost computed here is therefore an upper bound (override with `pricing`). The legacy ids
 *   deepseek-chat and deepseek-reasoner are not on that page and are not priced here.
 * - Z.ai developer docs, "Pricing" (docs.z.ai/guides/overview/pricing, read 2026-12-01): text
 *   models, USD, keyed by their API ids (lowercase). The free ones (GLM-4.7-Flash, GLM-4.5-Flash)
 *   are left out: price them at 0 with `pricing` if you use them.
 * - Moonshot (Kimi), read 2026-12-01: the pricing page of the Kimi platform
 *   (platform.moonshot.ai/docs/pricing/chat, USD, as archived 2026-03-26) gives kimi-k2.5; the
 *   per-model page for kimi-k2.6 came without its table, so its USD price is the one the CNY list
 *   price (¥1.10 cache hit, ¥6.50 miss, ¥27 output) converts to and hosted copies of the model
 *   list ($0.16, $0.95, $4.00). Moonshot caches automatically and bills no cache write. The kimi-k2
 *   preview ids were retired in 2026 and are not listed.
 * - MiniMax, read 2026-12-01: "Pay as you go" (platform.minimaxi.com/docs/guides/pricing-paygo,
 *   CNY) and its international twin (platform.minimax.io, USD — exactly the CNY price ÷ 7). Cache
 *   writes are billed at their own price. The ids keep MiniMax's casing (`MiniMax-M2.7`).
 * Other Kimi and MiniMax models (kimi-k3, MiniMax-M3): give their prices with `pricing` (the CLI:
 *   --price or --pricing).
 */

/**
 * The built-in table, matched by model id: the exact id, or the id followed by a dated snapshot
 * suffix (`claude-sonnet-4-5-20250929`, `claude-opus-4-5@20251101`) or `-latest`. Nothing looser:
 * `claude-opus-5-6` never borrows `claude-opus-5`'s price. A model not listed costs 0 and is
 * reported once. Public list prices; override or extend with `AgentOptions.pricing`.
 */
export const DEFAULT_PRICING: Readonly<Record<string, ModelPricing>> = Object.freeze({
  "claude-fable-5-2": claude(8, 40, 10, 0.2),
  "claude-mythos-5-2": claude(8, 40, 10, 0.2),
  "claude-fable-5-1": claude(10, 50, 12.5, 0.25),
  "claude-mythos-5-1": claude(10, 50, 12.5, 0.25),
  "claude-fable-5": claude(10, 50, 12.5, 1),
  "claude-mythos-5": claude(10, 50, 12.5, 1),
  "claude-mythos-preview": claude(25, 125, 31.25, 2.5),
  "claude-opus-5-5": claude(4, 20, 5, 0.2),
  "claude-opus-5": claude(5, 25, 6.25, 0.5),
  "claude-opus-4-8": claude(5, 25, 6.25, 0.5),
  "claude-opus-4-7": claude(5, 25, 6.25, 0.5),
  "claude-opus-4-6": claude(5, 25, 6.25, 0.5),
  "claude-opus-4-5": claude(5, 25, 6.25, 0.5),
  "claude-opus-4-1": claude(15, 75, 18.75, 1.5),
  "claude-opus-4-0": claude(15, 75, 18.75, 1.5),
  "claude-opus-4": claude(15, 75, 18.75, 1.5),
  "claude-sonnet-5-5": claude(2, 10, 2.5, 0.1),
  "claude-sonnet-5": claude(2, 10, 2.5, 0.2),
  "claude-sonnet-4-6": claude(3, 15, 3.75, 0.3),
  "claude-sonnet-4-5": claude(3, 15, 3.75, 0.3),
  "claude-sonnet-4-0": claude(3, 15, 3.75, 0.3),
  "claude-sonnet-4": claude(3, 15, 3.75, 0.3),
  "claude-3-7-sonnet": claude(3, 15, 3.75, 0.3),
  "claude-haiku-5-5": {
    ...claude(0.1, 0.5, 0.125, 0.01),
    longPrompt: {
      aboveInputTokens: 100_000,
      inputPerMTok: 0.5,
      outputPerMTok: 2.5,
      cacheWritePerMTok: 0.625,
      cacheReadPerMTok: 0.05,
    },
  },
  "claude-haiku-4-5": claude(1, 5, 1.25, 0.1),
  "claude-3-5-haiku": claude(0.8, 4, 1, 0.08),
  "claude-3-haiku": claude(0.25, 1.25, 0.3, 0.03),
  // DeepSeek, Anthropic-compatible endpoint (https://api.deepseek.com/anthropic). The legacy name
  // deepseek-v4-flash is served by deepseek-flash and billed at its price.
  "deepseek-flash": deepseek(0.006, 0.3, 1.2),
  "deepseek-v4-flash": deepseek(0.006, 0.3, 1.2),
  "deepseek-v4-pro": deepseek(0.044, 1.32, 3.96),
  // Z.ai (Zhipu) GLM, Anthropic-compatible endpoint (https://api.z.ai/api/anthropic); read 2026-12-01.
  "glm-5": glm(1, 0.2, 3.2),
  "glm-5-turbo": glm(1.2, 0.24, 4),
  "glm-5-code": glm(1.2, 0.3, 5),
  "glm-4.7": glm(0.6, 0.11, 2.2),
  "glm-4.7-flashx": glm(0.07, 0.01, 0.4),
  "glm-4.6": glm(0.6, 0.11, 2.2),
  "glm-4.5": glm(0.6, 0.11, 2.2),
  "glm-4.5-x": glm(2.2, 0.45, 8.9),
  "glm-4.5-air": glm(0.2, 0.03, 1.1),
  "glm-4.5-airx": glm(1.1, 0.22, 4.5),
  // Moonshot (Kimi), Anthropic-compatible endpoint (https://api.moonshot.ai/anthropic).
  "kimi-k2.6": kimi(0.16, 0.95, 4),
  "kimi-k2.5": kimi(0.1, 0.6, 3),
  // MiniMax, Anthropic-compatible endpoint (https://api.minimax.io/anthropic).
  "MiniMax-M2.7": minimax(0.3, 1.2, 0.375, 0.06),
  "MiniMax-M2.7-highspeed": minimax(0.6, 2.4, 0.375, 0.06),
  "MiniMax-M2.5": minimax(0.3, 1.2, 0.375, 0.03),
  "MiniMax-M2.5-highspeed": minimax(0.6, 2.4, 0.375, 0.03),
});

/** What may follow a table key in a model id: a dated snapshot (`-20250929`, `@20250929`) or `-latest`. */
const SNAPSHOT_SUFFIX = /^(?:[-@]\d{8}|-latest)$/;

/**
 * Resolves prices for a model, or `undefined` when none is known (never guessed): the exact id,
 * else the longest key that the id extends with a snapshot suffix only.
 */
export function findPricing(
  model: string,
  table: Readonly<Record<string, ModelPricing>>,
): ModelPricing | undefined {
  if (Object.hasOwn(table, model)) return table[model];
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    if (!model.startsWith(key) || !SNAPSHOT_SUFFIX.test(model.slice(key.length))) continue;
    if (best === undefined || key.length > best.length) best = key;
  }
  return best === undefined ? undefined : table[best];
}

/**
 * Cost in USD of one response's usage at the given prices (the long-prompt band when it applies).
 * Cache writes are priced by TTL when `usage.cache_creation` splits them: its one-hour part at the
 * one-hour rate, the rest of `cache_creation_input_tokens` at the five-minute rate.
 */
export function costOf(usage: Usage, pricing: ModelPricing): number {
  const rates = ratesFor(usage, pricing);
  const cacheWrite = rates.cacheWritePerMTok ?? rates.inputPerMTok * CACHE_WRITE_MULTIPLIER;
  const cacheWrite1h = rates.cacheWrite1hPerMTok ?? rates.inputPerMTok * CACHE_WRITE_1H_MULTIPLIER;
  const cacheRead = rates.cacheReadPerMTok ?? rates.inputPerMTok * CACHE_READ_MULTIPLIER;
  const writes = usage.cache_creation_input_tokens ?? 0;
  const writes1h = Math.min(writes, usage.cache_creation?.ephemeral_1h_input_tokens ?? 0);
  return (
    ((usage.input_tokens ?? 0) * rates.inputPerMTok +
      (usage.output_tokens ?? 0) * rates.outputPerMTok +
      (writes - writes1h) * cacheWrite +
      writes1h * cacheWrite1h +
      (usage.cache_read_input_tokens ?? 0) * cacheRead) /
    1_000_000
  );
}

function ratesFor(usage: Usage, pricing: ModelPricing): Omit<ModelPricing, "longPrompt"> {
  const band = pricing.longPrompt;
  if (!band) return pricing;
  const promptTokens =
    (usage.input_tokens ?? 0) +
    (usage.cache_creation_input_tokens ?? 0) +
    (usage.cache_read_input_tokens ?? 0);
  return promptTokens > band.aboveInputTokens ? band : pricing;
}
