/**
 * Handoffs over the mock Messages API server (loopback HTTP): the model's `transfer_to_<name>`
 * call passes the conversation to a specialist who answers the same history with its own system
 * prompt, tools, model and settings — in this query and the next, in another Agent over the same
 * store — and hands it back; the `history` forms shape only what its requests carry.
 */
import { describe, expect, it } from "vitest";
import {
  createAgent,
  defineHandoff,
  defineTool,
  InvalidOptionError,
  isWellFormedHistory,
  type ModelMessage,
  type SDKMessage,
} from "../../src/index";
import { createAnthropicClient } from "../../src/model/anthropic";
import { collect, createMemoryStore, MODEL, toolUse } from "../loop/support";
import { mockServerPerTest } from "../support/mock-server";

const API_KEY = "sk-ant-handoff-test-key-0123456789";

const invoice = defineTool({
  name: "lookup_invoice",
  description: "Finds an invoice.",
  jsonSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  inputSchema: { parse: (input: unknown) => input as { id: string } },
  execute: ({ id }: { id: string }) => `invoice ${id}: 42 EUR, paid`,
});

function billing(history?: "full" | "none" | "summary") {
  return defineHandoff({
    name: "billing",
    description: "Invoices and refunds.",
    systemPrompt: "You are the billing specialist.",
    tools: [invoice],
    model: "claude-haiku-4-5",
    temperature: 0.1,
    ...(history ? { history } : {}),
  });
}

type Body = {
  model: string;
  system?: Array<{ text: string }> | string;
  tools?: Array<{ name: string }>;
  messages: ModelMessage[];
  temperature?: number;
};

const systemOf = (body: Body) =>
  typeof body.system === "string" ? body.system : (body.system ?? []).map((block) => block.text).join("");
const toolNames = (body: Body) => (body.tools ?? []).map((tool) => tool.name);

