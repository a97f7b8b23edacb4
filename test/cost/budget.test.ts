/**
 * `maxBudgetUsd`: checked after every model response; once the query's cost is over it, the query
 * ends `error_max_budget_usd` keeping the partial text, usage and cost, with history well-formed.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { BUDGET_TOLERANCE_USD, isOverBudget } from "../../src/cost/budget";
import {
  BudgetExceededError,
  createAgent,
  defineTool,
  InvalidOptionError,
  type Usage,
} from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { priceOf, runToEnd, sumUsage } from "./cost-support";

const SONNET = "claude-sonnet-4-6";
/** $0.006 on Sonnet 4.6: 1000 × $3 + 200 × $15 per million. */
const TURN: Usage = { input_tokens: 1_000, output_tokens: 200 };

function countingTool() {
  const calls: unknown[] = [];
  const tool = defineTool({
    name: "write_note",
    inputSchema: z.object({ text: z.string() }),
    execute: async (input) => {
      calls.push(input);
      return "noted";
    },
  });
  return { tool, calls };
}

const toolTurn = (id: string, text = "Let me write that down.") => ({
  content: [
    { type: "text" as const, text },
    { type: "tool_use" as const, id, name: "write_note", input: { text: id } },
  ],
  usage: TURN,
});

describe("maxBudgetUsd", () => {
  it("ends the query error_max_budget_usd once the cost goes over, keeping text, usage and cost", async () => {
    const { tool, calls } = countingTool();
    const client = createScriptedClient([
      toolTurn("toolu_1"),
      toolTurn("toolu_2", "Second note, please."),
      { content: "never" },
    ]);
    const agent = createAgent({ model: SONNET, client, tools: [tool], maxBudgetUsd: 0.01 });
    const { result, messages } = await runToEnd(agent, "Take notes");

    expect(priceOf(SONNET, TURN)).toBeCloseTo(0.006, 12);
    expect(client.callCount).toBe(2);
    expect(result.subtype).toBe("error_max_budget_usd");
    expect(result.is_error).toBe(true);
    expect(result.result).toBe("Second note, please.");
    expect(result.num_turns).toBe(2);
    expect(result.usage).toEqual(sumUsage(TURN, TURN));
    expect(result.total_cost_usd).toBeCloseTo(0.012, 12);
    expect(result.model_usage[SONNET]!.cost_usd).toBeCloseTo(0.012, 12);
    expect(result.stop_reason).toBe("tool_use");
    const error = result.error as BudgetExceededError;
    expect(error).toBeInstanceOf(BudgetExceededError);
    expect(error.maxBudgetUsd).toBe(0.01);
    expect(error.spentUsd).toBeCloseTo(0.012, 12);
    // The first call ran; the one in the over-budget response did not, and was answered anyway.
    expect(calls).toEqual([{ text: "toolu_1" }]);
    const history = await agent.getHistory();
    const last = history.at(-1)!;
    expect(last.role).toBe("user");
    expect(last.content).toEqual([
      expect.objectContaining({ type: "tool_result", tool_use_id: "toolu_2", is_error: true }),
    ]);
    expect(JSON.stringify(last.content)).toContain("maxBudgetUsd");
    // The over-budget assistant message was yielded before the result.
    expect(messages.filter((message) => message.type === "assistant")).toHaveLength(2);
  });

  it("a final answer that crosses the budget still ends error_max_budget_usd, with the answer as result", async () => {
    const client = createScriptedClient([{ content: "Here is the full answer.", usage: TURN }]);
    const agent = createAgent({ model: SONNET, client, maxBudgetUsd: 0.001 });
    const { result } = await runToEnd(agent, "Answer");
    expect(result.subtype).toBe("error_max_budget_usd");
    expect(result.result).toBe("Here is the full answer.");
    expect(result.total_cost_usd).toBeCloseTo(0.006, 12);
  });

  it("a cost equal to the budget is not over it", async () => {
    const client = createScriptedClient([
      { content: "exactly", usage: { input_tokens: 1_000_000, output_tokens: 0 } },
    ]);
    const agent = createAgent({ model: SONNET, client, maxBudgetUsd: 3 });
    const { result } = await runToEnd(agent, "Go");
    expect(result.total_cost_usd).toBe(3);
    expect(result.subtype).toBe("success");
  });

  it("a cost equal to the budget over two responses is not over it, despite floating point (0.1 + 0.2)", async () => {
    // claude-haiku-4-5 input is $1 per million tokens: $0.10 + $0.20, which sums to 0.30000000000000004.
    const { tool, calls } = countingTool();
    const client = createScriptedClient([
      { ...toolTurn("toolu_1"), usage: { input_tokens: 100_000, output_tokens: 0 } },
      { content: "Done.", usage: { input_tokens: 200_000, output_tokens: 0 } },
    ]);
    const agent = createAgent({ model: "claude-haiku-4-5", client, tools: [tool], maxBudgetUsd: 0.3 });
    const { result } = await runToEnd(agent, "Go");
    expect(result.total_cost_usd).toBeGreaterThan(0.3);
    expect(result.total_cost_usd).toBeCloseTo(0.3, 12);
    expect(result.subtype).toBe("success");
    expect(result.result).toBe("Done.");
    expect(calls).toHaveLength(1);
  });

  it("isOverBudget: equal (up to a micro-dollar of rounding) is not over; more is", () => {
    expect(isOverBudget(0.1 + 0.2, 0.3)).toBe(false);
    expect(isOverBudget(0.3, 0.3)).toBe(false);
    expect(isOverBudget(0.2999, 0.3)).toBe(false);
    expect(isOverBudget(0.3 + 2 * BUDGET_TOLERANCE_USD, 0.3)).toBe(true);
    expect(isOverBudget(0.000003, 0)).toBe(true);
    expect(isOverBudget(0, 0)).toBe(false);
  });

  it("maxBudgetUsd: 0 stops after the first priced response", async () => {
    const { tool, calls } = countingTool();
    const client = createScriptedClient([toolTurn("toolu_1"), { content: "never" }]);
    const agent = createAgent({ model: SONNET, client, tools: [tool], maxBudgetUsd: 0 });
    const { result } = await runToEnd(agent, "Go");
    expect(result.subtype).toBe("error_max_budget_usd");
    expect(calls).toEqual([]);
    expect(client.callCount).toBe(1);
  });

  it("a model without a price never crosses the budget (its cost is 0)", async () => {
    const client = createScriptedClient([
      { content: "free", usage: { input_tokens: 10_000_000, output_tokens: 0 } },
    ]);
    const agent = createAgent({ model: "unpriced-local-model", client, maxBudgetUsd: 0 });
    const { result } = await runToEnd(agent, "Go");
    expect(result.subtype).toBe("success");
  });

  it("is per query: the next query has the whole budget again", async () => {
    const client = createScriptedClient([
      { content: "one", usage: TURN },
      { content: "two", usage: TURN },
    ]);
    const agent = createAgent({ model: SONNET, client, maxBudgetUsd: 0.008 });
    expect((await runToEnd(agent, "One")).result.subtype).toBe("success");
    expect((await runToEnd(agent, "Two")).result.subtype).toBe("success");
  });

  it("counts a summary call toward the budget: no further request once it crossed it", async () => {
    const big = defineTool({
      name: "dump",
      inputSchema: z.object({}),
      readOnly: true,
      execute: async () => "x".repeat(5_000),
    });
    const client = createScriptedClient([
      {
        content: [
          { type: "text", text: "Dumping." },
          { type: "tool_use", id: "toolu_1", name: "dump", input: {} },
        ],
        usage: TURN,
      },
      { content: "summary", usage: { input_tokens: 1_000_000, output_tokens: 0 } },
      { content: "never requested", usage: TURN },
    ]);
    const agent = createAgent({
      model: SONNET,
      client,
      tools: [big],
      maxBudgetUsd: 1,
      compactToolResults: { thresholdChars: 1_000 },
    });
    const { result } = await runToEnd(agent, "Go");
    expect(client.callCount).toBe(2);
    expect(result.subtype).toBe("error_max_budget_usd");
    expect(result.error).toBeInstanceOf(BudgetExceededError);
    expect(result.result).toBe("Dumping.");
    expect(result.num_turns).toBe(1);
    expect(result.total_cost_usd).toBeCloseTo(3 + 0.006, 12);
    // The (summarised) tool result is in history: the call was answered.
    const history = await agent.getHistory();
    expect(history.at(-1)).toMatchObject({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "toolu_1" }],
    });
  });

  it("rejects a negative or non-numeric budget at creation", () => {
    const client = createScriptedClient([]);
    expect(() => createAgent({ model: SONNET, client, maxBudgetUsd: -1 })).toThrow(InvalidOptionError);
    expect(() => createAgent({ model: SONNET, client, maxBudgetUsd: Number.NaN })).toThrow(
      InvalidOptionError,
    );
  });
});

