/**
 * Context editing applied to a request's messages (`applyContextEdits`): the trigger, the tool uses
 * kept, excluded tools, steps of `clearAtLeastTokens` (a stable cleared prefix), cleared inputs,
 * old thinking dropped — and the messages given never changed.
 */
import { describe, expect, it } from "vitest";
import type { ModelMessage } from "../../src/messages/types";
import {
  applyContextEdits,
  CLEARED_TOOL_RESULT,
  estimateRequestTokens,
  estimateTokens,
} from "../../src/model/context-editing";
import type { ClearToolUsesEdit } from "../../src/model/context-management";
import {
  fromWireContextManagement,
  readAppliedEdits,
  toWireContextManagement,
} from "../../src/model/context-management";

/** A conversation of `turns` tool calls, each result `size` characters. */
function conversation(turns: number, size = 400, name = "read"): ModelMessage[] {
  const messages: ModelMessage[] = [{ role: "user", content: "Read the files." }];
  for (let turn = 0; turn < turns; turn++) {
    messages.push({
      role: "assistant",
      content: [
        {
          type: "tool_use",
          id: `call_${turn}`,
          name: turn % 5 === 4 ? "keep_me" : name,
          input: { path: `f${turn}.txt` },
        },
      ],
    });
    messages.push({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: `call_${turn}`, content: `${turn}:`.padEnd(size, "x") }],
    });
  }
  return messages;
}

function edit(overrides: Partial<ClearToolUsesEdit> = {}): ClearToolUsesEdit {
  return {
    triggerTokens: 1_000,
    keepToolUses: 3,
    clearAtLeastTokens: 0,
    excludeTools: [],
    clearInputs: false,
    ...overrides,
  };
}

function clearedIds(messages: ModelMessage[]): string[] {
  const ids: string[] = [];
  for (const message of messages) {
    if (typeof message.content === "string") continue;
    for (const block of message.content)
      if (block.type === "tool_result" && block.content === CLEARED_TOOL_RESULT) ids.push(block.tool_use_id);
  }
  return ids;
}

describe("clearing old tool results", () => {
  it("does nothing at or under the trigger", () => {
    const messages = conversation(10);
    const tokens = estimateRequestTokens({ messages });
    const result = applyContextEdits(messages, { clearToolUses: edit({ triggerTokens: tokens }) }, tokens);
    expect(result.applied).toEqual([]);
    expect(result.messages).toEqual(messages);
  });

  it("over the trigger, clears every result but the last keepToolUses, oldest first, without touching the input", () => {
    const messages = conversation(10);
    const before = structuredClone(messages);
    const tokens = estimateRequestTokens({ messages });
    const result = applyContextEdits(messages, { clearToolUses: edit() }, tokens);
    expect(clearedIds(result.messages)).toEqual([
      "call_0",
      "call_1",
      "call_2",
      "call_3",
      "call_4",
      "call_5",
      "call_6",
    ]);
    expect(result.applied).toEqual([
      { type: "clear_tool_uses_20250919", cleared_tool_uses: 7, cleared_input_tokens: expect.any(Number) },
    ]);
    const freed = (result.applied[0] as { cleared_input_tokens: number }).cleared_input_tokens;
    expect(freed).toBe(7 * (100 - estimateTokens(CLEARED_TOOL_RESULT)));
    expect(messages).toEqual(before); // history is never edited
    expect(result.messages[1]).toBe(messages[1]); // untouched messages are shared, not copied
  });

  it("never clears the results of excluded tools", () => {
    const messages = conversation(10);
    const result = applyContextEdits(
      messages,
      { clearToolUses: edit({ excludeTools: ["keep_me"] }) },
      99_999,
    );
    expect(clearedIds(result.messages)).toEqual(["call_0", "call_1", "call_2", "call_3", "call_5", "call_6"]);
  });

  it("clears the inputs of the cleared calls with clearInputs", () => {
    const messages = conversation(5);
    const result = applyContextEdits(
      messages,
      { clearToolUses: edit({ keepToolUses: 1, clearInputs: true }) },
      99_999,
    );
    const inputs = result.messages.flatMap((message) =>
      typeof message.content === "string"
        ? []
        : message.content
            .filter((block) => block.type === "tool_use")
            .map((block) => (block as { input: unknown }).input),
    );
    expect(inputs).toEqual([{}, {}, {}, {}, { path: "f4.txt" }]);
  });

  it("clears in whole steps of clearAtLeastTokens: the cleared prefix moves once per step, never back", () => {
    const step = 500; // five results of 100 tokens
    let previous: string[] = [];
    let changes = 0;
    for (let turns = 4; turns <= 40; turns++) {
      const messages = conversation(turns);
      const result = applyContextEdits(
        messages,
        { clearToolUses: edit({ clearAtLeastTokens: step }) },
        99_999,
      );
      const ids = clearedIds(result.messages);
      // The old cleared set is a prefix of the new one: a stable prefix for the prompt cache.
      expect(ids.slice(0, previous.length)).toEqual(previous);
      if (ids.length !== previous.length) changes += 1;
      if (ids.length > 0) {
        const freed = (result.applied[0] as { cleared_input_tokens: number }).cleared_input_tokens;
        expect(freed).toBeGreaterThanOrEqual(step - ids.length * estimateTokens(CLEARED_TOOL_RESULT));
      }
      previous = ids;
    }
    expect(changes).toBeLessThanOrEqual(8); // 37 requests, the cleared part grew 7 or 8 times
    expect(changes).toBeGreaterThanOrEqual(6);
  });

  it("clears nothing while less than one step can be cleared", () => {
    const result = applyContextEdits(
      conversation(6),
      { clearToolUses: edit({ clearAtLeastTokens: 10_000 }) },
      99_999,
    );
    expect(result.applied).toEqual([]);
  });
});

