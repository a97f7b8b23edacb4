/**
 * Streaming tool execution for MCP tools of an agent that pauses for input: a read-only MCP tool
 * (the server's `readOnlyHint`) starts while the model's response still streams, against a real
 * server over stdio (test/fixtures/mcp/questions-server.mjs with QUESTIONS_READ_ONLY). The scripted
 * stream holds after the tool_use block until the server has logged the call — or 20 s: a call
 * that waits for the whole response is seen to start only after the hold. A question asked by a
 * call started early is answered by `onElicitation`, or pauses the query durably like any other
 * (`requires_input`), and another Agent over the same file answers it.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createAgent } from "../../../src/agent/create-agent";
import type { AgentOptions } from "../../../src/agent/options";
import { createJsonlHistoryStore } from "../../../src/history/jsonl";
import type { McpServerConfig } from "../../../src/integrations/mcp/config";
import type { ToolResultBlock } from "../../../src/messages/types";
import { createScriptedClient, type ScriptedStep } from "../../../src/testing/scripted-client";
import { expectWellFormed } from "../../loop/support";

const SERVER = fileURLToPath(new URL("../../fixtures/mcp/questions-server.mjs", import.meta.url));
/** How long the stream holds at most: far longer than a call takes to reach a local server. */
const HOLD_MS = 20_000;

let folder = "";
let runs = 0;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "mcp-early-"));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((agent) => agent.close()));
});

interface Setup {
  path: string;
  log: string;
  server: McpServerConfig;
}

function newSetup(readOnly: boolean): Setup {
  runs++;
  const log = join(folder, `calls-${runs}.jsonl`);
  const env: Record<string, string> = { QUESTIONS_LOG: log };
  if (readOnly) env.QUESTIONS_READ_ONLY = "1";
  return {
    path: join(folder, `conversation-${runs}.jsonl`),
    log,
    server: { type: "stdio", command: process.execPath, args: [SERVER], env },
  };
}

async function callsLogged(setup: Setup): Promise<number> {
  const text = await readFile(setup.log, "utf8").catch(() => "");
  return text.split("\n").filter((line) => line.includes('"tool"')).length;
}

/** Settles `{ started: true }` once the server logged a call, `{ started: false }` after HOLD_MS. */
function serverCallSeen(setup: Setup): { seen: Promise<void>; result: { started: boolean | undefined } } {
  const result: { started: boolean | undefined } = { started: undefined };
  const seen = new Promise<void>((resolve) => {
    const deadline = Date.now() + HOLD_MS;
    const poll = async () => {
      if ((await callsLogged(setup)) > 0) {
        result.started = true;
        return resolve();
      }
      if (Date.now() > deadline) {
        result.started = false;
        return resolve();
      }
      setTimeout(poll, 20);
    };
    void poll();
  });
  return { seen, result };
}

/** One response: a `greet` call, then text; the stream holds after the call's block until `until`. */
function greetThenText(until: Promise<void>): ScriptedStep {
  return {
    content: [
      { type: "tool_use", id: "toolu_1", name: "mcp__questions__greet", input: { greeting: "Hi" } },
      { type: "text", text: "Asking the server." },
    ],
    pauseAfterBlock: { index: 0, until },
  };
}

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

function lastResults(model: ReturnType<typeof createScriptedClient>): ToolResultBlock[] {
  return model.requests.at(-1)!.messages.at(-1)!.content as ToolResultBlock[];
}

describe("MCP tools started while the response streams", () => {
  it("a read-only MCP tool starts before the response ends; onElicitation answers its question", async () => {
    const setup = newSetup(true);
    const hold = serverCallSeen(setup);
    const { agent, model } = agentOver(setup, [greetThenText(hold.seen), { content: "Greeted." }], {
      onElicitation: async () => ({ action: "accept", content: { name: "Ada" } }),
    });
    const result = await agent.prompt("greet me");
    expect(hold.result.started).toBe(true);
    expect(result).toMatchObject({ subtype: "success", result: "Greeted." });
    expect(lastResults(model)[0]).toMatchObject({
      tool_use_id: "toolu_1",
      content: [{ type: "text", text: "Hi, Ada (newsletter: false)" }],
    });
    expect(await callsLogged(setup)).toBe(1);
    expectWellFormed(await agent.getHistory());
  }, 60_000);

  it("a tool without readOnlyHint waits for the whole response (the hold runs out first)", async () => {
    const setup = newSetup(false);
    const hold = serverCallSeen(setup);
    const { agent } = agentOver(setup, [greetThenText(hold.seen), { content: "Greeted." }], {
      onElicitation: async () => ({ action: "accept", content: { name: "Ada" } }),
    });
    const result = await agent.prompt("greet me");
    expect(hold.result.started).toBe(false);
    expect(result.subtype).toBe("success");
    expect(await callsLogged(setup)).toBe(1);
  }, 60_000);

  it("a question of a call started early pauses the query durably; another Agent answers it", async () => {
    const setup = newSetup(true);
    const hold = serverCallSeen(setup);
    const first = agentOver(setup, [greetThenText(hold.seen)]);
    const paused = await first.agent.prompt("greet me");
    expect(hold.result.started).toBe(true);
    expect(paused).toMatchObject({ subtype: "requires_input", is_error: false });
    expect(paused.pending_inputs).toEqual([
      expect.objectContaining({
        id: "toolu_1/input-1",
        server: "questions",
        message: "What is your name?",
        tool_use_id: "toolu_1",
      }),
    ]);
    const stored = await first.agent.getHistory();
    // The assistant message with the call is in history before the pause marker.
    expect(stored.at(-2)).toMatchObject({ role: "assistant" });
    expect(stored.at(-1)).toMatchObject({ role: "user", pending_inputs: paused.pending_inputs });
    await first.agent.close();

    const second = agentOver(setup, [{ content: "Greeted." }]);
    const done = await second.agent.prompt({
      inputs: { "toolu_1/input-1": { action: "accept", content: { name: "Grace" } } },
    });
    expect(done).toMatchObject({ subtype: "success", result: "Greeted." });
    expect(lastResults(second.model)[0]).toMatchObject({
      tool_use_id: "toolu_1",
      content: [{ type: "text", text: "Hi, Grace (newsletter: false)" }],
    });
    expectWellFormed(await second.agent.getHistory());
    // Issued twice: the early call was told cancel when it paused, the answered one completed.
    expect(await callsLogged(setup)).toBe(2);
  }, 60_000);
});
