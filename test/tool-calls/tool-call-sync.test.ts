/**
 * Synchronous and asynchronous steps of a tool call mix freely: a batch that starts with
 * synchronous calls and meets an asynchronous one (a tool, a validator, a thenable) finishes the
 * rest in order, and failures of synchronous tools become error results like any other.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent, defineTool, type Tool } from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import {
  collect,
  expectWellFormed,
  lastResult,
  MODEL,
  resultText,
  toolResults,
  toolUse,
} from "../loop/support";

function agentWith(
  tools: Tool[],
  calls: ReturnType<typeof toolUse>[],
  options: { toolTimeoutMs?: number } = {},
) {
  const client = createScriptedClient([{ content: calls }, { content: "done" }]);
  return createAgent({ model: MODEL, client, tools, ...options });
}

const passThrough = { parse: (input: unknown) => input as { n: number }, jsonSchema: { type: "object" } };

describe("synchronous and asynchronous tool calls in one batch", () => {
  it("keeps order when an asynchronous call sits between synchronous ones", async () => {
    const ran: string[] = [];
    const syncTool = defineTool({
      name: "sync",
      inputSchema: passThrough,
      execute: (input) => {
        ran.push(`sync ${input.n}`);
        return `sync ${input.n}`;
      },
    });
    const asyncTool = defineTool({
      name: "slow",
      inputSchema: passThrough,
      execute: async (input) => {
        await new Promise((resolve) => setTimeout(resolve, 10));
        ran.push(`slow ${input.n}`);
        return `slow ${input.n}`;
      },
    });
    const agent = agentWith(
      [syncTool, asyncTool],
      [toolUse("a", "sync", { n: 1 }), toolUse("b", "slow", { n: 2 }), toolUse("c", "sync", { n: 3 })],
    );
    const messages = await collect(agent.query("go"));
    expect(lastResult(messages).subtype).toBe("success");
    expect(ran).toEqual(["sync 1", "slow 2", "sync 3"]);
    const history = await agent.getHistory();
    expect(toolResults(history).map(resultText)).toEqual(["sync 1", "slow 2", "sync 3"]);
    expectWellFormed(history);
  });

  it("turns a synchronous throw into an error result naming the tool", async () => {
    const throwing = defineTool({
      name: "explode",
      inputSchema: passThrough,
      execute: () => {
        throw new TypeError("bad state");
      },
    });
    const agent = agentWith([throwing], [toolUse("a", "explode", { n: 1 })], { toolTimeoutMs: 1000 });
    await agent.prompt("go");
    const [block] = toolResults(await agent.getHistory());
    expect(block?.is_error).toBe(true);
    expect(resultText(block!)).toBe('The tool "explode" failed: TypeError: bad state');
  });

  it("runs a synchronous tool after an asynchronous validator", async () => {
    const validated = defineTool({
      name: "validated",
      // An asynchronous refinement makes the Standard Schema validation return a promise.
      inputSchema: z
        .object({ n: z.number() })
        .refine(async (input) => input.n >= 0, "n must not be negative"),
      execute: (input) => `got ${input.n}`,
    });
    const agent = agentWith(
      [validated],
      [toolUse("a", "validated", { n: 4 }), toolUse("b", "validated", { n: -1 })],
    );
    await agent.prompt("go");
    const [good, bad] = toolResults(await agent.getHistory());
    expect(resultText(good!)).toBe("got 4");
    expect(bad?.is_error).toBe(true);
    expect(resultText(bad!)).toContain("n must not be negative");
  });

  it("accepts a thenable that is not a native promise", async () => {
    const thenable = defineTool({
      name: "thenable",
      inputSchema: passThrough,
      execute: () =>
        ({
          // biome-ignore lint/suspicious/noThenProperty: the point of the test is a foreign thenable
          then: (resolve: (value: string) => void) => setTimeout(() => resolve("from a thenable"), 1),
        }) as unknown as Promise<string>,
    });
    const agent = agentWith([thenable], [toolUse("a", "thenable", { n: 1 })]);
    await agent.prompt("go");
    expect(toolResults(await agent.getHistory()).map(resultText)).toEqual(["from a thenable"]);
  });
});
