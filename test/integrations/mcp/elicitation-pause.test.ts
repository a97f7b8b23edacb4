/**
 * Elicitation as a durable pause, against a real MCP server over stdio and Streamable HTTP
 * (test/fixtures/mcp/questions-server.mjs): without `onElicitation` (or when it returns "pause") a
 * server's question during a tool call ends the query `requires_input`; a second Agent over the
 * same JSONL file answers with `prompt({ inputs })`, the call is issued again and completes with
 * the server's real result. A question asked again that matches no answer pauses again (the
 * answers given so far carried over); URL mode; decline; a new prompt instead of answers; answers
 * that do not fit the pause are refused with nothing changed.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createAgent } from "../../../src/agent/create-agent";
import type { AgentOptions } from "../../../src/agent/options";
import { InvalidOptionError } from "../../../src/errors";
import { createJsonlHistoryStore } from "../../../src/history/jsonl";
import type { McpServerConfig } from "../../../src/integrations/mcp/config";
import type { ModelMessage, ToolResultBlock } from "../../../src/messages/types";
import { defineSubagent } from "../../../src/subagents/define-subagent";
import { createScriptedClient, type ScriptedStep } from "../../../src/testing/scripted-client";
import { expectWellFormed } from "../../loop/support";

const SERVER = fileURLToPath(new URL("../../fixtures/mcp/questions-server.mjs", import.meta.url));

let folder = "";
let runs = 0;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "elicit-pause-"));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

interface Setup {
  path: string;
  log: string;
  server: McpServerConfig;
}

function newSetup(): Setup {
  runs++;
  const log = join(folder, `calls-${runs}.jsonl`);
  return {
    path: join(folder, `conversation-${runs}.jsonl`),
    log,
    server: { type: "stdio", command: process.execPath, args: [SERVER], env: { QUESTIONS_LOG: log } },
  };
}

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((agent) => agent.close()));
});

function agentOver(setup: Setup, script: ScriptedStep[], options: Partial<AgentOptions<unknown>> = {}) {
  const model = createScriptedClient(script);
  const agent = createAgent({
    model: "claude-sonnet-4-6",
    client: model,
    mcpServers: { questions: setup.server },
    historyStore: createJsonlHistoryStore({ path: setup.path }),
    ...options,
  });
  opened.push(agent);
  return { agent, model };
}

function callOf(name: string, input: object = {}, id = "toolu_1"): ScriptedStep {
  return { content: [{ type: "tool_use", id, name: `mcp__questions__${name}`, input }] };
}

async function logged(setup: Setup): Promise<Array<Record<string, unknown>>> {
  const text = await readFile(setup.log, "utf8").catch(() => "");
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/** The tool_result blocks the model was sent last. */
function lastResults(model: ReturnType<typeof createScriptedClient>): ToolResultBlock[] {
  const messages = model.requests.at(-1)!.messages;
  return messages.at(-1)!.content as ToolResultBlock[];
}

const NAME_SCHEMA = {
  type: "object",
  properties: { name: { type: "string", title: "Name" }, newsletter: { type: "boolean", default: false } },
  required: ["name"],
};