describe("no request once a summary or an overflowing response spent the budget", () => {
  it("a tool-result summary that crosses the budget is not followed by another summary request", async () => {
    const dump = defineTool({
      name: "dump",
      inputSchema: z.object({ n: z.number() }),
      execute: ({ n }) => `${n}:${"x".repeat(60_000)}`, // not read-only: the calls run one after the other
    });
    const client = createScriptedClient([
      {
        content: [
          { type: "tool_use", id: "t1", name: "dump", input: { n: 1 } },
          { type: "tool_use", id: "t2", name: "dump", input: { n: 2 } },
        ],
        usage: { input_tokens: 1_000, output_tokens: 10 },
      },
      { content: "condensed 1", usage: { input_tokens: 200_000, output_tokens: 10 } }, // $0.60 > $0.50
    ]);
    const agent = createAgent({
      model: SONNET,
      client,
      tools: [dump],
      compactToolResults: true,
      maxBudgetUsd: 0.5,
    });

    const result = await agent.prompt("go");

    expect(result.subtype).toBe("error_max_budget_usd");
    expect(client.callCount).toBe(2); // the second result keeps its original text
    const history = await agent.getHistory();
    const results = history.flatMap((message) =>
      message.role === "user" && Array.isArray(message.content)
        ? message.content.filter((block) => block.type === "tool_result")
        : [],
    );
    expect(String(results[1]?.content).startsWith("2:xxx")).toBe(true);
  });

  it("an overflow response that crosses the budget is not followed by a summarising request", async () => {
    const client = createScriptedClient([
      { content: "first answer", usage: { input_tokens: 1_000, output_tokens: 10 } },
      {
        content: "",
        stop_reason: "model_context_window_exceeded",
        usage: { input_tokens: 200_000, output_tokens: 0 }, // $0.60 > $0.50
      },
    ]);
    const agent = createAgent({
      model: SONNET,
      client,
      autoCompact: { keepRecentMessages: 1 },
      maxBudgetUsd: 0.5,
    });
    await agent.prompt("one");

    const result = await agent.prompt("two");

    expect(result.subtype).toBe("error_max_budget_usd");
    expect(client.callCount).toBe(2);
  });
});
