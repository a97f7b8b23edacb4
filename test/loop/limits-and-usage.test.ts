/**
 * The turn limit, and what a result reports: usage summed over the query, the last stop reason,
 * turns, duration, text, cost — and how a response cut at max_tokens is handled.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createAgent,
  DEFAULT_MAX_TURNS,
  defineTool,
  InvalidOptionError,
  MaxTurnsError,
  type ModelClient,
} from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { expectWellFormed, MODEL, resultText, toolResults, toolUse } from "./support";

const pingTool = defineTool({
  name: "ping",
  readOnly: true,
  inputSchema: z.object({}),
  execute: () => "pong",
});

/** A model that calls `ping` forever. */
function loopingClient() {
  return createScriptedClient((_request, index) => ({
    content: [toolUse(`t${index}`, "ping")],
    usage: { input_tokens: 1, output_tokens: 1 },
  }));
}

describe("maxTurns", () => {
  it("defaults to 50 model requests, then ends error_max_turns with well-formed history", async () => {
    expect(DEFAULT_MAX_TURNS).toBe(50);
    const client = loopingClient();
    const agent = createAgent({ model: MODEL, client, tools: [pingTool] });

    const result = await agent.prompt("loop");

    expect(result.subtype).toBe("error_max_turns");
    expect(result.is_error).toBe(true);
    expect(result.error).toBeInstanceOf(MaxTurnsError);
    expect((result.error as MaxTurnsError).maxTurns).toBe(50);
    expect(client.callCount).toBe(50);
    expect(result.num_turns).toBe(50);
    expect(result.usage).toMatchObject({ input_tokens: 50, output_tokens: 50 });
    const history = await agent.getHistory();
    expectWellFormed(history);
    expect(toolResults(history)).toHaveLength(50);
  });

  it("stops at the configured count", async () => {
    const client = loopingClient();
    const agent = createAgent({ model: MODEL, client, tools: [pingTool], maxTurns: 3 });

    const result = await agent.prompt("loop");

    expect(result.subtype).toBe("error_max_turns");
    expect(client.callCount).toBe(3);
    expect(result.num_turns).toBe(3);
  });

  it("counts model requests only: tool executions, permission checks and stream events do not count", async () => {
    let permissionChecks = 0;
    // Not read-only, so every call asks canUseTool.
    const touch = defineTool({ name: "touch", inputSchema: z.object({}), execute: () => "touched" });
    const client = createScriptedClient([
      { content: Array.from({ length: 6 }, (_, i) => toolUse(`t${i}`, "touch")) },
      { content: "done" },
    ]);
    const agent = createAgent({
      model: MODEL,
      client,
      tools: [touch],
      maxTurns: 2,
      includePartialMessages: true,
      canUseTool: async () => {
        permissionChecks += 1;
        return { behavior: "allow" };
      },
    });

    const result = await agent.prompt("go");

    expect(permissionChecks).toBe(6);
    expect(result.subtype).toBe("success");
    expect(result.num_turns).toBe(2);
  });

  it("each query has its own count", async () => {
    const client = createScriptedClient([
      { content: [toolUse("a", "ping")] },
      { content: "one" },
      { content: [toolUse("b", "ping")] },
      { content: "two" },
    ]);
    const agent = createAgent({ model: MODEL, client, tools: [pingTool], maxTurns: 2 });

    expect((await agent.prompt("first")).subtype).toBe("success");
    expect((await agent.prompt("second")).subtype).toBe("success");
  });

  it("rejects a maxTurns that is not a positive integer", () => {
    for (const maxTurns of [0, -1, 2.5, Number.NaN]) {
      expect(() => createAgent({ model: MODEL, client: createScriptedClient([]), maxTurns })).toThrow(
        InvalidOptionError,
      );
    }
  });
});

