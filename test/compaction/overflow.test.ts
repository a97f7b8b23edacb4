import { describe, expect, it } from "vitest";
import { isContextWindowExceeded } from "../../src/compaction/overflow";
import type { AssistantModelMessage, StopReason } from "../../src/messages/types";

function stoppedBy(stop_reason: StopReason | null | undefined): AssistantModelMessage {
  return { role: "assistant", content: [{ type: "text", text: "partial" }], stop_reason };
}

describe("isContextWindowExceeded", () => {
  it("recognises stop_reason model_context_window_exceeded", () => {
    expect(isContextWindowExceeded(stoppedBy("model_context_window_exceeded"))).toBe(true);
  });

  it("does not treat max_tokens or any other stop as an overflow", () => {
    for (const reason of ["max_tokens", "end_turn", "tool_use", "refusal", "pause_turn", null, undefined]) {
      expect(isContextWindowExceeded(stoppedBy(reason))).toBe(false);
    }
  });
});