describe("elicitation as a durable pause", () => {
  it("pauses requires_input, and another Agent over the same file answers: the call completes with the server's result", async () => {
    const setup = newSetup();
    const first = agentOver(setup, [callOf("greet", { greeting: "Hi" })]);
    const paused = await first.agent.prompt("greet me");
    expect(paused).toMatchObject({ subtype: "requires_input", is_error: false });
    expect(paused.pending_approvals).toBeUndefined();
    expect(paused.pending_inputs).toEqual([
      {
        id: "toolu_1/input-1",
        server: "questions",
        message: "What is your name?",
        mode: "form",
        requestedSchema: NAME_SCHEMA,
        tool_use_id: "toolu_1",
      },
    ]);
    const stored = await first.agent.getHistory();
    expect(stored.at(-1)).toMatchObject({
      role: "user",
      pending_approvals: [],
      pending_inputs: paused.pending_inputs,
    });
    expect(first.model.requests).toHaveLength(1);
    await first.agent.close();

    const second = agentOver(setup, [{ content: "Greeted." }]);
    expect(await second.agent.getPendingInputs()).toEqual(paused.pending_inputs);
    const done = await second.agent.prompt({
      inputs: { "toolu_1/input-1": { action: "accept", content: { name: "Grace" } } },
    });
    expect(done).toMatchObject({ subtype: "success", result: "Greeted." });
    expect(lastResults(second.model)).toEqual([
      expect.objectContaining({
        tool_use_id: "toolu_1",
        content: [{ type: "text", text: "Hi, Grace (newsletter: false)" }],
      }),
    ]);
    const history = await second.agent.getHistory();
    expectWellFormed(history);
    expect(history.some((message) => "pending_inputs" in message)).toBe(false);
    // The call was issued twice: the first run was told cancel, the second answered.
    expect((await logged(setup)).map((entry) => entry.tool)).toEqual(["greet", "greet"]);
    expect(await second.agent.getPendingInputs()).toEqual([]);
  });

  it("pauses again on a question that matches no answer, carrying the answers given so far", async () => {
    const setup = newSetup();
    const first = agentOver(setup, [callOf("signup")]);
    const paused = await first.agent.prompt("sign me up");
    expect(paused.pending_inputs?.map((input) => input.message)).toEqual(["What is your name?"]);
    await first.agent.close();

    const second = agentOver(setup, []);
    const again = await second.agent.prompt({
      inputs: { "toolu_1/input-1": { action: "accept", content: { name: "Grace" } } },
    });
    expect(again.subtype).toBe("requires_input");
    expect(again.pending_inputs).toEqual([
      expect.objectContaining({
        id: "toolu_1/input-2",
        message: "Which plan for Grace?",
        tool_use_id: "toolu_1",
      }),
    ]);
    const marker = (await second.agent.getHistory()).at(-1) as {
      suspended_calls?: Array<{ answered_inputs?: unknown[] }>;
    };
    expect(marker.suspended_calls?.[0]?.answered_inputs).toEqual([
      {
        input: expect.objectContaining({ id: "toolu_1/input-1" }),
        answer: { action: "accept", content: { name: "Grace" } },
      },
    ]);
    await second.agent.close();

    const third = agentOver(setup, [{ content: "Signed up." }]);
    const done = await third.agent.prompt({
      inputs: { "toolu_1/input-2": { action: "accept", content: { plan: "pro" } } },
    });
    expect(done.subtype).toBe("success");
    expect(lastResults(third.model)[0]?.content).toEqual([{ type: "text", text: "signed up Grace on pro" }]);
    const entries = await logged(setup);
    expect(entries.filter((entry) => entry.tool === "signup")).toHaveLength(3);
    expect(entries.filter((entry) => entry.effect === "signed up")).toEqual([
      { effect: "signed up", name: "Grace", plan: "pro" },
    ]);
    expectWellFormed(await third.agent.getHistory());
  });

  it("passes a URL-mode question on with its URL and id; accept answers it", async () => {
    const setup = newSetup();
    const first = agentOver(setup, [callOf("link"), { content: "Linked." }]);
    const paused = await first.agent.prompt("link my account");
    expect(paused.pending_inputs).toEqual([
      {
        id: "toolu_1/input-1",
        server: "questions",
        message: "Link your account",
        mode: "url",
        url: "https://accounts.example/link?state=abc",
        elicitationId: "link-42",
        tool_use_id: "toolu_1",
      },
    ]);
    // The same Agent resumes too.
    const done = await first.agent.prompt({ inputs: { "toolu_1/input-1": { action: "accept" } } });
    expect(done.subtype).toBe("success");
    expect(lastResults(first.model)[0]?.content).toEqual([{ type: "text", text: "link: accept" }]);
  });

  it("a declined question reaches the server: the call's result is the server's", async () => {
    const setup = newSetup();
    const { agent, model } = agentOver(setup, [callOf("greet"), { content: "ok" }]);
    await agent.prompt("greet me");
    await agent.prompt({ inputs: { "toolu_1/input-1": { action: "decline" } } });
    expect(lastResults(model)[0]).toMatchObject({
      is_error: true,
      content: [{ type: "text", text: "not greeted: decline" }],
    });
  });

  it("onElicitation returning 'pause' pauses; an answer from it does not", async () => {
    const setup = newSetup();
    const asked: string[] = [];
    const { agent, model } = agentOver(setup, [callOf("signup"), { content: "done" }], {
      onElicitation: async (request) => {
        asked.push(request.message);
        return request.message === "What is your name?"
          ? { action: "accept", content: { name: "Ada" } }
          : "pause";
      },
    });
    const paused = await agent.prompt("sign me up");
    expect(paused.pending_inputs?.map((input) => input.message)).toEqual(["Which plan for Ada?"]);
    const done = await agent.prompt({
      inputs: { [paused.pending_inputs![0]!.id]: { action: "accept", content: { plan: "free" } } },
    });
    expect(done.subtype).toBe("success");
    expect(lastResults(model)[0]?.content).toEqual([{ type: "text", text: "signed up Ada on free" }]);
    // On the second run the handler answered the name again; the plan came from the stored answer.
    expect(asked).toEqual(["What is your name?", "Which plan for Ada?", "What is your name?"]);
  });

  it("a new prompt instead of answers answers the waiting call as not finished", async () => {
    const setup = newSetup();
    const { agent, model } = agentOver(setup, [callOf("greet"), { content: "Something else." }]);
    await agent.prompt("greet me");
    const next = await agent.prompt("never mind");
    expect(next.subtype).toBe("success");
    const sent = model.requests.at(-1)!.messages as ModelMessage[];
    const results = sent.at(-2)!.content as ToolResultBlock[];
    expect(results[0]).toMatchObject({ tool_use_id: "toolu_1", is_error: true });
    expect(String(results[0]!.content)).toMatch(/waited for the user's answer to a question/);
    expectWellFormed(await agent.getHistory());
    expect((await logged(setup)).map((entry) => entry.tool)).toEqual(["greet"]);
  });

  it("refuses answers that do not fit the pause, changing nothing", async () => {
    const setup = newSetup();
    const { agent } = agentOver(setup, [callOf("greet")]);
    await agent.prompt("greet me");
    const before = await agent.getHistory();
    const wrong: unknown[] = [
      {},
      { inputs: {} },
      { inputs: { other: { action: "accept" } } },
      { inputs: { "toolu_1/input-1": { action: "maybe" } } },
      { inputs: { "toolu_1/input-1": { action: "accept", content: "Grace" } } },
      { approvals: {}, inputs: { "toolu_1/input-1": { action: "accept" } } },
    ];
    for (const input of wrong) {
      await expect(agent.prompt(input as never)).rejects.toBeInstanceOf(InvalidOptionError);
    }
    expect(await agent.getHistory()).toEqual(before);
    expect((await logged(setup)).map((entry) => entry.tool)).toEqual(["greet"]);
  });
});

describe("a question inside a subagent", () => {
  it("pauses the parent with the child's question, and the answer resumes the child's call", async () => {
    const setup = newSetup();
    const childModel = createScriptedClient([callOf("greet", {}, "toolu_c1"), { content: "Child greeted." }]);
    const greeter = defineSubagent({
      name: "greeter",
      description: "Greets the user",
      client: childModel,
      mcpServers: { questions: setup.server },
    });
    const { agent, model } = agentOver(
      setup,
      [
        { content: [{ type: "tool_use", id: "toolu_p1", name: "greeter", input: { prompt: "greet" } }] },
        { content: "Parent done." },
      ],
      { tools: [greeter] },
    );
    const paused = await agent.prompt("greet through the child");
    expect(paused.subtype).toBe("requires_input");
    expect(paused.pending_inputs).toEqual([
      expect.objectContaining({
        id: "toolu_c1/input-1",
        tool_use_id: "toolu_c1",
        parent_tool_use_id: "toolu_p1",
        agent: "greeter",
      }),
    ]);
    const done = await agent.prompt({
      inputs: { "toolu_c1/input-1": { action: "accept", content: { name: "Kai" } } },
    });
    expect(done).toMatchObject({ subtype: "success", result: "Parent done." });
    const childResults = childModel.requests.at(-1)!.messages.at(-1)!.content as ToolResultBlock[];
    expect(childResults[0]?.content).toEqual([{ type: "text", text: "Hello, Kai (newsletter: false)" }]);
    expect(lastResults(model)[0]?.content).toBe("Child greeted.");
    expectWellFormed(await agent.getHistory());
  });
});

describe("elicitation as a durable pause over Streamable HTTP", () => {
  let server: ChildProcess | undefined;
  let url = "";
  beforeAll(async () => {
    server = spawn(process.execPath, [SERVER, "http"], { stdio: ["ignore", "pipe", "inherit"] });
    const lines = createInterface({ input: server.stdout! });
    url = await new Promise<string>((resolve) =>
      lines.on("line", (line) => line.startsWith("url ") && resolve(line.slice(4))),
    );
  });
  afterAll(() => {
    server?.kill("SIGKILL");
  });

  it("pauses, and a second Agent (a new session) answers", async () => {
    const setup = { ...newSetup(), server: { type: "http" as const, url } };
    const first = agentOver(setup, [callOf("greet")]);
    const paused = await first.agent.prompt("greet me");
    expect(paused.subtype).toBe("requires_input");
    await first.agent.close();
    const second = agentOver(setup, [{ content: "ok" }]);
    await second.agent.prompt({
      inputs: { "toolu_1/input-1": { action: "accept", content: { name: "Lin" } } },
    });
    expect(lastResults(second.model)[0]?.content).toEqual([
      { type: "text", text: "Hello, Lin (newsletter: false)" },
    ]);
  });
});
