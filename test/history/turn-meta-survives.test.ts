/**
 * Turn metadata (`meta`) survives what rewrites or continues history: crash repair, compaction, a
 * resume after a pause for approval, and a transcript written before `meta` existed still loads and
 * goes on (the fixture is a file as the JSONL store wrote it then).
 */
import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { repairHistoryTail } from "../../src/history/repair";
import { createAgent, createJsonlHistoryStore, defineTool, type ModelMessage } from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { answer, fetchTool, fetchTurn, routedClient } from "../loop/compaction-support";
import { createMemoryStore, MODEL, toolUse } from "../loop/support";

const FIXTURE = join(__dirname, "../fixtures/history/before-meta.jsonl");
const folders: string[] = [];

afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

describe("turn metadata survives", () => {
  it("crash repair: the assistant turn whose call never got a result keeps its meta", () => {
    const meta = { started_at: "2026-12-03T12:00:00.000Z", latency_ms: 900, cost_usd: 0.01 };
    const crashed: ModelMessage[] = [
      { role: "user", content: "go" },
      { role: "assistant", content: [toolUse("t1", "fetch", {})], stop_reason: "tool_use", meta },
    ];
    const { messages, repaired } = repairHistoryTail(crashed);
    expect(repaired).toBe(1);
    expect(messages[1]?.meta).toEqual(meta);
  });

  it("compaction: the messages kept after the summary keep theirs", async () => {
    const routed = routedClient({ main: [fetchTurn("t1", 100), fetchTurn("t2", 1_500), answer("done")] });
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      tools: [fetchTool],
      autoCompact: { thresholdTokens: 1_000, keepRecentMessages: 2 },
    });
    await agent.prompt("Collect the documents.");
    const history = await agent.getHistory();
    expect(routed.compactions()).toHaveLength(1);
    const kept = history.slice(1);
    const assistants = kept.filter((message) => message.role === "assistant");
    expect(assistants.length).toBeGreaterThan(0);
    for (const message of assistants) expect(message.meta?.latency_ms).toEqual(expect.any(Number));
    const results = kept.filter((message) => message.role === "user" && Array.isArray(message.content));
    for (const message of results) expect(message.meta?.tool_durations_ms).toBeDefined();
  });

  it("a resume after a pause for approval: the paused turn keeps its meta, the resumed results get theirs", async () => {
    const deploy = defineTool({
      name: "deploy",
      description: "Deploys",
      inputSchema: z.object({ target: z.string() }),
      needsApproval: true,
      execute: ({ target }) => `deployed to ${target}`,
    });
    const store = createMemoryStore();
    const client = createScriptedClient([
      { content: [toolUse("d1", "deploy", { target: "prod" })] },
      { content: "Deployed." },
    ]);
    const agent = createAgent({ model: MODEL, client, tools: [deploy], historyStore: store });
    const paused = await agent.prompt("Deploy.");
    expect(paused.subtype).toBe("requires_approval");
    const resumed = await agent.prompt({ approvals: { d1: { approved: true } } });
    expect(resumed.subtype).toBe("success");
    const history = await store.load();
    const call = history.find((message) => message.role === "assistant");
    expect(call?.meta?.latency_ms).toEqual(expect.any(Number));
    const results = history.find(
      (message) =>
        message.role === "user" &&
        Array.isArray(message.content) &&
        message.content.some((block) => block.type === "tool_result"),
    );
    expect(results?.meta?.tool_durations_ms).toEqual({ d1: expect.any(Number) });
    expect(history.at(-1)?.meta?.cost_usd).toEqual(expect.any(Number));
  });

  it("a transcript written before meta existed loads as it was, and the conversation goes on", async () => {
    const folder = await mkdtemp(join(tmpdir(), "turn-meta-fixture-"));
    folders.push(folder);
    const path = join(folder, "old.jsonl");
    await copyFile(FIXTURE, path);
    const client = createScriptedClient([{ content: "Still milk." }]);
    const agent = createAgent({ model: MODEL, client, historyStore: createJsonlHistoryStore({ path }) });
    const result = await agent.prompt("And now?");
    expect(result.subtype).toBe("success");
    // The old messages went out as they were stored.
    expect(client.requests[0]?.messages.slice(0, 4).map((message) => message.meta)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    const reloaded = await createJsonlHistoryStore({ path }).load();
    expect(reloaded).toHaveLength(6);
    expect(reloaded[3]).toMatchObject({ role: "assistant", model: "claude-sonnet-4-6" });
    expect(reloaded[3]?.meta).toBeUndefined();
    expect(reloaded[5]?.meta?.latency_ms).toEqual(expect.any(Number));
  });
});
