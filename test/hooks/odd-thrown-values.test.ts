/**
 * Values thrown that are not Errors and cannot be turned into text the usual way — an object without
 * a prototype (`String()` throws on it), one whose `toString` throws — must still become error
 * results and hook failures: the query goes on, its history stays well-formed.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent, defineTool } from "../../src/index";
import { createScriptedClient } from "../../src/testing";
import { collect, hookErrors, resultFor, resultOf, textOf, toolUse } from "./support";

/** `String(value)` throws for both. */
const oddValues: Array<[string, () => unknown]> = [
  ["an object without a prototype", () => Object.create(null)],
  [
    "an object whose toString throws",
    () => ({
      toString() {
        throw new Error("no text for you");
      },
    }),
  ],
];

function agentWith(options: Partial<Parameters<typeof createAgent>[0]>, thrown?: () => unknown) {
  const tool = defineTool({
    name: "deploy",
    inputSchema: z.object({ target: z.string() }),
    execute: ({ target }) => {
      if (thrown) throw thrown();
      return `deployed ${target}`;
    },
  });
  const client = createScriptedClient([
    { content: [toolUse("c1", "deploy", { target: "prod" })] },
    { content: "carried on" },
  ]);
  return { client, agent: createAgent({ model: "m", client, tools: [tool], ...options }) };
}

describe.each(oddValues)("%s thrown", (_label, oddValue) => {
  it("by a tool: an error result, and the loop goes on", async () => {
    const { agent, client } = agentWith({}, oddValue);
    const result = resultOf(await collect(agent.query("go")));
    expect(result.subtype).toBe("success");
    expect(client.callCount).toBe(2);
    const block = resultFor(await agent.getHistory(), "c1");
    expect(block.is_error).toBe(true);
    expect(textOf(block)).toMatch(/^The tool "deploy" failed: /);
  });

  it("by a preToolUse hook: a hook_error and an error result, the call not run", async () => {
    const { agent } = agentWith({
      hooks: {
        preToolUse: [
          {
            handler: () => {
              throw oddValue();
            },
          },
        ],
      },
    });
    const messages = await collect(agent.query("go"));
    expect(resultOf(messages).subtype).toBe("success");
    expect(hookErrors(messages)).toHaveLength(1);
    expect(hookErrors(messages)[0]!.error.message).toMatch(/^preToolUse hook #1 failed: /);
    const block = resultFor(await agent.getHistory(), "c1");
    expect(block.is_error).toBe(true);
    expect(textOf(block)).toMatch(/^preToolUse hook #1 failed: .*The call was not run\.$/);
  });

  it("by canUseTool: an error result, the call not run", async () => {
    const { agent } = agentWith({
      canUseTool: () => {
        throw oddValue();
      },
    });
    const result = resultOf(await collect(agent.query("go")));
    expect(result.subtype).toBe("success");
    const block = resultFor(await agent.getHistory(), "c1");
    expect(textOf(block)).toMatch(
      /^The permission check \(canUseTool\) for "deploy" failed: .*The call was not run\.$/,
    );
  });
});
