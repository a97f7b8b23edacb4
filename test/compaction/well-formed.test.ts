import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findHistoryProblem, isWellFormedHistory } from "../../src/compaction/well-formed";
import type { ContentBlock, ModelMessage } from "../../src/messages/types";
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

describe("findHistoryProblem: blocks and the provider's own tool calls", () => {
  const search = (id: string): ContentBlock => ({
    type: "server_tool_use",
    id,
    name: "tool_search_tool_bm25",
    input: { query: "weather" },
  });
  const found = (id: string): ContentBlock => ({
    type: "tool_search_tool_result",
    tool_use_id: id,
    content: {
      type: "tool_search_tool_search_result",
      tool_references: [{ type: "tool_reference", tool_name: "w" }],
    },
  });
  const assistant = (...content: ContentBlock[]): ModelMessage => ({ role: "assistant", content });
  const text = (value: string): ContentBlock => ({ type: "text", text: value });

  it("accepts a server-tool call with its result in one message, or across a pause_turn continuation", () => {
    expect(
      findHistoryProblem([prompt("go"), assistant(search("s1"), found("s1"), text("ok"))]),
    ).toBeUndefined();
    const continued = [
      prompt("go"),
      assistant(search("s1")),
      assistant(found("s1"), text("ok")),
      prompt("thanks"),
    ];
    expect(findHistoryProblem(continued)).toBeUndefined();
    // The last turn may still await the provider (a pause_turn not continued yet).
    expect(findHistoryProblem([prompt("go"), assistant(text("looking"), search("s1"))])).toBeUndefined();
  });

  it("rejects a server-tool result without its call in the turn, a call left open, and a repeated id", () => {
    expect(findHistoryProblem([prompt("go"), assistant(found("s1"), text("ok"))])).toMatch(
      /no server_tool_use/,
    );
    expect(findHistoryProblem([prompt("go"), assistant(found("s1"), search("s1"))])).toMatch(
      /no server_tool_use/,
    );
    expect(
      findHistoryProblem([
        prompt("go"),
        assistant(search("s1")),
        prompt("x"),
        assistant(found("s1"), text("k")),
      ]),
    ).toMatch(/server_tool_use s1 without its result/);
    const twice = [prompt("a"), assistant(search("s1"), found("s1"), text("k")), prompt("b")];
    expect(findHistoryProblem([...twice, assistant(search("s1"), found("s1"), text("k"))])).toMatch(
      /repeats the server_tool_use id s1/,
    );
  });

  it("rejects assistant-only blocks in a user message", () => {
    for (const block of [
      { type: "thinking", thinking: "t", signature: "s" },
      { type: "redacted_thinking", data: "d" },
      search("s1"),
      found("s1"),
      { type: "compaction", content: "summary" },
    ] as ContentBlock[]) {
      expect(findHistoryProblem([{ role: "user", content: [text("hi"), block] }])).toMatch(
        new RegExp(`user message holding a ${block.type}`),
      );
    }
  });

  it("rejects thinking without its signature and redacted thinking without its data", () => {
    const unsigned = { type: "thinking", thinking: "t" } as unknown as ContentBlock;
    expect(findHistoryProblem([prompt("go"), assistant(unsigned, text("ok"))])).toMatch(
      /without its signature/,
    );
    const empty = { type: "redacted_thinking" } as unknown as ContentBlock;
    expect(findHistoryProblem([prompt("go"), assistant(empty, text("ok"))])).toMatch(/without its data/);
  });

  it("rejects empty messages (but a last assistant message) and blank text", () => {
    expect(findHistoryProblem([prompt("go"), assistant()])).toBeUndefined();
    expect(findHistoryProblem([prompt("go"), assistant(), prompt("again")])).toMatch(
      /message 1 has empty content/,
    );
    expect(findHistoryProblem([prompt("  "), reply("x")])).toMatch(/message 0 has empty content/);
    expect(findHistoryProblem([{ role: "user", content: [] }])).toMatch(/empty content/);
    expect(findHistoryProblem([prompt("go"), assistant(text(" \n"))])).toMatch(/blank text block 0/);
  });
});
