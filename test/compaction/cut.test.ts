import { describe, expect, it } from "vitest";
import { findCompactionCut } from "../../src/compaction/cut";
import type { ModelMessage } from "../../src/messages/types";
import { calls, prompt, reply, results } from "./history-fixtures";

describe("findCompactionCut", () => {
  it("keeps the last keepRecentMessages messages when the cut there is safe", () => {
    const history = [prompt("a"), reply("b"), prompt("c"), reply("d"), prompt("e"), reply("f")];
    expect(findCompactionCut(history, 2)).toBe(4);
    expect(findCompactionCut(history, 3)).toBe(3);
    expect(findCompactionCut(history, 5)).toBe(1);
  });

  it("moves the cut earlier rather than keep a tool_result without its tool_use", () => {
    const history = [prompt("go"), reply("ok"), calls("t1"), results("t1"), reply("done")];
    // Target 3 would start the kept part with the result of t1, called at index 2.
    expect(findCompactionCut(history, 2)).toBe(2);
  });

  it("never splits a batch of calls whose results are kept", () => {
    const history = [prompt("go"), calls("t1", "t2", "t3"), results("t1", "t2", "t3"), reply("done")];
    expect(findCompactionCut(history, 2)).toBe(1);
  });

  it("moves past several tool rounds until no kept result answers a summarised call", () => {
    const history = [prompt("go"), calls("t1"), results("t1"), calls("t2"), results("t2"), reply("done")];
    expect(findCompactionCut(history, 2)).toBe(3);
    expect(findCompactionCut(history, 3)).toBe(3);
    expect(findCompactionCut(history, 4)).toBe(1);
  });

  it("does not start the kept part with a user message carrying tool_results, even orphaned ones", () => {
    const history: ModelMessage[] = [prompt("go"), reply("ok"), results("ghost"), reply("done")];
    expect(findCompactionCut(history, 2)).toBe(1);
  });

  it("lets a result whose call exists nowhere stay in the kept part when it is not first", () => {
    const history: ModelMessage[] = [
      prompt("go"),
      reply("ok"),
      prompt("more"),
      results("ghost"),
      reply("done"),
    ];
    expect(findCompactionCut(history, 3)).toBe(2);
  });

  it("keeps a dangling call with the kept part, or summarises it when keepRecentMessages is 0", () => {
    const history = [prompt("go"), reply("ok"), calls("t1")];
    expect(findCompactionCut(history, 1)).toBe(2);
    expect(findCompactionCut(history, 0)).toBe(3);
  });

  it("summarises everything when keepRecentMessages is 0", () => {
    const history = [prompt("go"), calls("t1"), results("t1"), reply("done")];
    expect(findCompactionCut(history, 0)).toBe(4);
  });

  it("returns undefined when keepRecentMessages covers the whole history", () => {
    const history = [prompt("go"), reply("ok")];
    expect(findCompactionCut(history, 2)).toBeUndefined();
    expect(findCompactionCut(history, 10)).toBeUndefined();
    expect(findCompactionCut([], 0)).toBeUndefined();
  });

  it("returns undefined when no safe cut leaves a message to summarise", () => {
    const lateResult: ModelMessage[] = [calls("t1"), prompt("x"), results("t1")];
    expect(findCompactionCut(lateResult, 1)).toBeUndefined();
    expect(findCompactionCut(lateResult, 0)).toBe(3);
    expect(findCompactionCut([results("ghost"), results("ghost2")], 1)).toBeUndefined();
    expect(findCompactionCut([results("ghost"), results("ghost2"), reply("done")], 1)).toBe(2);
  });

  it("rejects a keepRecentMessages that is negative or not an integer", () => {
    const history = [prompt("go"), reply("ok")];
    expect(() => findCompactionCut(history, -1)).toThrow(RangeError);
    expect(() => findCompactionCut(history, 1.5)).toThrow(RangeError);
    expect(() => findCompactionCut(history, Number.NaN)).toThrow(RangeError);
  });

  it("finds the cut in a history of 100,000 messages", () => {
    const history: ModelMessage[] = [prompt("go")];
    for (let round = 0; round < 50_000; round += 1) history.push(calls(`t${round}`), results(`t${round}`));
    history.push(reply("done"));
    expect(findCompactionCut(history, 6)).toBe(history.length - 7);
  });
});
