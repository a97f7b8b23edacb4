/**
 * Approvals and MCP questions in the same turn, against a real MCP server
 * (test/fixtures/mcp/questions-server.mjs over stdio), each step resumed by a fresh Agent over the
 * same SQLite file (as another process would):
 *
 * - A call needing approval beside an MCP call: the batch is checked whole before any call runs, so
 *   the query first ends `requires_approval` (the server never called); once approved, the approved
 *   call runs and the MCP call asks — `requires_input` with the question alone, the approved call's
 *   result kept in the pause — and the answer completes the turn. The approved call runs once.
 * - A subagent whose child waits for approval, running beside an MCP call that asks (both
 *   read-only, so they run together): one pause with both — subtype `requires_input`, with
 *   `pending_approvals` and `pending_inputs`. Answering only one is refused (InvalidOptionError),
 *   changing nothing: both stay pending, nothing runs. Both at once resume it: the child's call runs
 *   once, the server gets the answer once, and a second resume finds nothing pending.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createAgent } from "../../../src/agent/create-agent";
import { InvalidOptionError } from "../../../src/errors";
import type { McpServerConfig } from "../../../src/integrations/mcp/config";
import { createSqliteHistoryStore } from "../../../src/integrations/stores/sqlite";
import type { ModelMessage, ToolResultBlock } from "../../../src/messages/types";
import { defineSubagent } from "../../../src/subagents/define-subagent";
import { createScriptedClient, type ScriptedStep } from "../../../src/testing/scripted-client";
import { deployTool } from "../../fixtures/deploy-tool";
import { expectWellFormed } from "../../loop/support";
import { temporaryFolder } from "../../support/temporary-folders";

const SERVER = fileURLToPath(new URL("../../fixtures/mcp/questions-server.mjs", import.meta.url));
const QUESTION = {
  message: "Which team owns it?",
  requestedSchema: { type: "object", properties: { team: { type: "string" } }, required: ["team"] },
};
const ASK = { type: "tool_use" as const, id: "toolu_ask", name: "mcp__questions__ask", input: QUESTION };
const DEPLOY = { type: "tool_use" as const, id: "toolu_deploy", name: "deploy", input: { target: "prod" } };
const ANSWER = { "toolu_ask/input-1": { action: "accept" as const, content: { team: "ops" } } };

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((agent) => agent.close()));
});

/** A place for one conversation: its SQLite file, the server's log, the deploy tool's runs. */
function newPlace(readOnlyAsk = false) {
  const folder = temporaryFolder("elicit-approvals-");
  const log = join(folder, "calls.jsonl");
  const runs: string[] = [];
  const server: McpServerConfig = {
    type: "stdio",
    command: process.execPath,
    args: [SERVER],
    env: { QUESTIONS_LOG: log, ...(readOnlyAsk ? { QUESTIONS_READ_ONLY: "1" } : {}) },
  };
  const deploy = deployTool(runs);
  const history = () => createSqliteHistoryStore({ path: join(folder, "agents.db"), conversationId: "turn" });
  const answered = async () =>
    (await readFile(log, "utf8").catch(() => ""))
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { server, deploy, history, runs, answered };
}

type Place = ReturnType<typeof newPlace>;

/** A fresh Agent over the place's store (a new process would build the same). */
function agentOver(place: Place, script: ScriptedStep[], extra: { child?: ScriptedStep[] } = {}) {
  const model = createScriptedClient(script);
  const tools = extra.child
    ? [
        defineSubagent({
          name: "releaser",
          description: "Releases",
          readOnly: true,
          client: createScriptedClient(extra.child),
          tools: [place.deploy],
        }),
      ]
    : [place.deploy];
  const agent = createAgent({
    model: "claude-sonnet-4-6",
    client: model,
    tools,
    mcpServers: { questions: place.server },
    historyStore: place.history(),
  });
  opened.push(agent);
  return { agent, model };
}

function resultsSent(model: ReturnType<typeof createScriptedClient>): ToolResultBlock[] {
  const last = model.requests.at(-1)!.messages.at(-1)!;
  return (last.content as ToolResultBlock[]).filter((block) => block.type === "tool_result");
}

async function askRuns(place: Place) {
  return (await place.answered()).filter((entry) => entry.tool === "ask").length;
}

describe("a call needing approval beside an MCP call that asks", () => {
  it("pauses for the approval first, then for the question; the approved call runs once", async () => {
    const place = newPlace();
    const first = agentOver(place, [{ content: [DEPLOY, ASK] }]);
    const approval = await first.agent.prompt("deploy and set the owner");
    expect(approval.subtype).toBe("requires_approval");
    expect(approval.pending_approvals?.map((call) => call.tool_use_id)).toEqual(["toolu_deploy"]);
    expect(approval.pending_inputs).toBeUndefined();
    // The batch was checked whole before any call ran: the server was never called.
    expect(await askRuns(place)).toBe(0);
    await first.agent.close();

    const second = agentOver(place, []);
    const question = await second.agent.prompt({ approvals: { toolu_deploy: { approved: true } } });
    expect(question.subtype).toBe("requires_input");
    expect(question.pending_approvals).toBeUndefined();
    expect(question.pending_inputs).toEqual([expect.objectContaining({ id: "toolu_ask/input-1" })]);
    expect(place.runs).toEqual(["prod"]);
    const marker = (await second.agent.getHistory()).at(-1) as { settled_results?: ToolResultBlock[] };
    expect(marker.settled_results?.map((result) => result.tool_use_id)).toEqual(["toolu_deploy"]);
    await second.agent.close();

    const third = agentOver(place, [{ content: "Deployed and owned." }]);
    const done = await third.agent.prompt({ inputs: ANSWER });
    expect(done).toMatchObject({ subtype: "success", result: "Deployed and owned." });
    expect(place.runs).toEqual(["prod"]);
    expect(resultsSent(third.model).map((block) => [block.tool_use_id, block.content])).toEqual([
      ["toolu_deploy", "deployed to prod"],
      ["toolu_ask", [{ type: "text", text: 'answer: accept {"team":"ops"}' }]],
    ]);
    expectWellFormed(await third.agent.getHistory());
  });
});

