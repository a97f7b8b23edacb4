/** Crash repair tells a pause for approval (left pending) from a crashed tool call (effect unverified). */
import { describe, expect, it } from "vitest";
import { repairHistoryTail, UNRECORDED_TOOL_RESULT_TEXT } from "../../src/history/repair";
import { approvalMarker } from "../../src/messages/approvals";
import type { ModelMessage } from "../../src/messages/types";

const call = { type: "tool_use" as const, id: "t1", name: "deploy", input: { target: "production" } };
const assistant: ModelMessage = { role: "assistant", content: [call] };
const prompt: ModelMessage = { role: "user", content: "Deploy." };
const marker = approvalMarker([{ tool_use_id: "t1", name: "deploy", input: call.input }]);

describe("repairHistoryTail and pauses", () => {
  it("leaves a pause pending: no result is added, the marker stays", () => {
    const { messages, repaired } = repairHistoryTail([prompt, assistant, marker]);
    expect(repaired).toBe(0);
    expect(messages).toEqual([prompt, assistant, marker]);
  });

  it("a claimed pause (marker gone, no results: the resumer crashed) is a crashed call", () => {
    const { messages, repaired } = repairHistoryTail([prompt, assistant]);
    expect(repaired).toBe(1);
    expect(messages[2]).toEqual({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "t1", content: UNRECORDED_TOOL_RESULT_TEXT, is_error: true },
      ],
    });
  });

  it("a marker whose calls are not the ones before it is dropped and the calls repaired", () => {
    const stale = approvalMarker([{ tool_use_id: "other", name: "deploy", input: {} }]);
    const { messages, repaired } = repairHistoryTail([prompt, assistant, stale]);
    expect(repaired).toBe(2);
    expect(messages).toHaveLength(3);
    expect(messages[2]).toMatchObject({ role: "user", content: [{ tool_use_id: "t1", is_error: true }] });
    expect("pending_approvals" in messages[2]!).toBe(false);
  });
});
