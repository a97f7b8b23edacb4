/**
 * The conformance tests of the step journal (`ToolContext.step`): a store keeps a call's step
 * records exactly as appended after the call (a reloaded history repairs into the call's recorded
 * steps, to be run again), and takes the results in their place — the steps in the results' meta.
 * @module
 */
import { repairHistoryTail } from "../history/repair";
import { toolStepRecord } from "../history/tool-steps";
import type { ModelMessage } from "../messages/types";
import type { ConformanceTestApi } from "./store-conformance-api";
import { userMessage } from "./store-conformance-messages";
import type { ConformanceTest } from "./store-conformance-runner";

function callingConversation(): ModelMessage[] {
  return [
    userMessage("Charge the card."),
    {
      role: "assistant",
      content: [{ type: "tool_use", id: "toolu_charge", name: "charge", input: { cents: 500 } }],
      stop_reason: "tool_use",
    },
  ];
}

const records = (): ModelMessage[] => [
  toolStepRecord("toolu_charge", "reserve", { hold: "h-1", note: "ünïcode\nline two" }, { cents: 500 }),
  toolStepRecord("toolu_charge", "charge", undefined),
];

/** Registers the step-journal tests. */
export function registerStepTests(test: ConformanceTest, expect: ConformanceTestApi["expect"]): void {
  test("holds a tool call's step records: they load back as appended, and repair marks the call to run again", async ({
    open,
    reopen,
  }) => {
    const store = await open();
    await store.load();
    for (const message of [...callingConversation(), ...records()]) await store.append(message);
    const loaded = await (await reopen(store)).load();
    expect(loaded).toEqual([...callingConversation(), ...records()]);
    const { messages } = repairHistoryTail(loaded);
    expect(messages.length).toBe(3);
    expect(messages[2]!.meta?.interrupted_calls).toEqual([
      { tool_use_id: "toolu_charge", input: { cents: 500 } },
    ]);
    expect(messages[2]!.meta?.tool_steps?.toolu_charge).toEqual([
      { name: "reserve", result: { hold: "h-1", note: "ünïcode\nline two" } },
      { name: "charge" },
    ]);
  });

  test("takes a call's results in the place of its step records", async ({ open, reopen }) => {
    const store = await open();
    await store.load();
    for (const message of [...callingConversation(), ...records()]) await store.append(message);
    const results: ModelMessage = {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "toolu_charge", content: "charged" }],
      meta: {
        tool_steps: { toolu_charge: [{ name: "reserve", result: { hold: "h-1" } }, { name: "charge" }] },
      },
    };
    const finished = [...callingConversation(), results];
    if (store.replaceTail) await store.replaceTail(2, [results]);
    else await store.replace(finished);
    expect(await (await reopen(store)).load()).toEqual(finished);
  });
}
