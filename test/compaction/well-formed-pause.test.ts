/**
 * `isWellFormedHistory(history, { allowPause: true })`: a paused conversation's history (the
 * assistant message with the waiting calls, then the pause marker) passes the documented import
 * check; without the option it does not, and a marker that does not fit its calls never passes.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent, createJsonlHistoryStore, defineTool, isWellFormedHistory } from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { toolUse } from "../loop/support";
import { temporaryFolder } from "../support/temporary-folders";

async function pausedHistory() {
  const deploy = defineTool({
    name: "deploy",
    inputSchema: z.object({ target: z.string() }),
    execute: () => "ok",
  });
  const path = join(temporaryFolder("lattice-pause-"), "paused.jsonl");
  const agent = createAgent({
    model: "claude-sonnet-4-6",
    client: createScriptedClient([
      { content: [toolUse("c1", "deploy", { target: "prod" }), toolUse("c2", "deploy", { target: "eu" })] },
    ]),
    tools: [deploy],
    canUseTool: () => ({ behavior: "ask" }),
    historyStore: createJsonlHistoryStore({ path }),
  });
  expect((await agent.prompt("Deploy both.")).subtype).toBe("requires_approval");
  const history = await agent.getHistory();
  await agent.close();
  return { history, stored: await createJsonlHistoryStore({ path }).load() };
}

describe("isWellFormedHistory with allowPause", () => {
  it("a paused history passes with allowPause (memory and store), not without", async () => {
    const { history, stored } = await pausedHistory();
    for (const messages of [history, stored]) {
      expect(isWellFormedHistory(messages, { allowPause: true })).toBe(true);
      expect(isWellFormedHistory(messages)).toBe(false);
    }
  });

  it("a marker naming a call the assistant message does not hold is refused", async () => {
    const { history } = await pausedHistory();
    const forged = structuredClone(history);
    const marker = forged.at(-1) as unknown as { pending_approvals: Array<{ tool_use_id: string }> };
    marker.pending_approvals[0]!.tool_use_id = "c9";
    expect(isWellFormedHistory(forged, { allowPause: true })).toBe(false);
  });

  it("the rest of a paused history is still checked", async () => {
    const { history } = await pausedHistory();
    const broken = [
      { role: "assistant" as const, content: [{ type: "text" as const, text: "first" }] },
      ...history,
    ];
    expect(isWellFormedHistory(broken, { allowPause: true })).toBe(false);
  });
});
