/**
 * The filter that keeps withdrawn turns out of requests, and the tracker that tells cheaply whether
 * a history holds any: appends, tail rewrites and whole replacements are all seen.
 */
import { describe, expect, it } from "vitest";
import { WithdrawnTracker } from "../../src/history/withdrawn-turns";
import { isWellFormedHistory, type ModelMessage, withoutWithdrawnTurns } from "../../src/index";

const prompt = (text: string, withdrawn?: "guardrail" | "unchecked"): ModelMessage => ({
  role: "user",
  content: text,
  ...(withdrawn ? { meta: { withdrawn } } : {}),
});
const answer = (text: string): ModelMessage => ({ role: "assistant", content: [{ type: "text", text }] });

describe("WithdrawnTracker", () => {
  it("sees a withdrawn message appended, written over the tail, or in a replaced history", () => {
    const tracker = new WithdrawnTracker();
    const history: ModelMessage[] = [prompt("a"), answer("b")];
    expect(tracker.holds(history)).toBe(false);
    history.push(prompt("c"));
    expect(tracker.holds(history)).toBe(false);
    history.push(prompt("d", "guardrail"));
    expect(tracker.holds(history)).toBe(true);
    const rewritten = [...history.slice(0, 2), prompt("c", "guardrail")];
    expect(tracker.holds(rewritten)).toBe(true);
    const clean = [history[0]!, history[1]!];
    expect(tracker.holds(clean)).toBe(false);
    const tail = [...clean, { ...answer("x"), meta: { withdrawn: "guardrail" as const } }];
    expect(tracker.holds(tail)).toBe(true);
    expect(tracker.holds([prompt("new")])).toBe(false);
  });
});

describe("withoutWithdrawnTurns", () => {
  it("drops withdrawn turns, keeping the results a withdrawn prompt gave to the calls before it", () => {
    const history: ModelMessage[] = [
      prompt("p1"),
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "x", input: {} }] },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "t1", content: "ok" },
          { type: "text", text: "blocked prompt" },
        ],
        meta: { withdrawn: "guardrail" },
      },
      {
        role: "assistant",
        content: [{ type: "text", text: "blocked answer" }],
        meta: { withdrawn: "guardrail" },
      },
      prompt("p2"),
    ];
    const sent = withoutWithdrawnTurns(history);
    expect(JSON.stringify(sent)).not.toContain("blocked");
    expect(isWellFormedHistory(sent)).toBe(true);
    expect(sent).toHaveLength(4);
    expect(withoutWithdrawnTurns([prompt("a", "unchecked")], true)).toHaveLength(1);
    expect(withoutWithdrawnTurns([prompt("a", "unchecked")])).toHaveLength(0);
  });
});