describe("result fields", () => {
  it("sums usage over the query's requests, with cache buckets, and reports the last stop reason and text", async () => {
    const client = createScriptedClient([
      {
        content: [{ type: "text", text: "Checking." }, toolUse("t1", "ping")],
        usage: { input_tokens: 100, output_tokens: 20, cache_read_input_tokens: 50 },
      },
      {
        content: "All good.",
        stop_reason: "stop_sequence",
        usage: { input_tokens: 130, output_tokens: 7, cache_creation_input_tokens: 30 },
      },
    ]);
    const agent = createAgent({ model: MODEL, client, tools: [pingTool] });

    const result = await agent.prompt("check");

    expect(result.usage).toEqual({
      input_tokens: 230,
      output_tokens: 27,
      cache_read_input_tokens: 50,
      cache_creation_input_tokens: 30,
    });
    expect(result.stop_reason).toBe("stop_sequence");
    expect(result.num_turns).toBe(2);
    expect(result.result).toBe("All good.");
  });

  it("does not carry usage over from an earlier query", async () => {
    const client = createScriptedClient([
      { content: "a", usage: { input_tokens: 10, output_tokens: 1 } },
      { content: "b", usage: { input_tokens: 20, output_tokens: 2 } },
    ]);
    const agent = createAgent({ model: MODEL, client });

    await agent.prompt("one");
    const second = await agent.prompt("two");

    expect(second.usage).toMatchObject({ input_tokens: 20, output_tokens: 2 });
    expect(second.num_turns).toBe(1);
  });

  it("counts zeros when the client reports no usage", async () => {
    const client: ModelClient = {
      createMessage: async () => ({ role: "assistant", content: [{ type: "text", text: "no usage here" }] }),
    };
    const agent = createAgent({ model: MODEL, client });

    const result = await agent.prompt("hi");

    expect(result.subtype).toBe("success");
    expect(result.usage).toMatchObject({ input_tokens: 0, output_tokens: 0 });
    expect(result.stop_reason).toBeNull();
    expect(result.total_cost_usd).toBe(0);
  });

  it("measures duration_ms with the injected clock", async () => {
    let now = 1_000;
    const client = createScriptedClient(() => {
      now += 250;
      return { content: "ok" };
    });
    const agent = createAgent({ model: MODEL, client, _internal: { now: () => now } });

    expect((await agent.prompt("hi")).duration_ms).toBe(250);
  });

  it("prices usage per model actually used, with custom pricing merged over the table", async () => {
    const client = createScriptedClient([
      {
        content: [toolUse("t1", "ping")],
        model: "served-a",
        usage: { input_tokens: 1_000_000, output_tokens: 100_000 },
      },
      { content: "done", model: "served-b", usage: { input_tokens: 500_000, output_tokens: 0 } },
    ]);
    const agent = createAgent({
      model: "requested-model",
      client,
      tools: [pingTool],
      pricing: {
        "served-a": { inputPerMTok: 2, outputPerMTok: 10 },
        "served-b": { inputPerMTok: 4, outputPerMTok: 20 },
      },
    });

    const result = await agent.prompt("go");

    expect(Object.keys(result.model_usage).sort()).toEqual(["served-a", "served-b"]);
    expect(result.model_usage["served-a"]).toMatchObject({ input_tokens: 1_000_000, output_tokens: 100_000 });
    expect(result.model_usage["served-a"]?.cost_usd).toBeCloseTo(3, 10);
    expect(result.model_usage["served-b"]?.cost_usd).toBeCloseTo(2, 10);
    expect(result.total_cost_usd).toBeCloseTo(5, 10);
  });
});

describe("max_tokens", () => {
  it("a text response cut at max_tokens is still success, with the fragment as result", async () => {
    const client = createScriptedClient([{ content: "The answer is", stop_reason: "max_tokens" }]);
    const agent = createAgent({ model: MODEL, client, maxTokens: 16 });

    const result = await agent.prompt("explain");

    expect(result.subtype).toBe("success");
    expect(result.is_error).toBe(false);
    expect(result.stop_reason).toBe("max_tokens");
    expect(result.result).toBe("The answer is");
    expect(client.callCount).toBe(1);
    expect(client.requests[0]?.maxTokens).toBe(16);
  });

  it("a truncated response with tool calls runs none of them; each gets an error and the loop continues", async () => {
    const executed: string[] = [];
    const write = defineTool({
      name: "write_file",
      inputSchema: z.object({ path: z.string(), text: z.string() }),
      execute: ({ path }) => {
        executed.push(path);
        return "written";
      },
    });
    const client = createScriptedClient([
      {
        content: [
          toolUse("t1", "write_file", { path: "a.txt", text: "complete" }),
          toolUse("t2", "write_file", { path: "b.txt", text: "trunc" }),
        ],
        stop_reason: "max_tokens",
      },
      { content: [toolUse("t3", "write_file", { path: "a.txt", text: "short" })] },
      { content: "Written." },
    ]);
    const agent = createAgent({ model: MODEL, client, tools: [write] });

    const result = await agent.prompt("write two files");

    expect(executed).toEqual(["a.txt"]);
    const history = await agent.getHistory();
    expectWellFormed(history);
    const [first, second] = toolResults(history);
    for (const [block, id] of [
      [first, "t1"],
      [second, "t2"],
    ] as const) {
      expect(block).toMatchObject({ tool_use_id: id, is_error: true });
      expect(resultText(block!)).toMatch(/max_tokens/);
      expect(resultText(block!)).toMatch(/was not run/);
      expect(resultText(block!)).toMatch(/[Rr]eissue/);
    }
    expect(result.subtype).toBe("success");
    expect(result.num_turns).toBe(3);
    expect(client.requests[1]?.messages[2]).toMatchObject({ role: "user", content: [first, second] });
  });
});
