/** `filterHandoffHistory`: what a specialist's requests carry, without touching history. */
import { describe, expect, it } from "vitest";
import { filterHandoffHistory, isWellFormedHistory, type ModelMessage } from "../../src/index";

const history: ModelMessage[] = [
  { role: "user", content: "earlier question" },
  { role: "assistant", content: [{ type: "text", text: "earlier answer" }] },
  { role: "user", content: [{ type: "text", text: "my invoice" }] },
  { role: "assistant", content: [{ type: "tool_use", id: "h1", name: "transfer_to_billing", input: {} }] },
  {
    role: "user",
    content: [{ type: "tool_result", tool_use_id: "h1", content: "Transferred" }],
    meta: { handoff: { from: "main", to: "billing" } },
  },
  { role: "assistant", content: [{ type: "text", text: "billing answer" }] },
  { role: "user", content: "thanks" },
];

describe("filterHandoffHistory", () => {
  it('"full" and an agent without a handoff to it send history as it is', () => {
    expect(filterHandoffHistory(history, "full", "billing")).toBe(history);
    expect(filterHandoffHistory(history, "none", "tech")).toBe(history);
  });

  it('"none" keeps the prompt that led to the handoff and what followed, well-formed', () => {
    const sent = filterHandoffHistory(history, "none", "billing");
    expect(sent).toEqual([
      { role: "user", content: [{ type: "text", text: "my invoice" }] },
      history[5],
      history[6],
    ]);
    expect(isWellFormedHistory(sent)).toBe(true);
  });

  it('"summary" opens with a transcript of what came before', () => {
    const sent = filterHandoffHistory(history, "summary", "billing");
    expect(sent).toHaveLength(3);
    expect(JSON.stringify(sent[0])).toContain("earlier answer");
    expect(isWellFormedHistory(sent)).toBe(true);
  });

  it("a function gets a deep copy: what it changes never reaches history", () => {
    const before = structuredClone(history);
    const sent = filterHandoffHistory(
      history,
      (messages) => {
        (messages[0] as { content: string }).content = "changed";
        return messages.slice(-3);
      },
      "billing",
    );
    expect(history).toEqual(before);
    expect(sent).toHaveLength(3);
  });
});
