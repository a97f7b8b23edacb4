/**
 * A resume that dies before its results are recorded (the pause claimed, the marker gone) is
 * repaired from what the claim recorded: the calls a person denied are answered "not run" — they
 * never start — and only the calls that were to run are "effect unverified".
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  NOT_RUN_TOOL_RESULT_TEXT,
  repairHistoryTail,
  UNRECORDED_PAUSE_TOOL_RESULT_TEXT,
  UNRECORDED_TOOL_RESULT_TEXT,
} from "../../src/history/repair";
import { createAgent, defineTool, type ModelMessage } from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { createMemoryStore, toolUse } from "./support";

describe("a resume that crashed before its results", () => {
  it("denied calls are 'not run', the approved one 'effect unverified' (the store as the crash left it)", async () => {
    const store = createMemoryStore();
    let atCrash: ModelMessage[] | undefined;
    const deploy = defineTool({
      name: "deploy",
      inputSchema: z.object({ target: z.string() }),
      execute: ({ target }) => {
        // The process "dies" here: what the store holds now is what a restart would load.
        atCrash ??= structuredClone(store.saved);
        return `deployed ${target}`;
      },
    });
    const agent = createAgent({
      model: "claude-sonnet-4-6",
      client: createScriptedClient([
        {
          content: [
            toolUse("a", "deploy", { target: "staging" }),
            toolUse("b", "deploy", { target: "production" }),
            toolUse("c", "deploy", { target: "europe" }),
          ],
        },
        { content: "Done." },
      ]),
      tools: [deploy],
      canUseTool: () => ({ behavior: "ask" }),
      historyStore: store,
    });
    expect((await agent.prompt("Deploy.")).subtype).toBe("requires_approval");
    const resumed = await agent.prompt({
      approvals: {
        a: { approved: true },
        b: { approved: false, message: "not today" },
        c: { approved: false },
      },
    });
    expect(resumed.subtype).toBe("success");
    // The claim recorded, before any call ran, which calls never start.
    expect(atCrash!.at(-1)).toMatchObject({
      role: "assistant",
      meta: { approvals_resumed: { not_run: ["b", "c"] } },
    });
    const restarted = createAgent({
      model: "claude-sonnet-4-6",
      client: createScriptedClient([]),
      historyStore: createMemoryStore(atCrash),
    });
    const history = await restarted.getHistory();
    expect(history.at(-1)).toEqual({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "a", content: UNRECORDED_TOOL_RESULT_TEXT, is_error: true },
        { type: "tool_result", tool_use_id: "b", content: NOT_RUN_TOOL_RESULT_TEXT, is_error: true },
        { type: "tool_result", tool_use_id: "c", content: NOT_RUN_TOOL_RESULT_TEXT, is_error: true },
      ],
    });
    // After a whole run the record stays beside the message (never sent), and changes nothing.
    const full = await agent.getHistory();
    expect(repairHistoryTail(full).repaired).toBe(0);
    await Promise.all([agent.close(), restarted.close()]);
  });

  it("results settled before a pause inside a subagent are kept, not re-answered", () => {
    const settled = { type: "tool_result" as const, tool_use_id: "t0", content: "noted" };
    const history: ModelMessage[] = [
      { role: "user", content: "Go." },
      {
        role: "assistant",
        content: [toolUse("t0", "note", {}), toolUse("p1", "releaser", { prompt: "Ship" })],
        meta: { approvals_resumed: { not_run: [], settled_results: [settled] } },
      },
    ];
    const { messages, repaired } = repairHistoryTail(history);
    expect(repaired).toBe(2);
    expect(messages.at(-1)).toEqual({
      role: "user",
      content: [
        settled,
        { type: "tool_result", tool_use_id: "p1", content: UNRECORDED_TOOL_RESULT_TEXT, is_error: true },
      ],
    });
  });

  it("a paused response without the record (claimed by an older version) is repaired as before", () => {
    const history: ModelMessage[] = [
      { role: "user", content: "Go." },
      { role: "assistant", content: [toolUse("a", "deploy", {})] },
    ];
    expect(repairHistoryTail(history).messages.at(-1)).toMatchObject({
      content: [{ tool_use_id: "a", content: UNRECORDED_TOOL_RESULT_TEXT }],
    });
  });

  it("a pause whose marker was removed by hand: its calls are 'not run', and resuming drops that record", async () => {
    const store = createMemoryStore();
    let runs = 0;
    let atRun: ModelMessage[] | undefined;
    const deploy = defineTool({
      name: "deploy",
      inputSchema: z.object({ target: z.string() }),
      needsApproval: true,
      execute: () => {
        atRun ??= structuredClone(store.saved); // what a crash while it runs would leave
        return `deployed ${++runs}`;
      },
    });
    const client = () =>
      createScriptedClient([
        {
          content: [toolUse("a", "deploy", { target: "staging" }), toolUse("b", "deploy", { target: "eu" })],
        },
        { content: "Done." },
      ]);
    const agent = createAgent({
      model: "claude-sonnet-4-6",
      client: client(),
      tools: [deploy],
      historyStore: store,
    });
    expect((await agent.prompt("Deploy.")).subtype).toBe("requires_approval");
    // While it waits, the store holds the paused message (marked) and the marker; no other record.
    expect(store.saved.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
    expect(store.saved[1]).toMatchObject({ meta: { calls_not_started: true } });
    const lost = createMemoryStore(store.saved.slice(0, -1)); // the marker removed by hand
    const restarted = createAgent({ model: "claude-sonnet-4-6", client: client(), historyStore: lost });
    expect((await restarted.getHistory()).at(-1)).toEqual({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "a", content: UNRECORDED_PAUSE_TOOL_RESULT_TEXT, is_error: true },
        { type: "tool_result", tool_use_id: "b", content: UNRECORDED_PAUSE_TOOL_RESULT_TEXT, is_error: true },
      ],
    });
    // Resumed, the calls may run: the claim drops the mark, so a crash now is "effect unverified".
    const approve = { approvals: { a: { approved: true as const }, b: { approved: true as const } } };
    expect((await agent.prompt(approve)).subtype).toBe("success");
    expect(runs).toBe(2);
    expect(atRun!.at(-1)).toMatchObject({ role: "assistant", meta: { approvals_resumed: { not_run: [] } } });
    expect((atRun!.at(-1) as { meta?: object }).meta).not.toHaveProperty("calls_not_started");
    expect(repairHistoryTail(atRun!).messages.at(-1)).toMatchObject({
      content: [{ content: UNRECORDED_TOOL_RESULT_TEXT }, { content: UNRECORDED_TOOL_RESULT_TEXT }],
    });
    await Promise.all([agent.close(), restarted.close()]);
  });
});
