/**
 * Cost accounting over whole queries: `total_cost_usd` and `model_usage` from what each response
 * reported (cache buckets included), `pricing` merged over the table, a model without a price
 * costed 0 and reported once per agent, and summary calls folded in.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent, defineTool, type Usage } from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { priceOf, runToEnd, sumUsage, systemMessages } from "./cost-support";

const SONNET = "claude-sonnet-4-6";
const HAIKU = "claude-haiku-4-5";

const lookup = defineTool({
  name: "lookup",
  inputSchema: z.object({ key: z.string() }),
  readOnly: true,
  execute: async ({ key }) => `value of ${key}`,
});

describe("total_cost_usd and model_usage", () => {
  it("sum every response's usage, cache buckets included, priced per model", async () => {
    const first: Usage = {
      input_tokens: 2_000,
      output_tokens: 150,
      cache_creation_input_tokens: 10_000,
      cache_read_input_tokens: 0,
    };
    const second: Usage = {
      input_tokens: 300,
      output_tokens: 400,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 10_000,
    };
    const client = createScriptedClient([
      { content: [{ type: "tool_use", id: "toolu_1", name: "lookup", input: { key: "a" } }], usage: first },
      { content: "The value is known.", usage: second, model: HAIKU },
    ]);
    const agent = createAgent({ model: SONNET, client, tools: [lookup] });
    const { result } = await runToEnd(agent, "Look it up");

    expect(result.subtype).toBe("success");
    expect(result.usage).toEqual(sumUsage(first, second));
    expect(Object.keys(result.model_usage).sort()).toEqual([HAIKU, SONNET]);
    expect(result.model_usage[SONNET]).toMatchObject(sumUsage(first));
    expect(result.model_usage[HAIKU]).toMatchObject(sumUsage(second));
    const sonnetCost = priceOf(SONNET, first);
    const haikuCost = priceOf(HAIKU, second);
    // 2000×3 + 150×15 + 10000×3.75 ; 300×1 + 400×5 + 10000×0.1 — per million.
    expect(sonnetCost).toBeCloseTo(0.04575, 12);
    expect(haikuCost).toBeCloseTo(0.0033, 12);
    expect(result.model_usage[SONNET]!.cost_usd).toBeCloseTo(sonnetCost, 12);
    expect(result.model_usage[HAIKU]!.cost_usd).toBeCloseTo(haikuCost, 12);
    expect(result.total_cost_usd).toBeCloseTo(sonnetCost + haikuCost, 12);
  });

  it("count a response without usage as zeros", async () => {
    const client = createScriptedClient([{ content: "no usage reported" }]);
    const agent = createAgent({ model: SONNET, client });
    const { result } = await runToEnd(agent, "Hi");
    expect(result.usage).toEqual(sumUsage());
    expect(result.total_cost_usd).toBe(0);
    expect(result.model_usage[SONNET]).toEqual({ ...sumUsage(), cost_usd: 0 });
  });

  it("count a bucket that is not a token count (NaN, negative, a string, null) as zero", async () => {
    // What a custom ModelClient or a faulty gateway may report: the valid buckets still count, and
    // the sums and the budget stay numbers.
    const bad = {
      input_tokens: Number.NaN,
      output_tokens: 200,
      cache_creation_input_tokens: -5_000,
      cache_read_input_tokens: "300",
    } as unknown as Usage;
    const client = createScriptedClient([
      { content: [{ type: "tool_use", id: "toolu_1", name: "lookup", input: { key: "a" } }], usage: bad },
      { content: "done", usage: { input_tokens: 1_000, output_tokens: null } as unknown as Usage },
    ]);
    const agent = createAgent({ model: SONNET, client, tools: [lookup], maxBudgetUsd: 1 });
    const { result } = await runToEnd(agent, "Look it up");

    const counted = sumUsage(
      { input_tokens: 0, output_tokens: 200 },
      { input_tokens: 1_000, output_tokens: 0 },
    );
    expect(result.subtype).toBe("success");
    expect(result.usage).toEqual(counted);
    expect(result.model_usage[SONNET]).toEqual({ ...counted, cost_usd: priceOf(SONNET, counted) });
    expect(result.total_cost_usd).toBeCloseTo(priceOf(SONNET, counted), 12);
  });

  it("never let an invalid count hide spending from maxBudgetUsd", async () => {
    // A NaN cost would compare as never over the budget, a negative one would refund it.
    const turn = (id: string, usage: Usage) => ({
      content: [{ type: "tool_use" as const, id, name: "lookup", input: { key: id } }],
      usage,
    });
    const client = createScriptedClient([
      turn("toolu_1", { input_tokens: -1_000_000, output_tokens: 10 }),
      turn("toolu_2", { input_tokens: Number.NaN, output_tokens: 10 }),
      turn("toolu_3", { input_tokens: 20_000, output_tokens: 10 }), // $0.06: over
      { content: "never sent" },
    ]);
    const agent = createAgent({ model: SONNET, client, tools: [lookup], maxBudgetUsd: 0.05 });
    const { result } = await runToEnd(agent, "Look it up");
    expect(result.subtype).toBe("error_max_budget_usd");
    expect(client.callCount).toBe(3);
    expect(Number.isFinite(result.total_cost_usd)).toBe(true);
    expect(result.total_cost_usd).toBeGreaterThan(0.05);
  });

  it("are per query: the next query starts from zero", async () => {
    const usage: Usage = { input_tokens: 1_000, output_tokens: 100 };
    const client = createScriptedClient([
      { content: "one", usage },
      { content: "two", usage },
    ]);
    const agent = createAgent({ model: SONNET, client });
    const first = await runToEnd(agent, "One");
    const second = await runToEnd(agent, "Two");
    expect(second.result.usage).toEqual(sumUsage(usage));
    expect(second.result.total_cost_usd).toBeCloseTo(first.result.total_cost_usd, 15);
  });
});

describe("the pricing option", () => {
  it("overrides a built-in price and adds new models, leaving the rest of the table alone", async () => {
    const usage: Usage = { input_tokens: 1_000_000, output_tokens: 1_000_000 };
    const client = createScriptedClient([
      { content: [{ type: "tool_use", id: "toolu_1", name: "lookup", input: { key: "a" } }], usage },
      {
        content: [{ type: "tool_use", id: "toolu_2", name: "lookup", input: { key: "b" } }],
        usage,
        model: "my-local-model",
      },
      { content: "done", usage, model: HAIKU },
    ]);
    const agent = createAgent({
      model: SONNET,
      client,
      tools: [lookup],
      pricing: {
        [SONNET]: { inputPerMTok: 1, outputPerMTok: 2 },
        "my-local-model": {
          inputPerMTok: 0.5,
          outputPerMTok: 0.25,
          cacheWritePerMTok: 0,
          cacheReadPerMTok: 0,
        },
      },
    });
    const { result, messages } = await runToEnd(agent, "Go");
    expect(result.model_usage[SONNET]!.cost_usd).toBe(3);
    expect(result.model_usage["my-local-model"]!.cost_usd).toBe(0.75);
    expect(result.model_usage[HAIKU]!.cost_usd).toBe(6);
    expect(result.total_cost_usd).toBe(9.75);
    expect(systemMessages(messages, "unknown_pricing")).toEqual([]);
  });

  it("overrides dated snapshots of the key it replaces", async () => {
    const client = createScriptedClient([
      {
        content: "hi",
        usage: { input_tokens: 1_000_000, output_tokens: 0 },
        model: "claude-sonnet-4-5-20250929",
      },
    ]);
    const agent = createAgent({
      model: "claude-sonnet-4-5",
      client,
      pricing: { "claude-sonnet-4-5": { inputPerMTok: 7, outputPerMTok: 7 } },
    });
    const { result } = await runToEnd(agent, "Go");
    expect(result.total_cost_usd).toBe(7);
  });
});

describe("a model without a price", () => {
  it("is costed 0 and reported once per agent, however many queries use it", async () => {
    const usage: Usage = { input_tokens: 500, output_tokens: 50 };
    const client = createScriptedClient([
      { content: "first", usage },
      { content: "second", usage },
      { content: "third", usage, model: "another-unpriced-model" },
    ]);
    const agent = createAgent({ model: "unpriced-model-x", client });

    const first = await runToEnd(agent, "One");
    const notices = systemMessages(first.messages, "unknown_pricing");
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ model: "unpriced-model-x" });
    expect(notices[0]!.message).toContain("pricing");
    expect(first.result.total_cost_usd).toBe(0);
    expect(first.result.model_usage["unpriced-model-x"]).toEqual({ ...sumUsage(usage), cost_usd: 0 });
    expect(first.result.usage).toEqual(sumUsage(usage));
    // The notice comes before the result, right when the response is recorded.
    expect(first.messages.indexOf(notices[0]!)).toBeLessThan(first.messages.length - 1);

    const second = await runToEnd(agent, "Two");
    expect(systemMessages(second.messages, "unknown_pricing")).toEqual([]);

    const third = await runToEnd(agent, "Three");
    expect(systemMessages(third.messages, "unknown_pricing").map((notice) => notice.model)).toEqual([
      "another-unpriced-model",
    ]);
  });

  it("is reported again by a new agent", async () => {
    for (let round = 0; round < 2; round++) {
      const agent = createAgent({
        model: "unpriced-model-y",
        client: createScriptedClient([{ content: "x" }]),
      });
      const { messages } = await runToEnd(agent, "Hi");
      expect(systemMessages(messages, "unknown_pricing")).toHaveLength(1);
    }
  });

  it("never borrows the price of a model whose id it extends", async () => {
    const agent = createAgent({
      model: "claude-opus-5-6",
      client: createScriptedClient([{ content: "x", usage: { input_tokens: 1_000_000, output_tokens: 0 } }]),
    });
    const { result, messages } = await runToEnd(agent, "Hi");
    expect(result.total_cost_usd).toBe(0);
    expect(systemMessages(messages, "unknown_pricing")).toHaveLength(1);
  });
});

describe("summary calls", () => {
  it("a tool-result summary (compactToolResults) is costed under its model and counted in usage", async () => {
    const bigOutput = "line of output\n".repeat(200);
    const big = defineTool({
      name: "dump",
      inputSchema: z.object({}),
      readOnly: true,
      execute: async () => bigOutput,
    });
    const turnUsage: Usage = { input_tokens: 1_000, output_tokens: 100 };
    const summaryUsage: Usage = { input_tokens: 800, output_tokens: 60, cache_read_input_tokens: 200 };
    const finalUsage: Usage = { input_tokens: 1_200, output_tokens: 30 };
    const client = createScriptedClient([
      { content: [{ type: "tool_use", id: "toolu_1", name: "dump", input: {} }], usage: turnUsage },
      { content: "A short summary of the dump.", usage: summaryUsage },
      { content: "All done.", usage: finalUsage },
    ]);
    const agent = createAgent({
      model: SONNET,
      client,
      tools: [big],
      compactToolResults: { thresholdChars: 1_000, model: HAIKU },
    });
    const { result, messages } = await runToEnd(agent, "Dump it");

    expect(client.requests.map((request) => request.model)).toEqual([SONNET, HAIKU, SONNET]);
    const compactions = systemMessages(messages, "tool_result_compaction");
    expect(compactions).toHaveLength(1);
    expect(compactions[0]).toMatchObject({ tool_use_id: "toolu_1", usage: summaryUsage });
    expect(result.num_turns).toBe(2);
    expect(result.usage).toEqual(sumUsage(turnUsage, summaryUsage, finalUsage));
    expect(result.model_usage[HAIKU]!.cost_usd).toBeCloseTo(priceOf(HAIKU, summaryUsage), 12);
    expect(result.model_usage[SONNET]!.cost_usd).toBeCloseTo(
      priceOf(SONNET, turnUsage) + priceOf(SONNET, finalUsage),
      12,
    );
    expect(result.total_cost_usd).toBeCloseTo(
      priceOf(SONNET, turnUsage) + priceOf(HAIKU, summaryUsage) + priceOf(SONNET, finalUsage),
      12,
    );
  });
});