describe("handoffs", () => {
  const server = mockServerPerTest();
  const client = () => createAnthropicClient({ apiKey: API_KEY, baseURL: server.url });
  const bodies = () =>
    server.requests.filter((r) => r.path.startsWith("/v1/messages")).map((r) => r.body as Body);

  it("a transfer call hands the same conversation to the specialist, in this query and the next", async () => {
    server.enqueue(
      { content: [toolUse("h1", "transfer_to_billing", { reason: "invoice question" })] },
      { content: [toolUse("i1", "lookup_invoice", { id: "A7" })] },
      { content: "Invoice A7 is paid." },
      { content: "Refunds take 5 days." },
    );
    const store = createMemoryStore();
    const agent = createAgent({
      model: MODEL,
      client: client(),
      name: "triage",
      systemPrompt: "You are triage.",
      temperature: 0.9,
      handoffs: [billing()],
      historyStore: store,
    });
    expect(agent.activeAgent).toBe("triage");
    const messages = await collect(agent.query("Is invoice A7 paid?"));
    const result = messages.at(-1) as Extract<SDKMessage, { type: "result" }>;
    expect(result).toMatchObject({ subtype: "success", result: "Invoice A7 is paid.", num_turns: 3 });
    expect(messages.filter((m) => m.type === "system" && m.subtype === "handoff")).toEqual([
      { type: "system", subtype: "handoff", from: "triage", to: "billing" },
    ]);
    expect(agent.activeAgent).toBe("billing");
    const [first, second, third] = bodies();
    expect(first!.model).toBe(MODEL);
    expect(systemOf(first!)).toBe("You are triage.");
    expect(toolNames(first!)).toEqual(["transfer_to_billing"]);
    expect(first!.temperature).toBe(0.9);
    for (const body of [second!, third!]) {
      expect(body.model).toBe("claude-haiku-4-5");
      expect(systemOf(body)).toBe("You are the billing specialist.");
      expect(toolNames(body)).toEqual(["lookup_invoice", "transfer_to_triage"]);
      expect(body.temperature).toBe(0.1);
    }
    // One history: the specialist saw everything (history "full"), well-formed.
    expect(second!.messages).toHaveLength(3);
    expect(isWellFormedHistory(third!.messages)).toBe(true);
    const history = await agent.getHistory();
    expect(history[2]!.meta?.handoff).toEqual({ from: "triage", to: "billing" });
    expect(history[1]!.meta?.agent).toBe("triage");
    expect(history[3]!.meta?.agent).toBe("billing");
    expect(history[5]!.meta?.agent).toBe("billing");

    // A fresh Agent over the same store: the specialist answers the next prompt.
    const other = createAgent({
      model: MODEL,
      client: client(),
      name: "triage",
      handoffs: [billing()],
      historyStore: store,
    });
    expect((await other.prompt("And refunds?")).result).toBe("Refunds take 5 days.");
    expect(other.activeAgent).toBe("billing");
    expect(systemOf(bodies()[3]!)).toBe("You are the billing specialist.");
    expect(bodies()[3]!.model).toBe("claude-haiku-4-5");
  });

  it("the specialist hands the conversation back with transfer_to_<root>", async () => {
    server.enqueue(
      { content: [toolUse("h1", "transfer_to_billing")] },
      { content: [toolUse("h2", "transfer_to_main", { reason: "not billing" })] },
      { content: "Triage here again." },
    );
    const agent = createAgent({
      model: MODEL,
      client: client(),
      systemPrompt: "Root.",
      handoffs: [billing()],
    });
    const result = await agent.prompt("What is the weather?");
    expect(result.result).toBe("Triage here again.");
    expect(agent.activeAgent).toBe("main");
    expect(systemOf(bodies()[2]!)).toBe("Root.");
    const history = await agent.getHistory();
    expect(history.map((m) => m.meta?.handoff).filter(Boolean)).toEqual([
      { from: "main", to: "billing" },
      { from: "billing", to: "main" },
    ]);
  });

  it("a query's toolChoice naming a root tool is not sent to a specialist without it; one it has is", async () => {
    const triageLookup = defineTool({
      name: "lookup_ticket",
      description: "Finds a ticket.",
      jsonSchema: { type: "object", properties: {} },
      inputSchema: { parse: (input: unknown) => input as object },
      execute: () => "ticket",
    });
    server.enqueue(
      { content: [toolUse("h1", "transfer_to_billing")] },
      { content: "Billing here." },
      { content: [toolUse("i1", "lookup_invoice", { id: "A7" })] },
      { content: "Paid." },
    );
    const agent = createAgent({
      model: MODEL,
      client: client(),
      tools: [triageLookup],
      handoffs: [billing()],
      historyStore: createMemoryStore(),
    });
    const first = await agent.prompt("Hi", { toolChoice: { type: "tool", name: "lookup_ticket" } });
    expect(first.subtype).toBe("success");
    const sent = bodies() as Array<Body & { tool_choice?: unknown }>;
    expect(sent[0]!.tool_choice).toEqual({ type: "tool", name: "lookup_ticket" });
    expect(toolNames(sent[1]!)).not.toContain("lookup_ticket");
    expect(sent[1]!.tool_choice).toBeUndefined(); // billing sets none of its own
    // A tool the specialist has is forced for it: the query starts with billing answering.
    expect(
      (await agent.prompt("Again", { toolChoice: { type: "tool", name: "lookup_invoice" } })).result,
    ).toBe("Paid.");
    expect(sent.length).toBe(2);
    const again = bodies() as Array<Body & { tool_choice?: unknown }>;
    expect(again[2]!.tool_choice).toEqual({ type: "tool", name: "lookup_invoice" });
    // Starting a query with a tool the answering agent lacks is refused before anything is sent.
    await expect(agent.prompt("No", { toolChoice: { type: "tool", name: "lookup_ticket" } })).rejects.toThrow(
      InvalidOptionError,
    );
    expect(bodies()).toHaveLength(again.length);
  });

  it("fork() keeps who answers at its checkpoint: after the handoff the specialist, before it the root", async () => {
    server.enqueue(
      { content: [toolUse("h1", "transfer_to_billing")] },
      { content: "Billing here." },
      { content: "Second answer." },
      { content: "Fork answered by billing." },
      { content: "Fork answered by the root." },
    );
    const agent = createAgent({
      model: MODEL,
      client: client(),
      systemPrompt: "Root.",
      handoffs: [billing()],
      historyStore: createMemoryStore(),
    });
    const first = await agent.prompt("Is invoice A7 paid?");
    const second = await agent.prompt("And A8?");
    expect(agent.activeAgent).toBe("billing");

    const afterHandoff = await agent.fork({ at: second.checkpoint_id!, store: createMemoryStore() });
    expect(afterHandoff.activeAgent).toBe("billing");
    expect((await afterHandoff.prompt("Forked question")).result).toBe("Fork answered by billing.");
    expect(systemOf(bodies().at(-1)!)).toBe("You are the billing specialist.");

    const beforeHandoff = await agent.fork({ at: first.checkpoint_id!, store: createMemoryStore() });
    expect(beforeHandoff.activeAgent).toBe("main");
    expect((await beforeHandoff.prompt("Another start")).result).toBe("Fork answered by the root.");
    expect(systemOf(bodies().at(-1)!)).toBe("Root.");
    // The original goes on with the specialist, untouched by its forks.
    expect(agent.activeAgent).toBe("billing");
    expect(isWellFormedHistory(await afterHandoff.getHistory())).toBe(true);
    await Promise.all([agent.close(), afterHandoff.close(), beforeHandoff.close()]);
  });

  it('history "none" sends the specialist the prompt and what followed the handoff; stored history keeps all', async () => {
    server.enqueue(
      { content: "Hello, how can I help?" },
      { content: [toolUse("h1", "transfer_to_billing")] },
      { content: "Billing here." },
      { content: "Still billing." },
    );
    const agent = createAgent({ model: MODEL, client: client(), handoffs: [billing("none")] });
    await agent.prompt("hi, secret earlier context");
    await agent.prompt("my invoice please");
    await agent.prompt("thanks");
    const [, , specialist, next] = bodies();
    // The prompt of the handoff's turn, the transfer call and its result.
    expect(specialist!.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(specialist!.messages[0]).toMatchObject({ role: "user", content: "my invoice please" });
    expect(JSON.stringify(specialist!.messages[1])).toContain("transfer_to_billing");
    expect(JSON.stringify(next!.messages)).not.toContain("secret earlier context");
    expect(next!.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
    expect(isWellFormedHistory(next!.messages)).toBe(true);
    expect(await agent.getHistory()).toHaveLength(8);
  });

  it('history "summary" opens with a transcript of what came before', async () => {
    server.enqueue(
      { content: "Earlier answer." },
      { content: [toolUse("h1", "transfer_to_billing")] },
      { content: "Billing." },
    );
    const agent = createAgent({ model: MODEL, client: client(), handoffs: [billing("summary")] });
    await agent.prompt("remember the code word PELICAN");
    await agent.prompt("invoice question");
    const sent = bodies()[2]!.messages;
    expect(sent.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(JSON.stringify(sent[0])).toContain("PELICAN");
    expect(JSON.stringify(sent)).toContain("invoice question");
    expect(isWellFormedHistory(sent)).toBe(true);
  });

  it("a history naming an agent this one lacks is an InvalidOptionError at prompt()", async () => {
    server.enqueue({ content: [toolUse("h1", "transfer_to_billing")] }, { content: "Billing." });
    const store = createMemoryStore();
    const agent = createAgent({ model: MODEL, client: client(), handoffs: [billing()], historyStore: store });
    await agent.prompt("invoice");
    const other = createAgent({
      model: MODEL,
      client: client(),
      historyStore: store,
      handoffs: [defineHandoff({ name: "tech", description: "Technical questions." })],
    });
    await expect(other.prompt("again")).rejects.toThrow(InvalidOptionError);
    await expect(other.prompt("again")).rejects.toThrow(/"billing".*main, tech/);
    expect(bodies()).toHaveLength(2);
  });

  it("two different handoffs of one name, or one named like the agent, are refused at creation", () => {
    const a = defineHandoff({ name: "x", description: "a" });
    const b = defineHandoff({ name: "x", description: "b" });
    expect(() => createAgent({ model: MODEL, client: client(), handoffs: [a, b] })).toThrow(
      InvalidOptionError,
    );
    expect(() => createAgent({ model: MODEL, client: client(), name: "x", handoffs: [a] })).toThrow(
      /own name/,
    );
    expect(() => defineHandoff({ name: "bad name", description: "d" })).toThrow(InvalidOptionError);
    expect(() => createAgent({ model: MODEL, client: client(), handoffs: [{} as never] })).toThrow(
      /defineHandoff/,
    );
  });
});
