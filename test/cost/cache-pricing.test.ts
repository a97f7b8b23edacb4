/**
 * Prompt-caching prices: cache writes at 1.25× input for the five-minute TTL and 2× for one hour,
 * reads at 0.1×, unless a price entry gives its own; the one-hour split of usage read, counted and
 * summed.
 */
import { describe, expect, it } from "vitest";
import { costOf, DEFAULT_PRICING, findPricing, type ModelPricing } from "../../src/cost/pricing";
import { addUsage, CostLedger, countedUsage, emptyUsage } from "../../src/cost/usage";
import { readUsage, toUsage } from "../../src/messages/reported-usage";
import type { Usage } from "../../src/messages/types";

const MILLION = 1_000_000;
const PLAIN: ModelPricing = { inputPerMTok: 4, outputPerMTok: 20 };

describe("costOf — cache writes by TTL", () => {
  it("prices five-minute writes at 1.25×, one-hour writes at 2× and reads at 0.1× of input", () => {
    expect(
      costOf({ input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: MILLION }, PLAIN),
    ).toBeCloseTo(5);
    const oneHour: Usage = {
      input_tokens: 0,
      output_tokens: 0,
      cache_creation_input_tokens: MILLION,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: MILLION },
    };
    expect(costOf(oneHour, PLAIN)).toBeCloseTo(8);
    expect(
      costOf({ input_tokens: 0, output_tokens: 0, cache_read_input_tokens: MILLION }, PLAIN),
    ).toBeCloseTo(0.4);
  });

  it("prices a mixed write by its split, and the rest of the total at the five-minute rate", () => {
    const usage: Usage = {
      input_tokens: 1000,
      output_tokens: 500,
      cache_read_input_tokens: 10_000,
      cache_creation_input_tokens: 3000,
      cache_creation: { ephemeral_5m_input_tokens: 1000, ephemeral_1h_input_tokens: 2000 },
    };
    const expected = (1000 * 4 + 500 * 20 + 1000 * 5 + 2000 * 8 + 10_000 * 0.4) / MILLION;
    expect(costOf(usage, PLAIN)).toBeCloseTo(expected, 12);
    // A split that claims more one-hour writes than the total never bills beyond the total.
    const inflated = {
      ...usage,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 9000 },
    };
    expect(costOf(inflated, PLAIN)).toBeCloseTo(
      (1000 * 4 + 500 * 20 + 3000 * 8 + 10_000 * 0.4) / MILLION,
      12,
    );
  });

  it("uses the table's prices when it gives them: the 5-minute write, and a one-hour price of its own", () => {
    const sonnet = findPricing("claude-sonnet-4-6", DEFAULT_PRICING)!;
    const split: Usage = {
      input_tokens: 0,
      output_tokens: 0,
      cache_creation_input_tokens: 2 * MILLION,
      cache_creation: { ephemeral_5m_input_tokens: MILLION, ephemeral_1h_input_tokens: MILLION },
    };
    expect(costOf(split, sonnet)).toBeCloseTo(sonnet.cacheWritePerMTok! + 2 * sonnet.inputPerMTok);
    expect(costOf(split, { ...PLAIN, cacheWritePerMTok: 6, cacheWrite1hPerMTok: 7.5 })).toBeCloseTo(13.5);
  });

  it("prices one-hour writes in a long-prompt band at the band's input × 2", () => {
    const haiku = DEFAULT_PRICING["claude-haiku-5-5"]!;
    const usage: Usage = {
      input_tokens: 150_000,
      output_tokens: 0,
      cache_creation_input_tokens: MILLION,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: MILLION },
    };
    const band = haiku.longPrompt!;
    expect(costOf(usage, haiku)).toBeCloseTo((150_000 * band.inputPerMTok) / MILLION + band.inputPerMTok * 2);
  });
});

describe("reading and summing the one-hour split", () => {
  it("reads cache_creation from a provider's usage, and derives the total when only the split is there", () => {
    expect(
      readUsage({
        input_tokens: 3,
        output_tokens: 9,
        cache_creation_input_tokens: 700,
        cache_read_input_tokens: 50,
        cache_creation: { ephemeral_5m_input_tokens: 200, ephemeral_1h_input_tokens: 500 },
      }),
    ).toEqual({
      input_tokens: 3,
      output_tokens: 9,
      cache_creation_input_tokens: 700,
      cache_read_input_tokens: 50,
      cache_creation: { ephemeral_5m_input_tokens: 200, ephemeral_1h_input_tokens: 500 },
    });
    expect(readUsage({ cache_creation: { ephemeral_1h_input_tokens: 40 } })).toEqual({
      cache_creation_input_tokens: 40,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 40 },
    });
    expect(readUsage({ input_tokens: 1, cache_creation: null })).toEqual({ input_tokens: 1 });
    expect(readUsage({ input_tokens: 1, cache_creation: { ephemeral_5m_input_tokens: "9" } })).toEqual({
      input_tokens: 1,
    });
    expect(
      toUsage({ cache_creation: { ephemeral_5m_input_tokens: 1, ephemeral_1h_input_tokens: 2 } }),
    ).toEqual({
      input_tokens: 0,
      output_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: 1, ephemeral_1h_input_tokens: 2 },
    });
  });

  it("counts a split within its total, and keeps usage without a split free of one", () => {
    expect(
      countedUsage({
        input_tokens: 1,
        output_tokens: 1,
        cache_creation_input_tokens: 100,
        cache_creation: { ephemeral_5m_input_tokens: 90, ephemeral_1h_input_tokens: 250 },
      }),
    ).toEqual({
      input_tokens: 1,
      output_tokens: 1,
      cache_creation_input_tokens: 100,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 100 },
    });
    expect(
      countedUsage({ input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 5 }),
    ).not.toHaveProperty("cache_creation");
  });

  it("sums the split once any response reports one, counting unsplit writes as five-minute ones", () => {
    const total = emptyUsage();
    addUsage(total, { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 10 });
    expect(total).not.toHaveProperty("cache_creation");
    addUsage(total, {
      input_tokens: 1,
      output_tokens: 1,
      cache_creation_input_tokens: 30,
      cache_creation: { ephemeral_5m_input_tokens: 10, ephemeral_1h_input_tokens: 20 },
    });
    addUsage(total, { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 5 });
    expect(total).toEqual({
      input_tokens: 3,
      output_tokens: 3,
      cache_creation_input_tokens: 45,
      cache_read_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: 25, ephemeral_1h_input_tokens: 20 },
    });
  });

  it("shows the buckets in usage and model_usage, and costs the one-hour part at 2×", () => {
    const ledger = new CostLedger({ "m-1": PLAIN });
    ledger.record("m-1", {
      input_tokens: 0,
      output_tokens: 0,
      cache_creation_input_tokens: MILLION,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: MILLION },
    });
    ledger.record("m-1", { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: MILLION });
    expect(ledger.totalCostUsd).toBeCloseTo(8 + 0.4);
    expect(ledger.byModel["m-1"]).toEqual({
      input_tokens: 0,
      output_tokens: 0,
      cache_creation_input_tokens: MILLION,
      cache_read_input_tokens: MILLION,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: MILLION },
      cost_usd: expect.closeTo(8.4, 9),
    });
    expect(ledger.usage.cache_creation).toEqual({
      ephemeral_5m_input_tokens: 0,
      ephemeral_1h_input_tokens: MILLION,
    });
  });
});
