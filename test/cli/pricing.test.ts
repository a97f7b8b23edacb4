import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadPricingFile, parsePriceOption, resolveCliPricing } from "../../src/cli/pricing-options";
import { UsageError } from "../../src/cli/usage-error";
import { costOf, DEFAULT_PRICING, findPricing } from "../../src/cost/pricing";
import { type MockAnthropicServer, startMockAnthropicServer } from "../../src/testing/index";
import { cleanEnvironment, DUMMY_KEY, ensureBuiltCli, runCli, scratchFolder } from "./helpers";

const withKey = () => cleanEnvironment({ ANTHROPIC_API_KEY: DUMMY_KEY });

describe("--price and --pricing", () => {
  let folder: ReturnType<typeof scratchFolder>;
  beforeEach(() => {
    folder = scratchFolder();
  });
  afterEach(() => folder.remove());

  it("--price reads input,output and optionally cache read and cache write, in USD per million tokens", () => {
    expect(parsePriceOption("0.3,1.2")).toEqual({ inputPerMTok: 0.3, outputPerMTok: 1.2 });
    expect(parsePriceOption(" $0.3 , 1.2 ,0.006, 0.3")).toEqual({
      inputPerMTok: 0.3,
      outputPerMTok: 1.2,
      cacheReadPerMTok: 0.006,
      cacheWritePerMTok: 0.3,
    });
    for (const wrong of ["0.3", "a,b", "0.3,", "-1,2", "1,2,3,4,5", "1,Infinity"])
      expect(() => parsePriceOption(wrong), wrong).toThrow(UsageError);
  });

  it("--pricing reads a file of prices by model and refuses anything it would not count", async () => {
    const good = path.join(folder.root, "prices.json");
    writeFileSync(
      good,
      JSON.stringify({ "my-model": { inputPerMTok: 1, outputPerMTok: 2, cacheReadPerMTok: 0.1 } }),
    );
    expect(await loadPricingFile(good)).toEqual({
      "my-model": { inputPerMTok: 1, outputPerMTok: 2, cacheReadPerMTok: 0.1 },
    });
    const typo = path.join(folder.root, "typo.json");
    writeFileSync(typo, JSON.stringify({ "my-model": { input: 1, outputPerMTok: 2 } }));
    await expect(loadPricingFile(typo)).rejects.toThrow(/typo\.json: my-model\.inputPerMTok: /);
    await expect(loadPricingFile(path.join(folder.root, "none.json"))).rejects.toThrow(
      /cannot read .*ENOENT/,
    );
  });

  it("--price for the --model goes over the file; --budget without any price is refused", async () => {
    const file = path.join(folder.root, "prices.json");
    writeFileSync(file, JSON.stringify({ "m-1": { inputPerMTok: 1, outputPerMTok: 2 } }));
    expect(await resolveCliPricing({ model: "m-1", price: "3,4", pricingPath: file, budgetUsd: 1 })).toEqual({
      "m-1": { inputPerMTok: 3, outputPerMTok: 4 },
    });
    expect(await resolveCliPricing({ model: "claude-sonnet-4-6", budgetUsd: 1 })).toBeUndefined();
    await expect(resolveCliPricing({ model: "deepseek-chat", budgetUsd: 1 })).rejects.toThrow(
      /--budget needs the price of "deepseek-chat"/,
    );
  });

  it("the built-in table prices the current GLM models (Z.ai, read 2026-12-01) and DeepSeek's", () => {
    const usage = { input_tokens: 1_000_000, output_tokens: 1_000_000, cache_read_input_tokens: 1_000_000 };
    expect(costOf(usage, findPricing("glm-4.6", DEFAULT_PRICING)!)).toBeCloseTo(0.6 + 2.2 + 0.11, 10);
    expect(costOf(usage, findPricing("glm-5", DEFAULT_PRICING)!)).toBeCloseTo(1 + 3.2 + 0.2, 10);
    expect(costOf(usage, findPricing("deepseek-flash", DEFAULT_PRICING)!)).toBeCloseTo(0.3 + 1.2 + 0.006, 10);
    expect(findPricing("deepseek-chat", DEFAULT_PRICING)).toBeUndefined();
  });
});

describe("agent-lattice with --budget and prices", () => {
  let server: MockAnthropicServer;
  let folder: ReturnType<typeof scratchFolder>;
  beforeAll(ensureBuiltCli, 300_000);
  beforeEach(async () => {
    server = await startMockAnthropicServer();
    server.setHandler(() => ({ content: "Done.", usage: { input_tokens: 1000, output_tokens: 100 } }));
    folder = scratchFolder();
  });
  afterEach(async () => {
    folder.remove();
    await server.close();
  });

  it("--budget with a model the table lacks is a usage error up front: exit 2, one line, no request", async () => {
    const run = await runCli(["--base-url", server.url, "--model", "deepseek-chat", "--budget", "1", "Hi"], {
      env: withKey(),
    });
    expect(run.code).toBe(2);
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(
      /^agent-lattice: --budget needs the price of "deepseek-chat", .* --price <input>,<output> .* --pricing file/,
    );
    expect(server.requests).toHaveLength(0);
  });

  it("--price makes the budget count: the run stops over it, and the amounts are written for people", async () => {
    const run = await runCli(
      [
        "--base-url",
        server.url,
        "--model",
        "deepseek-chat",
        "--price",
        "0.3,1.2",
        "--budget",
        "0.0000001",
        "Hi",
      ],
      { env: withKey() },
    );
    // 1000 × $0.3/M + 100 × $1.2/M = $0.00042
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "✗ error_max_budget_usd: The query cost $0.0004, over maxBudgetUsd $0.0000001. · 1 turn · 1,000 in / 100 out tokens · $0.0004 ·",
    );
    expect(run.stderr).not.toMatch(/e-7|0\.00042/);
  });

  it("--pricing prices a model from a file, and its cost shows in the closing line", async () => {
    const file = path.join(folder.root, "prices.json");
    writeFileSync(file, JSON.stringify({ "my-model": { inputPerMTok: 2, outputPerMTok: 8 } }));
    const run = await runCli(
      ["--base-url", server.url, "--model", "my-model", "--pricing", file, "--budget", "5", "Hi"],
      { env: withKey() },
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/✓ done · 1 turn · 1,000 in \/ 100 out tokens · \$0\.0028 · /);
  });

  it("without --budget, a model without a price runs and the notice says how to price it on the command line", async () => {
    const run = await runCli(["--base-url", server.url, "--model", "my-model", "Hi"], { env: withKey() });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      '! No price is known for model "my-model"; its cost is counted as $0. To count it, give it one with --price <input>,<output>',
    );
    expect(run.stderr).not.toContain("`pricing` option");
  });

  it("a wrong --price or --pricing file is a usage error (exit 2)", async () => {
    const price = await runCli(["--base-url", server.url, "--price", "cheap", "Hi"], { env: withKey() });
    expect(price.code).toBe(2);
    expect(price.stderr).toContain("--price takes <input>,<output>[,<cache-read>[,<cache-write>]]");
    const file = path.join(folder.root, "bad.json");
    writeFileSync(file, "[1]");
    const pricing = await runCli(["--base-url", server.url, "--pricing", file, "Hi"], { env: withKey() });
    expect(pricing.code).toBe(2);
    expect(pricing.stderr).toMatch(/--pricing: .*bad\.json: \(the whole file\): /);
    expect(server.requests).toHaveLength(0);
  });
});