describe("an MCP call that asks before a call a person approved", () => {
  it.each([
    { decision: { approved: true as const }, ran: ["prod"], result: "deployed to prod" },
    {
      decision: { approved: false as const, message: "Not today." },
      ran: [],
      result: "Permission denied: Not today.",
    },
  ])(
    "carries the decision ($decision.approved) to the resume after the question: not asked again, not lost",
    async ({ decision, ran, result }) => {
      const place = newPlace();
      const first = agentOver(place, [{ content: [ASK, DEPLOY] }]);
      expect((await first.agent.prompt("set the owner and deploy")).subtype).toBe("requires_approval");
      await first.agent.close();

      // Resumed: the MCP call runs first and asks; the decided call has not started when the batch pauses.
      const second = agentOver(place, []);
      const question = await second.agent.prompt({ approvals: { toolu_deploy: decision } });
      expect(question.subtype).toBe("requires_input");
      expect(question.pending_approvals).toBeUndefined();
      expect(place.runs).toEqual([]);
      const marker = (await second.agent.getHistory()).at(-1) as { carried_decisions?: unknown };
      expect(marker.carried_decisions).toEqual({ toolu_deploy: decision });
      await second.agent.close();

      const third = agentOver(place, [{ content: "Done." }]);
      expect((await third.agent.prompt({ inputs: ANSWER })).subtype).toBe("success");
      expect(place.runs).toEqual(ran);
      const sent = resultsSent(third.model);
      expect(sent.map((block) => block.tool_use_id)).toEqual(["toolu_ask", "toolu_deploy"]);
      expect(JSON.stringify(sent[1]!.content)).toContain(result);
      expectWellFormed(await third.agent.getHistory());
    },
  );
});

describe("a subagent's approval and a server's question in one pause", () => {
  const turn: ScriptedStep = {
    content: [{ type: "tool_use", id: "toolu_sub", name: "releaser", input: { prompt: "release" } }, ASK],
  };

  it("ends requires_input with both; one alone is refused, changing nothing; both at once resume it", async () => {
    const place = newPlace(true);
    const first = agentOver(place, [turn], { child: [{ content: [DEPLOY] }] });
    const paused = await first.agent.prompt("release and set the owner");
    expect(paused.subtype).toBe("requires_input");
    expect(paused.is_error).toBe(false);
    expect(paused.pending_approvals).toEqual([
      expect.objectContaining({
        tool_use_id: "toolu_deploy",
        parent_tool_use_id: "toolu_sub",
        agent: "releaser",
      }),
    ]);
    expect(paused.pending_inputs).toEqual([
      expect.objectContaining({ id: "toolu_ask/input-1", server: "questions", tool_use_id: "toolu_ask" }),
    ]);
    await first.agent.close();

    const second = agentOver(place, [{ content: "Both done." }], { child: [{ content: "Released." }] });
    expect(await second.agent.getPendingApprovals()).toEqual(paused.pending_approvals);
    expect(await second.agent.getPendingInputs()).toEqual(paused.pending_inputs);
    const before: ModelMessage[] = await second.agent.getHistory();
    await expect(second.agent.prompt({ inputs: ANSWER })).rejects.toThrow(InvalidOptionError);
    await expect(second.agent.prompt({ approvals: { toolu_deploy: { approved: true } } })).rejects.toThrow(
      /waits for answers to a question/,
    );
    expect(await second.agent.getHistory()).toEqual(before);
    expect(await second.agent.getPendingApprovals()).toEqual(paused.pending_approvals);
    expect(await second.agent.getPendingInputs()).toEqual(paused.pending_inputs);
    expect(place.runs).toEqual([]);
    expect(await askRuns(place)).toBe(1);

    const done = await second.agent.prompt({
      approvals: { toolu_deploy: { approved: true } },
      inputs: ANSWER,
    });
    expect(done).toMatchObject({ subtype: "success", result: "Both done." });
    expect(place.runs).toEqual(["prod"]);
    const answers = (await place.answered()).filter((entry) => entry.effect === "answered");
    expect(answers.map((entry) => entry.action)).toEqual(["cancel", "accept"]);
    expect(resultsSent(second.model).map((block) => [block.tool_use_id, block.content])).toEqual([
      ["toolu_sub", "Released."],
      ["toolu_ask", [{ type: "text", text: 'answer: accept {"team":"ops"}' }]],
    ]);
    expectWellFormed(await second.agent.getHistory());
    await second.agent.close();

    // Nothing is pending any more: the same answers again are refused, nothing runs twice.
    const third = agentOver(place, []);
    await expect(
      third.agent.prompt({ approvals: { toolu_deploy: { approved: true } }, inputs: ANSWER }),
    ).rejects.toThrow(InvalidOptionError);
    expect(place.runs).toEqual(["prod"]);
    expect(await askRuns(place)).toBe(2);
  });
});
