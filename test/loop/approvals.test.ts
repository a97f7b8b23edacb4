/**
 * Approvals: a batch with a call that needs a person's decision pauses (no call of it runs, the
 * query ends `requires_approval`), the pause is stored in history, and `prompt({ approvals })`
 * resumes it — in this Agent or another one over the same store.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type ApprovalDecisions,
  createAgent,
  defineTool,
  InvalidOptionError,
  type Tool,
} from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { createMemoryStore, expectWellFormed, MODEL, resultText, toolResults, toolUse } from "./support";

function toolsWithLog() {
  const ran: string[] = [];
  const deploy = defineTool({
    name: "deploy",
    inputSchema: z.object({ target: z.enum(["staging", "production"]) }),
    needsApproval: true,
    execute: ({ target }) => {
      ran.push(`deploy ${target}`);
      return `deployed to ${target}`;
    },
  });
  const read = defineTool({
    name: "read",
    readOnly: true,
    inputSchema: z.object({ path: z.string() }),
    execute: ({ path }) => {
      ran.push(`read ${path}`);
      return `contents of ${path}`;
    },
  });
  const write = defineTool({
    name: "write",
    inputSchema: z.object({ path: z.string() }),
    execute: ({ path }) => {
      ran.push(`write ${path}`);
      return `wrote ${path}`;
    },
  });
  return { ran, tools: [deploy, read, write] as Tool[] };
}

const BATCH = [
  toolUse("r1", "read", { path: "notes" }),
  toolUse("d1", "deploy", { target: "production" }),
  toolUse("w1", "write", { path: "log" }),
];

async function paused(options: { store?: ReturnType<typeof createMemoryStore> } = {}) {
  const { ran, tools } = toolsWithLog();
  const store = options.store ?? createMemoryStore();
  const client = createScriptedClient([
    {
      content: [{ type: "text", text: "Deploying now." }, ...BATCH],
      usage: { input_tokens: 40, output_tokens: 12 },
    },
    { content: "All done." },
  ]);
  const agent = createAgent({ model: MODEL, client, tools, historyStore: store });
  const result = await agent.prompt("Deploy the release to production.");
  return { agent, client, store, ran, tools, result };
}

describe("a batch with a call that needs approval pauses", () => {
  it("runs no call of the batch and ends requires_approval with the pending calls", async () => {
    const { agent, ran, result, store } = await paused();
    expect(ran).toEqual([]);
    expect(result.subtype).toBe("requires_approval");
    expect(result.is_error).toBe(false);
    expect(result.pending_approvals).toEqual([
      { tool_use_id: "d1", name: "deploy", input: { target: "production" } },
    ]);
    expect(result.num_turns).toBe(1);
    expect(result.usage).toMatchObject({ input_tokens: 40, output_tokens: 12 });
    expect(result.total_cost_usd).toBeGreaterThan(0);
    expect(result.result).toBe("Deploying now.");
    expect(await agent.getPendingApprovals()).toEqual(result.pending_approvals);
    // Stored: the assistant message with its calls unanswered, then the marker.
    expect(store.saved.length).toBe(3);
    expect(toolResults(store.saved)).toEqual([]);
    expect(store.saved[2]).toMatchObject({ role: "user", pending_approvals: result.pending_approvals });
  });

  it("resumes with decisions: approved calls run with updatedInput, denied ones carry the message", async () => {
    const { agent, client, ran, store } = await paused();
    const next = await agent.prompt({
      approvals: { d1: { approved: true, updatedInput: { target: "staging" } } },
    });
    expect(next.subtype).toBe("success");
    expect(next.result).toBe("All done.");
    expect(next.num_turns).toBe(1);
    expect(ran).toEqual(["read notes", "deploy staging", "write log"]);
    const history = await agent.getHistory();
    expectWellFormed(history);
    expect(toolResults(history).map((block) => [block.tool_use_id, resultText(block)])).toEqual([
      ["r1", "contents of notes"],
      ["d1", "deployed to staging"],
      ["w1", "wrote log"],
    ]);
    // The marker never reaches the model, nor stays in the store.
    const request = client.requests[1]!;
    expect(request.messages.some((message) => "pending_approvals" in message)).toBe(false);
    expect(store.saved).toEqual(history);
    expect(await agent.getPendingApprovals()).toEqual([]);
  });

  it("a denied call gets an error result with the message; the batch's other calls run", async () => {
    const { agent, ran } = await paused();
    const next = await agent.prompt({ approvals: { d1: { approved: false, message: "Not on a Friday." } } });
    expect(next.subtype).toBe("success");
    expect(ran).toEqual(["read notes", "write log"]);
    const denied = toolResults(await agent.getHistory()).find((block) => block.tool_use_id === "d1")!;
    expect(denied.is_error).toBe(true);
    expect(resultText(denied)).toContain("Not on a Friday.");
    expect(next.permission_denials).toMatchObject([{ tool_use_id: "d1", source: "approval" }]);
  });

  it("an updatedInput the schema refuses is an error result, not a run", async () => {
    const { agent, ran } = await paused();
    await agent.prompt({ approvals: { d1: { approved: true, updatedInput: { target: "moon" } } } });
    expect(ran).toEqual(["read notes", "write log"]);
    const block = toolResults(await agent.getHistory()).find((result) => result.tool_use_id === "d1")!;
    expect(block.is_error).toBe(true);
  });

  it.each<[string, ApprovalDecisions]>([
    ["an unknown id", { d1: { approved: true }, nope: { approved: true } }],
    ["a missing decision", {}],
    ["a malformed decision", { d1: { approved: "yes" } as never }],
  ])("refuses %s with InvalidOptionError and changes nothing", async (_, approvals) => {
    const { agent, ran, store } = await paused();
    const before = structuredClone(store.saved);
    await expect(agent.prompt({ approvals })).rejects.toBeInstanceOf(InvalidOptionError);
    expect(store.saved).toEqual(before);
    expect(ran).toEqual([]);
    expect(await agent.getPendingApprovals()).toHaveLength(1);
    // The conversation is free again and the pause still resumes.
    expect((await agent.prompt({ approvals: { d1: { approved: true } } })).subtype).toBe("success");
  });

  it("refuses decisions when nothing is pending", async () => {
    const client = createScriptedClient([{ content: "hello" }]);
    const agent = createAgent({ model: MODEL, client });
    await agent.prompt("hi");
    await expect(agent.prompt({ approvals: { x: { approved: true } } })).rejects.toBeInstanceOf(
      InvalidOptionError,
    );
    expect(await agent.getHistory()).toHaveLength(2);
  });

  it("a plain prompt while calls are pending answers them as denied and goes on", async () => {
    const { agent, client, ran } = await paused();
    client.push({ content: "OK, not deploying." });
    const next = await agent.prompt("Actually, never mind.");
    expect(next.subtype).toBe("success");
    expect(ran).toEqual([]);
    const history = await agent.getHistory();
    expectWellFormed(history);
    const results = toolResults(history);
    expect(results.map((block) => block.tool_use_id)).toEqual(["r1", "d1", "w1"]);
    for (const block of results) {
      expect(block.is_error).toBe(true);
      expect(resultText(block)).toContain("the user sent a new message instead");
    }
    expect(history.at(-2)).toEqual({ role: "user", content: "Actually, never mind." });
  });

  it("another Agent over the same store sees the pause and resumes it", async () => {
    const { store, agent: first } = await paused();
    await first.close();
    const { ran, tools } = toolsWithLog();
    const client = createScriptedClient([{ content: "Resumed elsewhere." }]);
    const second = createAgent({ model: MODEL, client, tools, historyStore: store });
    expect(await second.getPendingApprovals()).toEqual([
      { tool_use_id: "d1", name: "deploy", input: { target: "production" } },
    ]);
    const result = await second.prompt({ approvals: { d1: { approved: true } } });
    expect(result.subtype).toBe("success");
    expect(ran).toEqual(["read notes", "deploy production", "write log"]);
  });

  it("query() and streamInput() take { approvals } too", async () => {
    const { agent } = await paused();
    const kinds: string[] = [];
    for await (const message of agent.query({ approvals: { d1: { approved: true } } }))
      kinds.push(message.type);
    expect(kinds).toEqual(["system", "user", "assistant", "result"]);

    const again = await paused();
    const results: string[] = [];
    for await (const message of again.agent.streamInput([{ approvals: { d1: { approved: false } } }]))
      if (message.type === "result") results.push(message.subtype);
    expect(results).toEqual(["success"]);
  });
});

describe("what asks for approval, and in which order", () => {
  const dangerous = (execute: () => string) =>
    defineTool({ name: "send", inputSchema: z.object({ to: z.string() }), execute });

  it("needsApproval as a function of the validated input", async () => {
    const tool = defineTool({
      name: "pay",
      inputSchema: z.object({ amount: z.number() }),
      needsApproval: ({ amount }) => amount > 100,
      execute: ({ amount }) => `paid ${amount}`,
    });
    const client = createScriptedClient([
      { content: [toolUse("small", "pay", { amount: 5 }), toolUse("big", "pay", { amount: 500 })] },
    ]);
    const agent = createAgent({ model: MODEL, client, tools: [tool] });
    const result = await agent.prompt("pay");
    expect(result.pending_approvals?.map((call) => call.tool_use_id)).toEqual(["big"]);
  });

  it("a call that did not ask at the pause but asks when its batch resumes is not run: an error result says so", async () => {
    const paid: number[] = [];
    let limit = 100; // the policy tightens between the pause and the resume
    const tool = defineTool({
      name: "pay",
      inputSchema: z.object({ amount: z.number() }),
      needsApproval: ({ amount }) => amount > limit,
      execute: ({ amount }) => {
        paid.push(amount);
        return `paid ${amount}`;
      },
    });
    const client = createScriptedClient([
      { content: [toolUse("small", "pay", { amount: 5 }), toolUse("big", "pay", { amount: 500 })] },
      { content: "Paid what I could." },
    ]);
    const agent = createAgent({ model: MODEL, client, tools: [tool] });
    expect((await agent.prompt("pay")).pending_approvals?.map((call) => call.tool_use_id)).toEqual(["big"]);
    limit = 1;
    const next = await agent.prompt({ approvals: { big: { approved: true } } });
    expect(next.subtype).toBe("success");
    expect(paid).toEqual([500]);
    const history = await agent.getHistory();
    expectWellFormed(history);
    const small = toolResults(history).find((block) => block.tool_use_id === "small")!;
    expect(small.is_error).toBe(true);
    expect(resultText(small)).toContain(
      'The call to "pay" asked for approval after its batch was resumed; it was not run.',
    );
    expect(next.permission_denials).toMatchObject([{ tool_use_id: "small", source: "approval" }]);
    expect(await agent.getPendingApprovals()).toEqual([]);
  });

  it('canUseTool answering { behavior: "ask", message } pauses with the message', async () => {
    const client = createScriptedClient([{ content: [toolUse("s1", "send", { to: "all" })] }]);
    const agent = createAgent({
      model: MODEL,
      client,
      tools: [dangerous(() => "sent")],
      canUseTool: () => ({ behavior: "ask", message: "Mail everyone?" }),
    });
    const result = await agent.prompt("mail");
    expect(result.pending_approvals).toEqual([
      { tool_use_id: "s1", name: "send", input: { to: "all" }, message: "Mail everyone?" },
    ]);
  });

  it("askBeforeWrites asks for every call that is not read-only or allowed", async () => {
    const { tools } = toolsWithLog();
    const client = createScriptedClient([{ content: BATCH }]);
    const agent = createAgent({
      model: MODEL,
      client,
      tools,
      permissionMode: "askBeforeWrites",
      allowedTools: ["write"],
    });
    const result = await agent.prompt("go");
    expect(result.pending_approvals?.map((call) => call.tool_use_id)).toEqual(["d1"]);
    const second = createAgent({
      model: MODEL,
      client: createScriptedClient([{ content: BATCH }]),
      tools,
      permissionMode: "askBeforeWrites",
    });
    expect((await second.prompt("go")).pending_approvals?.map((call) => call.tool_use_id)).toEqual([
      "d1",
      "w1",
    ]);
  });

  it("a call a preToolUse hook blocks is not asked about; a hook's updatedInput is what is shown", async () => {
    const { tools } = toolsWithLog();
    const client = createScriptedClient([{ content: BATCH }]);
    const agent = createAgent({
      model: MODEL,
      client,
      tools,
      permissionMode: "askBeforeWrites",
      hooks: {
        preToolUse: [
          { matcher: "write", handler: () => ({ block: true, message: "no writes" }) },
          { matcher: "deploy", handler: () => ({ updatedInput: { target: "staging" } }) },
        ],
      },
    });
    const result = await agent.prompt("go");
    expect(result.pending_approvals).toEqual([
      { tool_use_id: "d1", name: "deploy", input: { target: "staging" } },
    ]);
  });
});
