import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findHistoryProblem } from "../../src/compaction/well-formed";
import { repairWellFormed } from "../../src/compaction/well-formed-repair";
import type { ContentBlock, ModelMessage } from "../../src/messages/types";
import { calls, prompt, reply, results, wellFormedHistory } from "./history-fixtures";

const assistant = (...content: ContentBlock[]): ModelMessage => ({ role: "assistant", content });
const text = (value: string): ContentBlock => ({ type: "text", text: value });
const search: ContentBlock = { type: "server_tool_use", id: "s1", name: "tool_search_tool_bm25", input: {} };
const found: ContentBlock = {
  type: "tool_search_tool_result",
  tool_use_id: "s1",
  content: { type: "tool_search_tool_search_result", tool_references: [] },
};

describe("repairWellFormed", () => {
  it("returns a well-formed history as it is, the same objects, nothing dropped", () => {
    fc.assert(
      fc.property(wellFormedHistory, (messages) => {
        const { messages: repaired, dropped } = repairWellFormed(messages);
        expect(dropped).toBe(0);
        for (const [index, message] of repaired.entries()) expect(message).toBe(messages[index]);
      }),
    );
  });

  it("drops leading assistant messages and results whose call is not right before them", () => {
    const repaired = repairWellFormed([reply("hi"), results("t0"), prompt("go"), reply("ok"), results("t1")]);
    expect(repaired.messages).toEqual([prompt("go"), reply("ok")]);
    // Two messages, and each result message: its block and then the message left empty.
    expect(repaired.dropped).toBe(5);
  });

  it("drops calls left without their result, and a message then left with only thinking", () => {
    const thought: ContentBlock = { type: "thinking", thinking: "t", signature: "S" };
    const history = [prompt("go"), assistant(thought, ...calls("t1").content), prompt("well?"), calls("t2")];
    const { messages } = repairWellFormed(history);
    // The last message may still await its results.
    expect(messages).toEqual([prompt("go"), prompt("well?"), calls("t2")]);
    expect(findHistoryProblem(messages)).toBeUndefined();
  });

  it("puts results before the other blocks of their message, and drops a repeated call and its result", () => {
    const late: ModelMessage = {
      role: "user",
      content: [text("also"), { type: "tool_result", tool_use_id: "t1", content: "x" }],
    };
    const { messages } = repairWellFormed([prompt("go"), calls("t1"), late, calls("t1"), results("t1")]);
    expect(messages[2]).toEqual({ role: "user", content: [late.content[1], late.content[0]] });
    expect(messages).toHaveLength(3);
    expect(findHistoryProblem(messages)).toBeUndefined();
  });

  it("keeps a provider call with its result across a continuation, drops one apart from it", () => {
    const continued = [
      prompt("go"),
      assistant(text("looking"), search),
      assistant(found, text("found")),
      prompt("ok"),
    ];
    expect(repairWellFormed(continued).dropped).toBe(0);
    const apart = repairWellFormed([
      prompt("go"),
      assistant(text("looking"), search),
      prompt("hm"),
      assistant(found, text("k")),
    ]);
    expect(apart.messages).toEqual([
      prompt("go"),
      assistant(text("looking")),
      prompt("hm"),
      assistant(text("k")),
    ]);
    expect(findHistoryProblem(apart.messages)).toBeUndefined();
  });

  it("drops blank text, empty messages and blocks of the other role", () => {
    const history: ModelMessage[] = [
      { role: "user", content: "  " },
      prompt("go"),
      assistant(
        text(" "),
        { type: "tool_result", tool_use_id: "x", content: "" } as ContentBlock,
        text("ok"),
      ),
      { role: "user", content: [{ type: "thinking", thinking: "t", signature: "s" }, text("next")] },
      assistant(),
      prompt("more"),
    ];
    const { messages } = repairWellFormed(history);
    expect(messages).toEqual([
      prompt("go"),
      assistant(text("ok")),
      { role: "user", content: [text("next")] },
      prompt("more"),
    ]);
  });
});
