import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type Agent,
  type AgentOptions,
  createAgent,
  createJsonlHistoryStore,
  defineTool,
} from "../../src/index";
import { createScriptedClient, type ScriptedStep } from "../../src/testing/index";
import {
  collect,
  createMemoryStore,
  deferred,
  expectWellFormed,
  kinds,
  lastResult,
  MODEL,
  toolUse,
} from "../loop/support";
import { temporaryFolder } from "../support/temporary-folders";

const noteTool = defineTool({
  name: "note",
  inputSchema: z.object({ text: z.string() }),
  execute: ({ text }) => `noted ${text}`,
});

describe("getHistory()", () => {
  it("returns a deep copy: mutating it changes neither the agent nor the next request", async () => {
    const client = createScriptedClient([
      { content: [toolUse("t1", "note", { text: "a" })] },
      { content: "first" },
      { content: "second" },
    ]);
    const agent = createAgent({ model: MODEL, client, tools: [noteTool] });
    await agent.prompt("one");

    const copy = await agent.getHistory();
    const pristine = structuredClone(copy);
    copy.push({ role: "user", content: "injected" });
    (copy[0] as { content: string }).content = "rewritten";
    const call = copy[1]!.content[0] as { input: { text: string } };
    call.input.text = "tampered";

    expect(await agent.getHistory()).toEqual(pristine);
    await agent.prompt("two");
    expect(client.requests[2]?.messages.slice(0, 4)).toEqual(pristine);
  });

  it("keeps a prompt's content blocks as given: the caller reusing or editing them later changes nothing", async () => {
    const client = createScriptedClient([{ content: "first" }, { content: "second" }]);
    const agent = createAgent({ model: MODEL, client });
    const blocks = [{ type: "text" as const, text: "What is in this picture?" }];
    await agent.prompt(blocks);
    const pristine = await agent.getHistory();

    blocks[0]!.text = "edited after the prompt";
    expect(await agent.getHistory()).toEqual(pristine);
    await agent.prompt("two");
    expect(client.requests[1]?.messages.slice(0, 2)).toEqual(pristine);
    expect(client.requests[0]?.messages).toEqual(pristine.slice(0, 1));
  });

  it("keeps a userPromptSubmit hook's updatedPrompt blocks as returned, whatever the hook does with them later", async () => {
    const kept = [{ type: "text" as const, text: "rewritten by the hook" }];
    const client = createScriptedClient([{ content: "first" }]);
    const agent = createAgent({
      model: MODEL,
      client,
      hooks: { userPromptSubmit: [{ handler: () => ({ updatedPrompt: kept }) }] },
    });
    await agent.prompt("one");
    kept[0]!.text = "edited after the query";
    expect((await agent.getHistory())[0]).toEqual({
      role: "user",
      content: [{ type: "text", text: "rewritten by the hook" }],
    });
  });

  it("is empty before the first query and loads the store lazily", async () => {
    const store = createMemoryStore([
      { role: "user", content: "earlier" },
      { role: "assistant", content: [{ type: "text", text: "earlier answer" }] },
    ]);
    const client = createScriptedClient([{ content: "continued" }]);
    const agent = createAgent({ model: MODEL, client, historyStore: store });

    expect(await agent.getHistory()).toHaveLength(2);
    await agent.prompt("next");

    expect(client.requests[0]?.messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "user",
    ]);
    expect(await agent.getHistory()).toEqual(store.saved);
  });
});

describe("assistant message metadata", () => {
  it("carries providerResponseId and the model that actually served the response", async () => {
    const client = createScriptedClient([
      {
        content: "hi",
        id: "msg_provider_42",
        model: "claude-sonnet-4-6-20260101",
        usage: { input_tokens: 1, output_tokens: 1 },
      },
    ]);
    const agent = createAgent({ model: MODEL, client });
    const yielded: unknown[] = [];

    for await (const message of agent.query("hello"))
      if (message.type === "assistant") yielded.push(message.message);

    const history = await agent.getHistory();
    expect(history[1]).toMatchObject({
      role: "assistant",
      providerResponseId: "msg_provider_42",
      model: "claude-sonnet-4-6-20260101",
      stop_reason: "end_turn",
      usage: { input_tokens: 1, output_tokens: 1 },
    });
    expect(yielded).toEqual([history[1]]);
  });

  it("leaves them absent when a client does not report them", async () => {
    const agent = createAgent({
      model: MODEL,
      client: {
        createMessage: async () => ({ role: "assistant", content: [{ type: "text", text: "bare" }] }),
      },
    });

    await agent.prompt("hello");

    const assistant = (await agent.getHistory())[1]!;
    expect(assistant).not.toHaveProperty("providerResponseId");
    expect(assistant).not.toHaveProperty("model");
  });
});

