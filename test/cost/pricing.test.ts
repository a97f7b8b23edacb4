/**
 * The built-in price table and its matching rules: exact ids and dated snapshots match, nothing
 * looser does; costs follow the published rates, cache buckets and long-prompt bands included.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { costOf, DEFAULT_PRICING, findPricing, type ModelPricing } from "../../src/cost/pricing";

const MILLION = 1_000_000;

describe("findPricing", () => {
  it("finds an exact id", () => {
    expect(findPricing("claude-sonnet-4-6", DEFAULT_PRICING)).toBe(DEFAULT_PRICING["claude-sonnet-4-6"]);
    expect(findPricing("deepseek-flash", DEFAULT_PRICING)).toBe(DEFAULT_PRICING["deepseek-flash"]);
  });

  it.each([
    ["claude-sonnet-4-5-20250929", "claude-sonnet-4-5"],
    ["claude-haiku-4-5-20251001", "claude-haiku-4-5"],
    ["claude-opus-4-5-20251101", "claude-opus-4-5"],
    ["claude-opus-4-5@20251101", "claude-opus-4-5"],
    ["claude-opus-4-20250514", "claude-opus-4"],
    ["claude-sonnet-4-20250514", "claude-sonnet-4"],
    ["claude-3-7-sonnet-20250219", "claude-3-7-sonnet"],
    ["claude-3-7-sonnet-latest", "claude-3-7-sonnet"],
    ["claude-3-5-haiku-20241022", "claude-3-5-haiku"],
  ])("finds the dated snapshot %s under %s", (model, key) => {
    expect(findPricing(model, DEFAULT_PRICING)).toBe(DEFAULT_PRICING[key]);
  });

  it.each([
    "claude-opus-5-6",
    "claude-sonnet-5-1",
    "claude-haiku-5",
    "claude-fable-5-3",
    "claude-mythos-5-9",
    "claude-opus-4-50",
    "claude-sonnet-4-6-turbo",
    "claude-sonnet-4-6-2025",
    "deepseek-flash-2",
    "claude",
    "",
  ])("does not lend a neighbour's price to %j", (model) => {
    expect(findPricing(model, DEFAULT_PRICING)).toBeUndefined();
  });

  it("never mistakes Object.prototype members for prices", () => {
    for (const name of ["toString", "constructor", "__proto__", "hasOwnProperty", "valueOf"]) {
      expect(findPricing(name, DEFAULT_PRICING)).toBeUndefined();
      expect(findPricing(name, { ...DEFAULT_PRICING })).toBeUndefined();
    }
  });

  it("prefers the longest key a snapshot id extends", () => {
    const table: Record<string, ModelPricing> = {
      "claude-opus-4": { inputPerMTok: 15, outputPerMTok: 75 },
      "claude-opus-4-1": { inputPerMTok: 1, outputPerMTok: 2 },
    };
    expect(findPricing("claude-opus-4-1-20250805", table)).toBe(table["claude-opus-4-1"]);
    expect(findPricing("claude-opus-4-20250514", table)).toBe(table["claude-opus-4"]);
  });

  it("a Fable 5.1 id keeps its own cache-read price rather than Fable 5's", () => {
    expect(findPricing("claude-fable-5-1", DEFAULT_PRICING)!.cacheReadPerMTok).toBe(0.25);
    expect(findPricing("claude-fable-5", DEFAULT_PRICING)!.cacheReadPerMTok).toBe(1);
  });
});

describe("costOf", () => {
  it("prices input and output per million tokens", () => {
    const sonnet = DEFAULT_PRICING["claude-sonnet-4-6"]!;
    expect(costOf({ input_tokens: MILLION, output_tokens: MILLION }, sonnet)).toBe(18);
    expect(costOf({ input_tokens: 1_000, output_tokens: 500 }, sonnet)).toBeCloseTo(0.0105, 12);
  });

  it("prices both cache buckets at their own rates", () => {
    const opus = DEFAULT_PRICING["claude-opus-4-8"]!;
    const cost = costOf(
      {
        input_tokens: 0,
        output_tokens: 0,
        cache_creation_input_tokens: MILLION,
        cache_read_input_tokens: 2 * MILLION,
      },
      opus,
    );
    expect(cost).toBeCloseTo(6.25 + 2 * 0.5, 12);
  });

  it("applies Anthropic's standard multipliers when a custom price omits the cache rates", () => {
    const custom: ModelPricing = { inputPerMTok: 2, outputPerMTok: 8 };
    expect(
      costOf(
        {
          input_tokens: 0,
          output_tokens: 0,
          cache_creation_input_tokens: MILLION,
          cache_read_input_tokens: MILLION,
        },
        custom,
      ),
    ).toBeCloseTo(2 * 1.25 + 2 * 0.1, 12);
  });

  it("Claude Haiku 5.5 bills a prompt over 100K tokens at the long-prompt band, output included", () => {
    const haiku = DEFAULT_PRICING["claude-haiku-5-5"]!;
    const atThreshold = costOf({ input_tokens: 100_000, output_tokens: 10_000 }, haiku);
    expect(atThreshold).toBeCloseTo((100_000 * 0.1 + 10_000 * 0.5) / MILLION, 12);
    const over = costOf({ input_tokens: 100_001, output_tokens: 10_000 }, haiku);
    expect(over).toBeCloseTo((100_001 * 0.5 + 10_000 * 2.5) / MILLION, 12);
  });

  it("counts both cache buckets toward the long-prompt threshold", () => {
    const haiku = DEFAULT_PRICING["claude-haiku-5-5"]!;
    const usage = {
      input_tokens: 1_000,
      output_tokens: 100,
      cache_creation_input_tokens: 50_000,
      cache_read_input_tokens: 60_000,
    };
    expect(costOf(usage, haiku)).toBeCloseTo(
      (1_000 * 0.5 + 100 * 2.5 + 50_000 * 0.625 + 60_000 * 0.05) / MILLION,
      12,
    );
  });

  it("DeepSeek bills a cache write as a cache miss, and a cache hit at its own rate", () => {
    const flash = DEFAULT_PRICING["deepseek-flash"]!;
    const cost = costOf(
      {
        input_tokens: MILLION,
        output_tokens: MILLION,
        cache_creation_input_tokens: MILLION,
        cache_read_input_tokens: MILLION,
      },
      flash,
    );
    expect(cost).toBeCloseTo(0.3 + 1.2 + 0.3 + 0.006, 12);
  });

  it("Kimi bills a cache write as a cache miss; MiniMax bills cache writes and reads at their own prices", () => {
    const tokens = {
      input_tokens: MILLION,
      output_tokens: MILLION,
      cache_creation_input_tokens: MILLION,
      cache_read_input_tokens: MILLION,
    };
    expect(costOf(tokens, findPricing("kimi-k2.6", DEFAULT_PRICING)!)).toBeCloseTo(
      0.95 + 4 + 0.95 + 0.16,
      12,
    );
    expect(costOf(tokens, findPricing("kimi-k2.5", DEFAULT_PRICING)!)).toBeCloseTo(0.6 + 3 + 0.6 + 0.1, 12);
    expect(costOf(tokens, findPricing("MiniMax-M2.7", DEFAULT_PRICING)!)).toBeCloseTo(
      0.3 + 1.2 + 0.375 + 0.06,
      12,
    );
    expect(costOf(tokens, findPricing("MiniMax-M2.5-highspeed", DEFAULT_PRICING)!)).toBeCloseTo(
      0.6 + 2.4 + 0.375 + 0.03,
      12,
    );
    expect(findPricing("kimi-k3", DEFAULT_PRICING)).toBeUndefined();
    expect(findPricing("MiniMax-M2.7-turbo", DEFAULT_PRICING)).toBeUndefined();
  });

  it("treats missing counts as zero", () => {
    const sonnet = DEFAULT_PRICING["claude-sonnet-4-6"]!;
    expect(costOf({} as never, sonnet)).toBe(0);
  });
});

describe("DEFAULT_PRICING", () => {
  it("is frozen", () => {
    expect(Object.isFrozen(DEFAULT_PRICING)).toBe(true);
  });

  it("holds finite, positive prices, with cache reads cheaper than input and than cache writes", () => {
    for (const [model, price] of Object.entries(DEFAULT_PRICING)) {
      for (const band of [price, ...(price.longPrompt ? [price.longPrompt] : [])]) {
        expect(band.inputPerMTok, model).toBeGreaterThan(0);
        expect(band.outputPerMTok, model).toBeGreaterThan(band.inputPerMTok);
        expect(band.cacheReadPerMTok!, model).toBeLessThan(band.inputPerMTok);
        // Cache writes cost at least the input price everywhere but MiniMax's highspeed models,
        // which bill them at the standard models' write price, below their own input price.
        expect(band.cacheWritePerMTok!, model).toBeGreaterThan(band.cacheReadPerMTok!);
        if (!model.endsWith("-highspeed")) {
          expect(band.cacheWritePerMTok!, model).toBeGreaterThanOrEqual(band.inputPerMTok);
        }
        const rates = [band.inputPerMTok, band.outputPerMTok, band.cacheWritePerMTok, band.cacheReadPerMTok];
        for (const rate of rates) expect(Number.isFinite(rate), model).toBe(true);
      }
    }
  });

  it("prices every model id the installed @anthropic-ai/sdk names", () => {
    // When the SDK is upgraded with a new model, its public price must be added here — or the model
    // listed in UNPRICED with the reason no public price exists (prices are never guessed).
    const UNPRICED: string[] = [];
    const require = createRequire(import.meta.url);
    const sdkRoot = require.resolve("@anthropic-ai/sdk").replace(/index\.(c|m)?js$/, "");
    const declarations = readFileSync(`${sdkRoot}resources/messages/messages.d.ts`, "utf8");
    const union = /export type Model = ([^;]+);/.exec(declarations)?.[1] ?? "";
    const models = [...union.matchAll(/'([^']+)'/g)].map((match) => match[1]!);
    expect(models.length).toBeGreaterThan(10);
    const missing = models.filter(
      (model) => !UNPRICED.includes(model) && !findPricing(model, DEFAULT_PRICING),
    );
    expect(missing).toEqual([]);
  });
});
