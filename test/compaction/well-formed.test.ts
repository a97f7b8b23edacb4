import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findHistoryProblem, isWellFormedHistory } from "../../src/compaction/well-formed";
import type { ModelMessage } from "../../src/messages/types";
import { calls, prompt, reply, results, wellFormedHistory } from "./history-fixtures";

describe("findHistoryProblem", () => {
  it("accepts an empty history and a plain exchange", () => {
    expect(findHistoryProblem([])).toBeUndefined();
    expect(findHistoryProblem([prompt("hi"), reply("hello")])).toBeUndefined();
  });

  it("accepts tool rounds answered in the next message, and calls still awaiting results at the end", () => {
    const history = [prompt("go"), calls("t1", "t2"), results("t2", "t1"), calls("t3")];
    expect(findHistoryProblem(history)).toBeUndefined();
  });

  it("accepts consecutive user messages and consecutive assistant messages without calls", () => {
    expect(findHistoryProblem([prompt("a"), prompt("b"), reply("c"), reply("d")])).toBeUndefined();
  });

  it("accepts text after the results in a user message", () => {
    const answer: ModelMessage = {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "t1", content: "x" },
        { type: "text", text: "also this" },
      ],
    };
    expect(findHistoryProblem([prompt("go"), calls("t1"), answer])).toBeUndefined();
  });

  it("rejects a history that starts with an assistant message", () => {
    expect(findHistoryProblem([reply("hello")])).toMatch(/start with a user message/);
  });

  it("rejects a call whose result is missing from the next message", () => {
    expect(findHistoryProblem([prompt("go"), calls("t1", "t2"), results("t1")])).toMatch(
      /does not answer.*t2/,
    );
    expect(findHistoryProblem([prompt("go"), calls("t1"), prompt("what now?")])).toMatch(
      /does not answer.*t1/,
    );
    expect(findHistoryProblem([prompt("go"), calls("t1"), reply("hm")])).toMatch(
      /t1 before it are unanswered/,
    );
  });

  it("rejects a result answered late, or for a call that does not exist", () => {
    expect(findHistoryProblem([prompt("go"), calls("t1"), prompt("x"), results("t1")])).toMatch(
      /does not answer/,
    );
    expect(findHistoryProblem([prompt("go"), reply("ok"), results("ghost")])).toMatch(
      /ghost, which the message/,
    );
    expect(findHistoryProblem([results("ghost")])).toMatch(/ghost, which the message/);
  });

  it("rejects a call answered twice", () => {
    expect(findHistoryProblem([prompt("go"), calls("t1"), results("t1", "t1")])).toMatch(/answers t1 twice/);
  });

  it("rejects a repeated tool_use id", () => {
    const history = [prompt("go"), calls("t1"), results("t1"), calls("t1"), results("t1")];
    expect(findHistoryProblem(history)).toMatch(/repeats the tool_use id t1/);
  });

  it("rejects blocks in the wrong role", () => {
    const resultInAssistant: ModelMessage = {
      role: "assistant",
      content: [{ type: "tool_result", tool_use_id: "t1", content: "x" }],
    };
    const callInUser: ModelMessage = { role: "user", content: calls("t1").content };
    expect(findHistoryProblem([prompt("go"), resultInAssistant])).toMatch(
      /assistant message holding a tool_result/,
    );
    expect(findHistoryProblem([callInUser])).toMatch(/user message holding a tool_use/);
  });

  it("rejects a tool_result placed after text in its message", () => {
    const answer: ModelMessage = {
      role: "user",
      content: [
        { type: "text", text: "first" },
        { type: "tool_result", tool_use_id: "t1", content: "x" },
      ],
    };
    expect(findHistoryProblem([prompt("go"), calls("t1"), answer])).toMatch(/after another kind of block/);
  });

  it("flags the removal of any tool result message other than the last (property)", () => {
    // Removing the last message may leave calls awaiting their results at the end, which is allowed.
    const answersBeforeTheEnd = (messages: ModelMessage[]) =>
      messages.flatMap((message, index) => (isAnswer(message) && index < messages.length - 1 ? [index] : []));
    const withRemovableAnswer = wellFormedHistory.filter(
      (messages) => answersBeforeTheEnd(messages).length > 0,
    );
    fc.assert(
      fc.property(withRemovableAnswer, fc.nat(), (messages, pick) => {
        const answers = answersBeforeTheEnd(messages);
        const removed = answers[pick % answers.length]!;
        const broken = [...messages.slice(0, removed), ...messages.slice(removed + 1)];
        expect(isWellFormedHistory(broken)).toBe(false);
      }),
    );
  });
});

function isAnswer(message: ModelMessage): boolean {
  return Array.isArray(message.content) && message.content.some((block) => block.type === "tool_result");
}

describe("isWellFormedHistory on values that are not messages (issue 17)", () => {
  it.each([
    ["[null]", [null]],
    ["[undefined]", [undefined]],
    ["[42]", [42]],
    ["a message without role", [{ content: "hi" }]],
    ["a message with content null", [{ role: "user", content: null }]],
    ["a null block", [{ role: "user", content: [null] }]],
    [
      "an assistant with string content",
      [
        { role: "user", content: "hi" },
        { role: "assistant", content: "hi" },
      ],
    ],
  ])("returns false, never throws: %s", (_name, history) => {
    expect(isWellFormedHistory(history as never)).toBe(false);
    expect(findHistoryProblem(history as never)).toEqual(expect.any(String));
  });

  it("returns false for any array of arbitrary values that are not messages (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constant(null), fc.integer(), fc.string(), fc.constant(undefined)), {
          minLength: 1,
        }),
        (values) => {
          expect(isWellFormedHistory(values as never)).toBe(false);
        },
      ),
    );
  });
});
