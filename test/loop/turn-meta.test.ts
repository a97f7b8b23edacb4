/**
 * What a run was, recorded beside history (`meta`): each assistant turn's start, end, latency,
 * cost, retries and fallback, and each tool call's duration, by the agent's clock — never sent to
 * the model (the wire bodies are the same with and without it).
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createAgent,
  createAnthropicClient,
  defineTool,
  type ModelClient,
  type ModelMessage,
} from "../../src/index";
import { mockServerPerTest } from "../support/mock-server";
import { createMemoryStore, MODEL, toolUse } from "./support";

const START = Date.UTC(2026, 11, 3, 12, 0, 0);
const MODEL_MS = 1_200;
const TOOL_MS = 250;

/** A clock the test moves: each model request takes MODEL_MS, each tool run TOOL_MS. */
function fakeClock() {
  const clock = { time: START, now: () => clock.time };
  return clock;
}

function slowClient(inner: ModelClient, clock: { time: number }): ModelClient {
  return {
    createMessage: async (request) => {
      clock.time += MODEL_MS;
      return inner.createMessage(request);
    },
  };
}

function lookupTool(clock: { time: number }) {
  return defineTool({
    name: "lookup",
    description: "Looks a word up",
    inputSchema: z.object({ word: z.string() }),
    execute: ({ word }) => {
      clock.time += TOOL_MS;
      return `${word}: found`;
    },
  });
}

function stripMeta(messages: readonly ModelMessage[]): ModelMessage[] {
  return messages.map(({ meta: _meta, ...rest }) => rest as ModelMessage);
}

describe("turn metadata", () => {
  const server = mockServerPerTest();

  function scriptToolRound(): void {
    server.enqueue(
      {
        content: [
          toolUse("toolu_a", "lookup", { word: "lattice" }),
          toolUse("toolu_b", "lookup", { word: "loop" }),
        ],
        usage: { input_tokens: 1_000, output_tokens: 100, cache_read_input_tokens: 500 },
      },
      { content: "Both found.", usage: { input_tokens: 1_200, output_tokens: 20 } },
    );
  }

  it("records start, end, latency and cost of each turn, and each tool call's duration", async () => {
    const clock = fakeClock();
    const store = createMemoryStore();
    scriptToolRound();
    const agent = createAgent({
      model: MODEL,
      client: slowClient(createAnthropicClient({ apiKey: "sk-test", baseURL: server.url }), clock),
      tools: [lookupTool(clock)],
      historyStore: store,
      _internal: { now: clock.now },
    });
    const result = await agent.prompt("Look up two words.");
    expect(result.subtype).toBe("success");

    const history = await store.load();
    const [, first, results, second] = history as [ModelMessage, ModelMessage, ModelMessage, ModelMessage];
    expect(first.meta).toEqual({
      started_at: new Date(START).toISOString(),
      ended_at: new Date(START + MODEL_MS).toISOString(),
      latency_ms: MODEL_MS,
      cost_usd: expect.any(Number),
    });
    expect(first.meta?.cost_usd).toBeGreaterThan(0);
    // Tools run one after another (not read-only): each took TOOL_MS by the agent's clock.
    expect(results.meta).toEqual({ tool_durations_ms: { toolu_a: TOOL_MS, toolu_b: TOOL_MS } });
    expect(second.meta).toMatchObject({
      started_at: new Date(START + MODEL_MS + 2 * TOOL_MS).toISOString(),
      latency_ms: MODEL_MS,
    });
    // The turns' costs add up to the query's.
    expect((first.meta?.cost_usd ?? 0) + (second.meta?.cost_usd ?? 0)).toBeCloseTo(result.total_cost_usd, 12);
    // What the consumer was handed is what history holds.
    expect(await agent.getHistory()).toEqual(history);
  });

  it("records the retries of a turn and the model that was tried first when the fallback served it", async () => {
    const clock = fakeClock();
    server.enqueue({ fault: "status", status: 500 }, { fault: "status", status: 529 }, { content: "ok" });
    const agent = createAgent({
      model: "claude-opus-4-1",
      fallbackModel: MODEL,
      retry: { maxRetries: 1 },
      client: createAnthropicClient({ apiKey: "sk-test", baseURL: server.url, stream: false }),
      _internal: { now: clock.now, sleep: async () => {} },
    });
    expect((await agent.prompt("hi")).subtype).toBe("success");
    const [, reply] = await agent.getHistory();
    expect(reply?.meta).toMatchObject({ retries: 1, fallback_from: "claude-opus-4-1" });
  });

  it("never sends it: the requests are byte for byte those of the same history without it", async () => {
    const clock = fakeClock();
    scriptToolRound();
    const recorder = createAgent({
      model: MODEL,
      client: createAnthropicClient({ apiKey: "sk-test", baseURL: server.url }),
      tools: [lookupTool(clock)],
      promptCaching: false,
      _internal: { now: clock.now },
    });
    await recorder.prompt("Look up two words.");
    const recorded = await recorder.getHistory();
    // The prompt (its checkpoint id), two responses and the tool results.
    expect(recorded.filter((message) => message.meta !== undefined)).toHaveLength(4);

    const bodies: string[] = [];
    for (const history of [recorded, stripMeta(recorded)]) {
      server.enqueue({ content: "Again." });
      const agent = createAgent({
        model: MODEL,
        client: createAnthropicClient({ apiKey: "sk-test", baseURL: server.url }),
        tools: [lookupTool(clock)],
        promptCaching: false,
        historyStore: createMemoryStore(history),
      });
      await agent.prompt("Once more.");
      bodies.push(JSON.stringify(server.requests.at(-1)!.body));
    }
    expect(bodies[0]).toBe(bodies[1]);
    for (const field of [
      "meta",
      "latency_ms",
      "cost_usd",
      "tool_durations_ms",
      "started_at",
      "checkpoint_id",
    ]) {
      expect(bodies[0]).not.toContain(field);
    }
  });
});
