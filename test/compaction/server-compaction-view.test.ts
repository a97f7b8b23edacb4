/**
 * The history a request carries when it cannot hand a `compaction` block to the provider: the last
 * summary as the opening user message, what followed it, no compaction block anywhere, roles
 * alternating — and history without a block passed through as it is.
 */
import { describe, expect, it } from "vitest";
import { wrapSummary } from "../../src/compaction/prompt";
import {
  hasServerCompaction,
  lastServerCompaction,
  withoutServerCompaction,
} from "../../src/compaction/server-compaction-view";
import { renderTranscript } from "../../src/compaction/transcript";
import type { CompactionBlock, ModelMessage } from "../../src/messages/types";

const block = (content: string | null): CompactionBlock => ({
  type: "compaction",
  content,
  encrypted_content: "b3BhcXVl",
  signature: "sig",
});

const history: ModelMessage[] = [
  { role: "user", content: "Read a." },
  { role: "assistant", content: [{ type: "tool_use", id: "a", name: "read", input: {} }] },
  { role: "user", content: [{ type: "tool_result", tool_use_id: "a", content: "A" }] },
  {
    role: "assistant",
    content: [block("first summary"), { type: "tool_use", id: "b", name: "read", input: {} }],
  },
  { role: "user", content: [{ type: "tool_result", tool_use_id: "b", content: "B" }] },
  { role: "assistant", content: [block("second summary")] },
  { role: "user", content: "Go on." },
  { role: "assistant", content: [block(null), { type: "text", text: "Done." }] },
];

describe("withoutServerCompaction", () => {
  it("passes a history without compaction blocks through as the same array", () => {
    const plain = history.slice(0, 3);
    expect(hasServerCompaction(plain)).toBe(false);
    expect(withoutServerCompaction(plain)).toBe(plain);
  });

  it("starts from the last summary, drops failed compactions and merges the user turns it makes adjacent", () => {
    expect(lastServerCompaction(history)).toEqual({
      messageIndex: 5,
      blockIndex: 0,
      summary: "second summary",
    });
    expect(withoutServerCompaction(history)).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: wrapSummary("second summary") },
          { type: "text", text: "Go on." },
        ],
      },
      { role: "assistant", content: [{ type: "text", text: "Done." }] },
    ]);
  });

  it("keeps the blocks that follow the summary in its own message", () => {
    const view = withoutServerCompaction(history.slice(0, 5));
    expect(view[0]).toEqual({
      role: "user",
      content: [{ type: "text", text: wrapSummary("first summary") }],
    });
    expect(view.slice(1)).toEqual(
      history
        .slice(3, 5)
        .map((message, index) =>
          index === 0
            ? { ...message, content: [{ type: "tool_use", id: "b", name: "read", input: {} }] }
            : message,
        ),
    );
    expect(history[3]!.content).toHaveLength(2); // history itself untouched
  });

  it("puts the provider's summary into our compaction's transcript", () => {
    expect(renderTranscript(history.slice(3, 4))).toContain("first summary");
  });
});
