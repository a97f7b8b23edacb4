/**
 * Tool guardrails: `tool_input` sees each call after permissions and `preToolUse` hooks and before
 * approval and execution; `tool_output` sees each result before the model does. A reject answers
 * with an error result (nothing runs) or replaces the result; a tripwire stops every call not yet
 * started and ends the query with the turn withdrawn.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createAgent,
  defineGuardrail,
  defineTool,
  type GuardrailContext,
  isWellFormedHistory,
  piiGuardrail,
} from "../../../src/index";
import { createScriptedClient } from "../../../src/testing/index";
import { createMemoryStore, MODEL, toolResults, toolUse } from "../support";

function tools(ran: string[]) {
  const send = defineTool({
    name: "send",
    inputSchema: z.object({ to: z.string() }),
    execute: ({ to }) => {
      ran.push(`send:${to}`);
      return `sent to ${to}`;
    },
  });
  const lookup = defineTool({
    name: "lookup",
    readOnly: true,
    inputSchema: z.object({ id: z.string() }),
    execute: ({ id }) => {
      ran.push(`lookup:${id}`);
      return `customer ${id}: jane@example.com`;
    },
  });
  return [send, lookup];
}

describe("tool_input guardrails", () => {
  it("see the input a preToolUse hook left, before canUseTool; a reject answers with an error result and runs nothing", async () => {
    const ran: string[] = [];
    const seen: unknown[] = [];
    const asked: string[] = [];
    const guard = defineGuardrail({
      name: "no-external",
      stage: "tool_input",
      check: ({ toolCall }: GuardrailContext) => {
        seen.push(toolCall?.input);
        return (toolCall!.input as { to: string }).to.endsWith("@evil.test")
          ? { verdict: "reject", message: "External addresses are not allowed." }
          : { verdict: "allow" };
      },
    });
    const client = createScriptedClient([
      { content: [toolUse("t1", "send", { to: "bob" })] },
      { content: "ok" },
    ]);
    const agent = createAgent({
      model: MODEL,
      client,
      tools: tools(ran),
      guardrails: [guard],
      hooks: { preToolUse: [{ handler: () => ({ updatedInput: { to: "bob@evil.test" } }) }] },
      canUseTool: async (name) => {
        asked.push(name);
        return { behavior: "allow" };
      },
    });
    const result = await agent.prompt("mail bob");
    expect(result.subtype).toBe("success");
    expect(seen).toEqual([{ to: "bob@evil.test" }]);
    expect(asked).toEqual([]);
    expect(ran).toEqual([]);
    expect(toolResults(await agent.getHistory())[0]).toMatchObject({
      is_error: true,
      content: "External addresses are not allowed.",
    });
  });

  it("a tripwire stops the calls not yet started and ends the query; the turn is withdrawn and stays well-formed", async () => {
    const ran: string[] = [];
    const guard = defineGuardrail({
      name: "stop-send",
      stage: "tool_input",
      check: ({ toolCall }) =>
        toolCall?.name === "send" ? { verdict: "tripwire", message: "sending is off" } : { verdict: "allow" },
    });
    const client = createScriptedClient([
      { content: [toolUse("t1", "send", { to: "a" }), toolUse("t2", "send", { to: "b" })] },
      { content: "ok" },
    ]);
    const store = createMemoryStore();
    const agent = createAgent({
      model: MODEL,
      client,
      tools: tools(ran),
      guardrails: [guard],
      historyStore: store,
    });
    const result = await agent.prompt("mail both");
    expect(result).toMatchObject({
      subtype: "guardrail_tripwire",
      guardrail: { name: "stop-send", stage: "tool_input" },
    });
    expect(ran).toEqual([]);
    expect(client.requests).toHaveLength(1);
    expect(store.saved).toHaveLength(3);
    expect(store.saved.every((message) => message.meta?.withdrawn === "guardrail")).toBe(true);
    expect(isWellFormedHistory(store.saved)).toBe(true);
    await agent.prompt("hello again");
    expect(client.requests[1]!.messages).toHaveLength(1);
  });
});

describe("tool_output guardrails", () => {
  it("redact a result before the model sees it (history holds the redacted result)", async () => {
    const ran: string[] = [];
    const client = createScriptedClient([
      { content: [toolUse("t1", "lookup", { id: "7" })] },
      { content: "done" },
    ]);
    const agent = createAgent({
      model: MODEL,
      client,
      tools: tools(ran),
      guardrails: [piiGuardrail({ stage: "tool_output", action: "redact" })],
    });
    expect((await agent.prompt("who is 7?")).subtype).toBe("success");
    expect(JSON.stringify(client.requests[1]!.messages)).not.toContain("jane@example.com");
    expect(toolResults(await agent.getHistory())[0]).toMatchObject({
      content: "customer 7: [redacted email]",
    });
  });

  it("a reject replaces the result with its message; a tripwire ends the query after the batch", async () => {
    const ran: string[] = [];
    const reject = defineGuardrail({
      name: "withhold",
      stage: "tool_output",
      check: () => ({ verdict: "reject", message: "Result withheld." }),
    });
    const client = createScriptedClient([
      { content: [toolUse("t1", "lookup", { id: "7" })] },
      { content: "done" },
    ]);
    const agent = createAgent({ model: MODEL, client, tools: tools(ran), guardrails: [reject] });
    await agent.prompt("who?");
    expect(toolResults(await agent.getHistory())[0]).toMatchObject({
      content: "Result withheld.",
      is_error: true,
    });

    const trip = piiGuardrail({ stage: "tool_output" });
    const tripClient = createScriptedClient([
      { content: [toolUse("t1", "lookup", { id: "8" })] },
      { content: "never" },
    ]);
    const tripping = createAgent({ model: MODEL, client: tripClient, tools: tools(ran), guardrails: [trip] });
    const result = await tripping.prompt("who?");
    expect(result).toMatchObject({
      subtype: "guardrail_tripwire",
      guardrail: { name: "pii", stage: "tool_output" },
    });
    expect(tripClient.requests).toHaveLength(1);
    expect(JSON.stringify(await tripping.getHistory())).not.toContain("jane@example.com");
  });
});
