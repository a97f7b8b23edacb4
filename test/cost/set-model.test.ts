/**
 * `agent.setModel(model)`: switches the model for later turns — between queries, or between turns
 * from inside a tool — and costs stay per model.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type Agent, createAgent, defineTool, InvalidOptionError, type Usage } from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { priceOf, runToEnd, systemMessages } from "./cost-support";

const OPUS = "claude-opus-4-8";
const HAIKU = "claude-haiku-4-5";
const USAGE: Usage = { input_tokens: 10_000, output_tokens: 1_000 };

describe("setModel", () => {
  it("between queries: the next query runs and is costed on the new model", async () => {
    const client = createScriptedClient([
      { content: "from opus", usage: USAGE },
      { content: "from haiku", usage: USAGE },
    ]);
    const agent = createAgent({ model: OPUS, client });
    const first = await runToEnd(agent, "One");
    agent.setModel(HAIKU);
    expect(agent.model).toBe(HAIKU);
    const second = await runToEnd(agent, "Two");

    expect(client.requests.map((request) => request.model)).toEqual([OPUS, HAIKU]);
    expect(systemMessages(second.messages, "init")[0]!.model).toBe(HAIKU);
    expect(Object.keys(first.result.model_usage)).toEqual([OPUS]);
    expect(Object.keys(second.result.model_usage)).toEqual([HAIKU]);
    expect(first.result.total_cost_usd).toBeCloseTo(priceOf(OPUS, USAGE), 12);
    expect(second.result.total_cost_usd).toBeCloseTo(priceOf(HAIKU, USAGE), 12);
    expect(first.result.total_cost_usd).toBeGreaterThan(second.result.total_cost_usd);
    // The conversation carries over.
    expect(client.requests[1]!.messages).toHaveLength(3);
  });

  it("between turns, from a tool's execute: later turns use the new model, each costed at its price", async () => {
    let agent: Agent | undefined;
    const switchModel = defineTool({
      name: "switch_to_cheaper_model",
      inputSchema: z.object({}),
      execute: async () => {
        agent!.setModel(HAIKU);
        return "switched";
      },
    });
    const client = createScriptedClient([
      {
        content: [{ type: "tool_use", id: "toolu_1", name: "switch_to_cheaper_model", input: {} }],
        usage: USAGE,
      },
      { content: "Now answering on the cheaper model.", usage: USAGE },
    ]);
    agent = createAgent({ model: OPUS, client, tools: [switchModel] });
    const { result } = await runToEnd(agent, "Switch, then answer");

    expect(client.requests.map((request) => request.model)).toEqual([OPUS, HAIKU]);
    expect(result.subtype).toBe("success");
    expect(result.model_usage[OPUS]!.cost_usd).toBeCloseTo(priceOf(OPUS, USAGE), 12);
    expect(result.model_usage[HAIKU]!.cost_usd).toBeCloseTo(priceOf(HAIKU, USAGE), 12);
    expect(result.total_cost_usd).toBeCloseTo(priceOf(OPUS, USAGE) + priceOf(HAIKU, USAGE), 12);
    const history = await agent.getHistory();
    expect(history.filter((message) => message.role === "assistant").map((message) => message.model)).toEqual(
      [OPUS, HAIKU],
    );
  });

  it("to a model without a price: reported once, costed 0, the other model still priced", async () => {
    const client = createScriptedClient([
      { content: "priced", usage: USAGE },
      { content: "unpriced", usage: USAGE },
    ]);
    const agent = createAgent({ model: OPUS, client });
    await runToEnd(agent, "One");
    agent.setModel("my-finetune-v3");
    const { result, messages } = await runToEnd(agent, "Two");
    expect(systemMessages(messages, "unknown_pricing").map((notice) => notice.model)).toEqual([
      "my-finetune-v3",
    ]);
    expect(result.total_cost_usd).toBe(0);
  });

  it("rejects an empty model id and keeps the current one", () => {
    const agent = createAgent({ model: OPUS, client: createScriptedClient([]) });
    expect(() => agent.setModel("")).toThrow(InvalidOptionError);
    expect(agent.model).toBe(OPUS);
  });
});