describe("clearing old thinking", () => {
  const thinkingTurns: ModelMessage[] = [
    { role: "user", content: "go" },
    {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "first thoughts", signature: "s1" },
        { type: "text", text: "one" },
      ],
    },
    { role: "user", content: "again" },
    { role: "assistant", content: [{ type: "thinking", thinking: "only thoughts", signature: "s2" }] },
    { role: "user", content: "again" },
    {
      role: "assistant",
      content: [
        { type: "redacted_thinking", data: "abc" },
        { type: "text", text: "three" },
      ],
    },
    { role: "user", content: "again" },
    {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "last", signature: "s4" },
        { type: "text", text: "four" },
      ],
    },
  ];

  it("keeps the thinking of the last keepTurns turns, and of a turn that would be left empty", () => {
    const result = applyContextEdits(thinkingTurns, { clearThinking: { keepTurns: 1 } }, 0);
    expect(result.messages[1]!.content).toEqual([{ type: "text", text: "one" }]);
    expect(result.messages[3]).toBe(thinkingTurns[3]); // thinking only: kept
    expect(result.messages[5]!.content).toEqual([{ type: "text", text: "three" }]);
    expect(result.messages[7]).toBe(thinkingTurns[7]);
    expect(result.applied).toEqual([
      {
        type: "clear_thinking_20251015",
        cleared_thinking_turns: 2,
        cleared_input_tokens: expect.any(Number),
      },
    ]);
  });

  it('keeps everything with keepTurns "all"', () => {
    const result = applyContextEdits(thinkingTurns, { clearThinking: { keepTurns: "all" } }, 0);
    expect(result.applied).toEqual([]);
    expect(result.messages).toEqual(thinkingTurns);
  });
});

describe("the wire form", () => {
  it("round-trips, thinking first, and reads applied edits", () => {
    const edits = {
      clearToolUses: edit({ excludeTools: ["a"], clearInputs: true, clearAtLeastTokens: 20 }),
      clearThinking: { keepTurns: 2 },
    };
    const wire = toWireContextManagement(edits);
    expect(wire.edits.map((entry) => entry.type)).toEqual([
      "clear_thinking_20251015",
      "clear_tool_uses_20250919",
    ]);
    expect(fromWireContextManagement(JSON.parse(JSON.stringify(wire)))).toEqual(edits);
    expect(fromWireContextManagement({ edits: [{ type: "clear_tool_uses_20250919" }] })).toEqual({
      clearToolUses: {
        triggerTokens: 100_000,
        keepToolUses: 3,
        clearAtLeastTokens: 0,
        excludeTools: [],
        clearInputs: false,
      },
    });
    expect(readAppliedEdits(undefined)).toBeUndefined();
    expect(
      readAppliedEdits({
        applied_edits: [
          { type: "clear_tool_uses_20250919", cleared_tool_uses: 2, cleared_input_tokens: 9 },
          { type: "other" },
        ],
      }),
    ).toEqual([{ type: "clear_tool_uses_20250919", cleared_tool_uses: 2, cleared_input_tokens: 9 }]);
  });

  it("estimates a string and the text block holding it alike, without cache markers", () => {
    expect(estimateTokens("abcdefgh")).toBe(
      estimateTokens([{ type: "text", text: "abcdefgh", cache_control: { type: "ephemeral" } }]),
    );
  });
});
