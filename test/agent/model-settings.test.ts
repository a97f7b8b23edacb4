/**
 * Model settings on the agent side: validated at createAgent and per query (InvalidOptionError
 * naming the option), resolved once into what each main request carries — a custom client sees
 * them, a query's override wins for that query only, addTools re-checks a named tool choice.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent, defineTool, InvalidOptionError } from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { MODEL, toolUse } from "../loop/support";

const lookup = defineTool({
  name: "lookup",
  description: "Look a word up",
  inputSchema: z.object({ word: z.string() }),
  execute: ({ word }) => `${word}: a word`,
});

const other = defineTool({
  name: "other",
  description: "Another tool",
  inputSchema: z.object({}),
  execute: () => "done",
});

function refusal(run: () => unknown): InvalidOptionError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidOptionError);
    return error as InvalidOptionError;
  }
  throw new Error("expected an InvalidOptionError");
}

describe("createAgent refuses invalid model settings, naming the option", () => {
  const client = createScriptedClient([]);
  it.each([
    [{ temperature: 1.5 }, /createAgent: `temperature`/],
    [{ topP: 0 }, /`topP`/],
    [{ topK: 2.5 }, /`topK`/],
    [{ stopSequences: [" "] }, /`stopSequences\[0\]`/],
    [{ toolChoice: { type: "tool", name: "missing" } }, /"missing", which the agent does not have/],
    [{ thinking: { type: "enabled", budgetTokens: 512 } }, /`thinking.budgetTokens`/],
    [{ thinking: { type: "enabled", budgetTokens: 8192 } }, /below `maxTokens` \(8192\)/],
    [{ thinking: { type: "adaptive" }, temperature: 0.3 }, /`temperature` must be 1/],
    [{ thinking: { type: "adaptive" }, toolChoice: "any" }, /`toolChoice` cannot force/],
    [{ effort: "extreme" }, /`effort`/],
    [{ promptCaching: { ttl: "2h" } }, /`promptCaching`/],
    [{ extraBody: { model: "x" } }, /`extraBody` cannot set `model`/],
  ] as const)("%j", (settings, message) => {
    const error = refusal(() =>
      createAgent({ model: MODEL, client, tools: [lookup], ...(settings as object) }),
    );
    expect(error.message).toMatch(message);
  });

  it('refuses toolChoice "none" with an outputSchema, which could then never submit', () => {
    const error = refusal(() =>
      createAgent({ model: MODEL, client, outputSchema: z.object({ n: z.number() }), toolChoice: "none" }),
    );
    expect(error.message).toMatch(/cannot be combined with `outputSchema`/);
  });

  it("accepts a forced tool the agent has, and submit_output with an outputSchema", () => {
    expect(() =>
      createAgent({ model: MODEL, client, tools: [lookup], toolChoice: { type: "tool", name: "lookup" } }),
    ).not.toThrow();
    expect(() =>
      createAgent({
        model: MODEL,
        client,
        outputSchema: z.object({ n: z.number() }),
        toolChoice: { type: "tool", name: "submit_output" },
      }),
    ).not.toThrow();
  });
});

describe("the resolved settings on each main request", () => {
  it("carries the agent's settings, promptCaching as { ttl } by default, to a custom client", async () => {
    const client = createScriptedClient([{ content: "ok" }]);
    const agent = createAgent({
      model: MODEL,
      client,
      tools: [lookup],
      temperature: 0.2,
      topP: 0.9,
      topK: 40,
      stopSequences: ["END"],
      toolChoice: { type: "tool", name: "lookup" },
      parallelToolCalls: false,
      effort: "low",
      metadata: { userId: "user-42" },
      serviceTier: "standard_only",
      extraBody: { custom_field: 1 },
    });
    await agent.prompt("Hi");
    const [request] = client.requests;
    expect(request).toMatchObject({
      temperature: 0.2,
      topP: 0.9,
      topK: 40,
      stopSequences: ["END"],
      toolChoice: { type: "tool", name: "lookup" },
      parallelToolCalls: false,
      effort: "low",
      metadata: { userId: "user-42" },
      serviceTier: "standard_only",
      extraBody: { custom_field: 1 },
      promptCaching: { ttl: "5m" },
    });
    expect(request).not.toHaveProperty("thinking");
  });

  it("leaves unset settings absent, and promptCaching absent when off; 1h TTL when asked", async () => {
    const off = createScriptedClient([{ content: "ok" }]);
    await createAgent({ model: MODEL, client: off, promptCaching: false }).prompt("Hi");
    for (const field of ["temperature", "topP", "toolChoice", "thinking", "promptCaching", "extraBody"])
      expect(off.requests[0]).not.toHaveProperty(field);
    const hour = createScriptedClient([{ content: "ok" }]);
    await createAgent({ model: MODEL, client: hour, promptCaching: { ttl: "1h" } }).prompt("Hi");
    expect(hour.requests[0]!.promptCaching).toEqual({ ttl: "1h" });
  });

  it("a query's overrides win for that query only, on every turn of it", async () => {
    const client = createScriptedClient([
      { content: [toolUse("toolu_1", "lookup", { word: "a" })] },
      { content: "first" },
      { content: "second" },
    ]);
    const agent = createAgent({ model: MODEL, client, tools: [lookup], temperature: 0.5, maxTokens: 4096 });
    await agent.prompt("One", {
      temperature: 0.1,
      maxTokens: 2048,
      stopSequences: ["STOP"],
      toolChoice: "auto",
      effort: "high",
      topP: 0.8,
      topK: 5,
    });
    await agent.prompt("Two");
    const [first, second, third] = client.requests;
    for (const request of [first, second]) {
      expect(request).toMatchObject({
        temperature: 0.1,
        maxTokens: 2048,
        stopSequences: ["STOP"],
        toolChoice: "auto",
        effort: "high",
        topP: 0.8,
        topK: 5,
      });
    }
    expect(third).toMatchObject({ temperature: 0.5, maxTokens: 4096 });
    expect(third).not.toHaveProperty("stopSequences");
    expect(third).not.toHaveProperty("effort");
  });

  it("a query's thinking override applies to that query", async () => {
    const client = createScriptedClient([{ content: "ok" }, { content: "ok" }]);
    const agent = createAgent({ model: MODEL, client });
    await agent.prompt("Think", { thinking: { type: "enabled", budgetTokens: 2048 } });
    await agent.prompt("Plain");
    expect(client.requests[0]!.thinking).toEqual({ type: "enabled", budgetTokens: 2048 });
    expect(client.requests[1]).not.toHaveProperty("thinking");
  });

  it("sets stop_sequence on the result from the last response", async () => {
    const client = createScriptedClient([{ content: "Counting 1 2", stop_sequence: "3" }]);
    const agent = createAgent({ model: MODEL, client, stopSequences: ["3"] });
    const result = await agent.prompt("Count");
    expect(result.stop_reason).toBe("stop_sequence");
    expect(result.stop_sequence).toBe("3");
  });

  it("an onModelRequest hook sees the settings and can change them for that request", async () => {
    const client = createScriptedClient([{ content: "ok" }]);
    const seen: unknown[] = [];
    const agent = createAgent({
      model: MODEL,
      client,
      temperature: 0.4,
      onModelRequest: (request) => {
        seen.push({ temperature: request.temperature, promptCaching: request.promptCaching });
        return { ...request, temperature: 0.9, promptCaching: undefined };
      },
    });
    await agent.prompt("Hi");
    expect(seen).toEqual([{ temperature: 0.4, promptCaching: { ttl: "5m" } }]);
    expect(client.requests[0]!.temperature).toBe(0.9);
    expect(client.requests[0]!.promptCaching).toBeUndefined();
  });
});

describe("per-query validation", () => {
  it("refuses invalid overrides and combinations with the agent's settings, before any request", async () => {
    const client = createScriptedClient([]);
    const agent = createAgent({ model: MODEL, client, tools: [lookup], temperature: 0.3, maxTokens: 4096 });
    await expect(agent.prompt("x", { temperature: 3 })).rejects.toThrow(/query: `temperature`/);
    await expect(agent.prompt("x", { thinking: { type: "adaptive" } })).rejects.toThrow(
      /`temperature` must be 1/,
    );
    await expect(
      agent.prompt("x", { temperature: 1, thinking: { type: "enabled", budgetTokens: 4096 } }),
    ).rejects.toThrow(/below `maxTokens` \(4096\)/);
    await expect(agent.prompt("x", { maxTokens: 0 })).rejects.toThrow(InvalidOptionError);
    await expect(agent.prompt("x", { toolChoice: { type: "tool", name: "other" } })).rejects.toThrow(
      /"other", which the agent does not have/,
    );
    expect(() => agent.query("x", { topK: -1 })).toThrow(/`topK`/);
    expect(client.requests).toHaveLength(0);
  });

  it("a query's maxTokens is checked against the agent's thinking budget", async () => {
    const client = createScriptedClient([]);
    const agent = createAgent({ model: MODEL, client, thinking: { type: "enabled", budgetTokens: 2048 } });
    await expect(agent.prompt("x", { maxTokens: 1500 })).rejects.toThrow(/below `maxTokens` \(1500\)/);
  });

  it("a tool added by addTools can be forced by a query", async () => {
    const client = createScriptedClient([{ content: "ok" }]);
    const agent = createAgent({
      model: MODEL,
      client,
      tools: [lookup],
      toolChoice: { type: "tool", name: "lookup" },
    });
    agent.addTools(other);
    await agent.prompt("x", { toolChoice: { type: "tool", name: "other" } });
    expect(client.requests[0]!.toolChoice).toEqual({ type: "tool", name: "other" });
  });
});