describe("history stores", () => {
  it("a JSONL store holds what memory holds, and a new Agent over it resumes the conversation", async () => {
    const directory = temporaryFolder("agent-lattice-history-");
    const path = join(directory, "conversation.jsonl");
    const client = createScriptedClient([
      { content: [toolUse("t1", "note", { text: "x" })] },
      { content: "stored", id: "msg_1" },
      { content: "resumed" },
    ]);
    const agent = createAgent({
      model: MODEL,
      client,
      tools: [noteTool],
      historyStore: createJsonlHistoryStore({ path }),
    });
    await agent.prompt("remember x");
    const memory = await agent.getHistory();
    expectWellFormed(memory);

    const reloaded = await createJsonlHistoryStore({ path }).load();
    expect(reloaded).toEqual(memory);

    const resumed = createAgent({ model: MODEL, client, historyStore: createJsonlHistoryStore({ path }) });
    expect((await resumed.prompt("what did I say?")).result).toBe("resumed");
    expect(client.requests[2]?.messages).toEqual([...memory, { role: "user", content: "what did I say?" }]);
  });
});

describe("after every ending, history is well-formed and the store agrees with memory", () => {
  /** Resolved when the slow tool starts: the moment the abort and interrupt endings cancel it. */
  let slowStarted = deferred();
  const slowTool = defineTool({
    name: "slow",
    inputSchema: z.object({}),
    execute: async (_input, context) => {
      slowStarted.resolve();
      await new Promise((resolve) => setTimeout(resolve, 30));
      return context.signal.aborted ? "saw abort" : "slow done";
    },
  });
  const finisher = defineTool({
    name: "finish",
    inputSchema: z.object({}),
    execute: () => ({ content: "finished by tool", endTurn: true }),
  });

  type Ending = {
    name: string;
    subtype: string;
    steps: ScriptedStep[];
    options?: Partial<AgentOptions>;
    /** Runs the query its own way; returns the result subtype ("none" when the consumer left early). */
    drive?: (agent: Agent) => Promise<string>;
  };
  const withTool: ScriptedStep = { content: [toolUse("t1", "note", { text: "x" })] };
  const endings: Ending[] = [
    { name: "success", subtype: "success", steps: [withTool, { content: "done" }] },
    { name: "endTurn", subtype: "success", steps: [{ content: [toolUse("t1", "finish")] }] },
    {
      name: "max turns",
      subtype: "error_max_turns",
      steps: [withTool, { content: [toolUse("t2", "note", { text: "y" })] }],
      options: { maxTurns: 2 },
    },
    {
      name: "missing output",
      subtype: "error_missing_output",
      steps: [withTool, { content: "no submission" }],
      options: { outputSchema: z.object({ n: z.number() }) },
    },
    {
      name: "provider error",
      subtype: "error_during_execution",
      steps: [withTool, new Error("invalid_request_error: malformed")],
    },
    {
      name: "timeout",
      subtype: "error_timeout",
      steps: [withTool, { content: "late", hang: true }],
      options: { requestTimeoutMs: 20 },
    },
    {
      name: "abort during a tool",
      subtype: "error_abort",
      steps: [{ content: [toolUse("t1", "slow"), toolUse("t2", "note", { text: "z" })] }],
      drive: async (agent) => {
        const controller = new AbortController();
        slowStarted = deferred();
        const pending = agent.prompt("go", { signal: controller.signal });
        await slowStarted.promise;
        controller.abort();
        return (await pending).subtype;
      },
    },
    {
      name: "interrupt during a tool",
      subtype: "interrupted",
      steps: [{ content: [toolUse("t1", "slow")] }],
      drive: async (agent) => {
        slowStarted = deferred();
        const pending = agent.prompt("go");
        await slowStarted.promise;
        agent.interrupt();
        return (await pending).subtype;
      },
    },
    {
      name: "break after a tool call",
      subtype: "none",
      steps: [withTool],
      drive: async (agent) => {
        for await (const message of agent.query("go")) if (message.type === "assistant") break;
        return "none";
      },
    },
  ];

  it.each(endings)("$name", async ({ subtype, steps, options, drive }) => {
    const directory = temporaryFolder("agent-lattice-endings-");
    const path = join(directory, "conversation.jsonl");
    const client = createScriptedClient(steps);
    const agent = createAgent({
      model: MODEL,
      client,
      tools: [noteTool, slowTool, finisher],
      historyStore: createJsonlHistoryStore({ path }),
      ...options,
    });

    const seen = drive ? await drive(agent) : (await agent.prompt("go")).subtype;

    expect(seen).toBe(subtype);
    const memory = await agent.getHistory();
    expectWellFormed(memory);
    expect(await createJsonlHistoryStore({ path }).load()).toEqual(memory);
  });
});

