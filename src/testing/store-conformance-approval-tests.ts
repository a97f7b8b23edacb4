/**
 * The conformance tests of a pause for approval: a store holds the unanswered calls and the
 * approval marker after them exactly (so a reloaded history is still paused, and crash repair
 * leaves it pending) — a pause inside a subagent too, whose marker holds the children's pending
 * calls, the results that finished and a child's history — and, with the two-writer tests, two
 * writers claiming the same pause at once cannot both win.
 * @module
 */
import { ConcurrentQueryError } from "../errors";
import { repairHistoryTail } from "../history/repair";
import { approvalMarker, pendingPause } from "../messages/approvals";
import type { ModelMessage } from "../messages/types";
import type { ConformanceTestApi } from "./store-conformance-api";
import { userMessage } from "./store-conformance-messages";
import type { ConformanceTest } from "./store-conformance-runner";

function pausedConversation(): ModelMessage[] {
  const input = { target: "production", notes: "line one\nline two — ünïcode" };
  return [
    userMessage("Deploy the release."),
    {
      role: "assistant",
      content: [
        { type: "text", text: "Deploying." },
        { type: "tool_use", id: "toolu_read", name: "read", input: { path: "notes" } },
        { type: "tool_use", id: "toolu_deploy", name: "deploy", input },
      ],
      stop_reason: "tool_use",
    },
    approvalMarker([
      { tool_use_id: "toolu_deploy", name: "deploy", input, message: "Deploy to production?" },
    ]),
  ];
}

/** A pause inside a subagent: the marker holds a settled result and the child's conversation. */
function childPausedConversation(): ModelMessage[] {
  const input = { target: "production", notes: "ünïcode\nand a second line" };
  const childHistory: ModelMessage[] = [
    userMessage("Ship 4.2 to production."),
    {
      role: "assistant",
      content: [{ type: "tool_use", id: "toolu_child_deploy", name: "deploy", input }],
      stop_reason: "tool_use",
    },
    approvalMarker([{ tool_use_id: "toolu_child_deploy", name: "deploy", input }]),
  ];
  return [
    userMessage("Note it, then release."),
    {
      role: "assistant",
      content: [
        { type: "tool_use", id: "toolu_note", name: "note", input: { text: "release" } },
        {
          type: "tool_use",
          id: "toolu_releaser",
          name: "releaser",
          input: { prompt: "Ship 4.2 to production." },
        },
      ],
      stop_reason: "tool_use",
    },
    approvalMarker(
      [
        {
          tool_use_id: "toolu_child_deploy",
          name: "deploy",
          input,
          parent_tool_use_id: "toolu_releaser",
          agent: "releaser",
        },
      ],
      {
        settled: [{ type: "tool_result", tool_use_id: "toolu_note", content: "noted" }],
        suspended: [
          {
            tool_use_id: "toolu_releaser",
            agent: "releaser",
            pending_ids: ["toolu_child_deploy"],
            history: childHistory,
          },
        ],
      },
    ),
  ];
}

/** Registers the approval tests; `concurrency` adds the two-claimer test. */
export function registerApprovalTests(
  test: ConformanceTest,
  expect: ConformanceTestApi["expect"],
  concurrency: boolean,
): void {
  test("holds a pause for approval: it loads back paused, and crash repair leaves it pending", async ({
    open,
    reopen,
  }) => {
    const store = await open();
    await store.load();
    for (const message of pausedConversation()) await store.append(message);
    const loaded = await (await reopen(store)).load();
    expect(loaded).toEqual(pausedConversation());
    expect(pendingPause(loaded)?.marker.pending_approvals.map((call) => call.tool_use_id)).toEqual([
      "toolu_deploy",
    ]);
    expect(repairHistoryTail(loaded).repaired).toBe(0);
  });

  test("holds a pause inside a subagent: the children's calls, the settled results and the child's history load back", async ({
    open,
    reopen,
  }) => {
    const store = await open();
    await store.load();
    for (const message of childPausedConversation()) await store.append(message);
    const loaded = await (await reopen(store)).load();
    expect(loaded).toEqual(childPausedConversation());
    const pause = pendingPause(loaded);
    expect(pause?.marker.pending_approvals.map((call) => call.parent_tool_use_id)).toEqual([
      "toolu_releaser",
    ]);
    const childHistory = pause?.marker.suspended_calls?.[0]?.history ?? [];
    expect(pendingPause(childHistory)?.marker.pending_approvals.map((call) => call.tool_use_id)).toEqual([
      "toolu_child_deploy",
    ]);
    expect(repairHistoryTail(loaded).repaired).toBe(0);
  });

  if (!concurrency) return;
  test("two writers claiming the same pause at once: exactly one wins", async ({ open }) => {
    const seed = await open();
    await seed.load();
    for (const message of pausedConversation()) await seed.append(message);
    const first = await open();
    const second = await open();
    await first.load();
    await second.load();
    const claimed = pausedConversation().slice(0, -1);
    const outcomes = await Promise.allSettled([first.replace(claimed), second.replace(claimed)]);
    const rejected = outcomes.filter((outcome) => outcome.status === "rejected") as PromiseRejectedResult[];
    expect(rejected.length).toBe(1);
    expect(rejected[0]!.reason).toBeInstanceOf(ConcurrentQueryError);
    expect(await (await open()).load()).toEqual(claimed);
  });
}
