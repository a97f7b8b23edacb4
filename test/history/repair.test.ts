import { describe, expect, it } from "vitest";
import { repairHistoryTail, UNRECORDED_TOOL_RESULT_TEXT } from "../../src/history/repair";
import type { AssistantModelMessage, ModelMessage } from "../../src/messages/types";

const prompt: ModelMessage = { role: "user", content: "List the files and read README.md" };

function callsMessage(...ids: string[]): AssistantModelMessage {
  return {
    role: "assistant",
    content: [
      { type: "text", text: "Looking." },
      ...ids.map((id) => ({ type: "tool_use" as const, id, name: "read", input: { path: id } })),
    ],
    stop_reason: "tool_use",
  };
}

function unrecorded(id: string) {
  return { type: "tool_result", tool_use_id: id, content: UNRECORDED_TOOL_RESULT_TEXT, is_error: true };
}

describe("repairHistoryTail", () => {
  it("leaves a well-formed history alone", () => {
    const history: ModelMessage[] = [
      prompt,
      callsMessage("a"),
      { role: "user", content: [{ type: "tool_result", tool_use_id: "a", content: "ok" }] },
      { role: "assistant", content: [{ type: "text", text: "Done." }], stop_reason: "end_turn" },
    ];
    const result = repairHistoryTail(history);
    expect(result.repaired).toBe(0);
    expect(result.messages).toEqual(history);
  });

  it("returns an empty history unchanged", () => {
    expect(repairHistoryTail([])).toEqual({ messages: [], repaired: 0 });
  });

  it("closes every dangling call of a trailing tool_use message with one error result each, in call order", () => {
    const history = [prompt, callsMessage("a", "b")];
    const result = repairHistoryTail(history);
    expect(result.repaired).toBe(2);
    expect(result.messages).toEqual([
      prompt,
      callsMessage("a", "b"),
      { role: "user", content: [unrecorded("a"), unrecorded("b")] },
    ]);
  });

  it("says that the result was never recorded and its effect is unverified", () => {
    expect(UNRECORDED_TOOL_RESULT_TEXT).toMatch(/never recorded/);
    expect(UNRECORDED_TOOL_RESULT_TEXT).toMatch(/unverified/);
  });

  it("completes a trailing tool_result message that lacks some ids, keeping tool results before other blocks", () => {
    const partial: ModelMessage = {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "b", content: "second" },
        { type: "text", text: "and also this" },
      ],
    };
    const result = repairHistoryTail([prompt, callsMessage("a", "b", "c"), partial]);
    expect(result.repaired).toBe(2);
    expect(result.messages.at(-1)).toEqual({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "b", content: "second" },
        unrecorded("a"),
        unrecorded("c"),
        { type: "text", text: "and also this" },
      ],
    });
  });

  it("puts the results before the text of a trailing plain user message", () => {
    const result = repairHistoryTail([prompt, callsMessage("a"), { role: "user", content: "hello?" }]);
    expect(result.repaired).toBe(1);
    expect(result.messages.at(-1)).toEqual({
      role: "user",
      content: [unrecorded("a"), { type: "text", text: "hello?" }],
    });
  });

  it("drops trailing assistant messages with no content, then repairs the calls before them", () => {
    const history: ModelMessage[] = [prompt, callsMessage("a"), { role: "assistant", content: [] }];
    const result = repairHistoryTail(history);
    expect(result.repaired).toBe(2);
    expect(result.messages).toEqual([
      prompt,
      callsMessage("a"),
      { role: "user", content: [unrecorded("a")] },
    ]);
  });

  it("drops a lone empty assistant message", () => {
    const result = repairHistoryTail([prompt, { role: "assistant", content: [] }]);
    expect(result).toEqual({ messages: [prompt], repaired: 1 });
  });

  it("does not touch dangling calls that are not at the tail", () => {
    const history: ModelMessage[] = [
      prompt,
      callsMessage("a"),
      { role: "user", content: "never mind" },
      { role: "assistant", content: [{ type: "text", text: "OK." }] },
    ];
    expect(repairHistoryTail(history)).toEqual({ messages: history, repaired: 0 });
  });

  it("never mutates its input", () => {
    const partial: ModelMessage = {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "a", content: "x" }],
    };
    const history: ModelMessage[] = [
      prompt,
      callsMessage("a", "b"),
      partial,
      { role: "assistant", content: [] },
    ];
    const before = structuredClone(history);
    repairHistoryTail(history);
    expect(history).toEqual(before);
    expect(repairHistoryTail([prompt, callsMessage("z")]).messages).not.toBe(history);
  });

  it("produces a history whose every tool_use has a tool_result in the next message", () => {
    const { messages } = repairHistoryTail([prompt, callsMessage("a", "b", "c")]);
    const calls = (messages[1] as AssistantModelMessage).content.filter((block) => block.type === "tool_use");
    const next = messages[2]!;
    const resultIds =
      typeof next.content === "string"
        ? []
        : next.content.map((block) => (block as { tool_use_id?: string }).tool_use_id);
    expect(resultIds).toEqual(calls.map((call) => call.id));
  });
});