describe("a history whose last message has calls without results", () => {
  it("replaceHistory accepts it as given; the next prompt answers those calls before itself", async () => {
    const client = createScriptedClient([{ content: "Starting over." }]);
    const agent = createAgent({ model: MODEL, client });
    const imported = [
      { role: "user" as const, content: "Deploy it." },
      { role: "assistant" as const, content: [toolUse("d1", "deploy", { env: "prod" })] },
    ];
    await agent.replaceHistory(imported);
    expect(await agent.getHistory()).toEqual(imported);

    const result = await agent.prompt("Never mind, just summarise.");

    expect(result.subtype).toBe("success");
    const sent = client.requests[0]!.messages;
    expectWellFormed(sent);
    expect(sent.slice(2)).toEqual([
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "d1",
            content: 'The call to "deploy" has no result: the conversation went on without it.',
            is_error: true,
          },
        ],
      },
      { role: "user", content: "Never mind, just summarise." },
    ]);
  });
});

describe("what the provider would refuse to be sent again stays out of history", () => {
  it("an empty response is not recorded (nor yielded): the next prompt's request holds no empty message", async () => {
    const store = createMemoryStore();
    const client = createScriptedClient([{ content: [] }, { content: "Back again." }]);
    const agent = createAgent({ model: MODEL, client, historyStore: store });

    const messages = await collect(agent.query("Hello"));
    const result = lastResult(messages);
    expect(result.subtype).toBe("success");
    expect(result.result).toBe("");
    expect(result.num_turns).toBe(1);
    expect(kinds(messages)).toEqual(["system:init", "result:success"]);
    expect(await agent.getHistory()).toEqual([{ role: "user", content: "Hello" }]);

    expect((await agent.prompt("Are you there?")).result).toBe("Back again.");
    for (const message of client.requests[1]!.messages) expect(message.content.length).toBeGreaterThan(0);
    expect(store.saved).toEqual(await agent.getHistory());
  });

  it("blank text blocks are dropped from a response; its other blocks are recorded", async () => {
    const client = createScriptedClient([
      {
        content: [
          { type: "text", text: "" },
          toolUse("t1", "note", { text: "a" }),
          { type: "text", text: " \n" },
        ],
      },
      { content: "Done." },
    ]);
    const agent = createAgent({ model: MODEL, client, tools: [noteTool] });

    const messages = await collect(agent.query("Note a."));

    const first = messages.find((message) => message.type === "assistant");
    expect(first?.type === "assistant" && first.message.content).toEqual([
      toolUse("t1", "note", { text: "a" }),
    ]);
    const history = await agent.getHistory();
    expect(history[1]).toMatchObject({ role: "assistant", content: [toolUse("t1", "note", { text: "a" })] });
    expect(client.requests[1]!.messages[1]!.content).toEqual([toolUse("t1", "note", { text: "a" })]);
    expectWellFormed(history);
  });
});
