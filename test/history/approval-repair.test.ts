/**
 * Crash repair tells a pause for approval (left pending) from a crashed tool call (effect
 * unverified) — a pause inside a subagent too, whose pending calls are its children's.
 */
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

  describe("a pause inside a subagent", () => {
    const note = { type: "tool_use" as const, id: "t0", name: "note", input: {} };
    const subagent = { type: "tool_use" as const, id: "p1", name: "releaser", input: { prompt: "Ship" } };
    const batch: ModelMessage = { role: "assistant", content: [note, subagent] };
    const childCall = {
      tool_use_id: "c1",
      name: "deploy",
      input: {},
      parent_tool_use_id: "p1",
      agent: "releaser",
    };
    const settled = { type: "tool_result" as const, tool_use_id: "t0", content: "noted" };

    it("is left pending when the child's calls are waited on by a subagent call of the message", () => {
      const childMarker = approvalMarker([childCall], {
        settled: [settled],
        suspended: [{ tool_use_id: "p1", agent: "releaser", pending_ids: ["c1"], history: [prompt] }],
      });
      const { messages, repaired } = repairHistoryTail([prompt, batch, childMarker]);
      expect(repaired).toBe(0);
      expect(messages.at(-1)).toEqual(childMarker);
    });

    it("is dropped, and the calls repaired, when its suspended call or its settled result is not of the message", () => {
      const strangers = [
        approvalMarker([childCall], {
          suspended: [{ tool_use_id: "p9", agent: "releaser", pending_ids: ["c1"] }],
        }),
        approvalMarker([childCall], {
          settled: [{ ...settled, tool_use_id: "t9" }],
          suspended: [{ tool_use_id: "p1", agent: "releaser", pending_ids: ["c1"] }],
        }),
        approvalMarker([childCall]), // a child's call no suspended call waits on
      ];
      for (const stale of strangers) {
        const { messages, repaired } = repairHistoryTail([prompt, batch, stale]);
        expect(repaired).toBe(3); // the marker dropped, both calls answered
        expect(messages[2]).toMatchObject({
          role: "user",
          content: [{ tool_use_id: "t0" }, { tool_use_id: "p1" }],
        });
      }
    });
  });
});
