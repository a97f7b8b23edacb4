/** Secrets split across the text blocks of one content array are redacted over the joined text. */
import { describe, expect, it } from "vitest";
import { redactMessage } from "../../src/messages/redact-message";
import type { ModelMessage } from "../../src/messages/types";

const SECRET = "tenant-7f3a9c-credential-5b21d8e4f0";
const secrets = [SECRET];

const text = (value: string) => ({ type: "text" as const, text: value });

describe("redactMessage across blocks", () => {
  it("two text blocks of an assistant message: each part replaced, the rest kept, no block empty", () => {
    const message: ModelMessage = {
      role: "assistant",
      content: [text("the key is tenant-7f3a9c-cred"), text("ential-5b21d8e4f0, keep it")],
    };
    expect(redactMessage(message, secrets).content).toEqual([
      text("the key is [redacted]"),
      text("[redacted], keep it"),
    ]);
  });

  it("a credential pattern split in three, with a tool call between two of the blocks", () => {
    const message: ModelMessage = {
      role: "assistant",
      content: [
        text("use sk-a"),
        text("nt-api03-"),
        { type: "tool_use", id: "t1", name: "run", input: { note: "sk-a" } },
        text("Abc123_x then stop"),
      ],
    };
    const clean = redactMessage(message, []);
    expect(clean.content).toEqual([
      text("use [redacted]"),
      text("[redacted]"),
      { type: "tool_use", id: "t1", name: "run", input: { note: "sk-a" } },
      text("[redacted] then stop"),
    ]);
  });

  it("a tool result's text blocks, inside a user message, inside an SDK message", () => {
    const sdk = {
      type: "user",
      message: {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "t1",
            content: [text("Bearer abcdefgh"), text("ijklmnop done")],
          },
        ],
      },
    };
    const clean = redactMessage(sdk, []);
    expect(clean.message.content[0]!.content).toEqual([text("Bearer [redacted]"), text("[redacted] done")]);
  });

  it("leaves values without a split secret as they are (same object), and separate tool results apart", () => {
    const message: ModelMessage = { role: "assistant", content: [text("tenant-7f3a9c"), text("hello")] };
    expect(redactMessage(message, secrets)).toBe(message);
    const results: ModelMessage = {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "a", content: "tenant-7f3a9c-cred" },
        { type: "tool_result", tool_use_id: "b", content: "ential-5b21d8e4f0" },
      ],
    };
    expect(redactMessage(results, secrets)).toBe(results);
  });

  it("secrets whole in one block are redacted as before; thinking is never rewritten", () => {
    const message: ModelMessage = {
      role: "assistant",
      content: [
        { type: "thinking", thinking: `tenant-7f3a9c-cred`, signature: "sig" },
        text(`ential-5b21d8e4f0 and ${SECRET}`),
        text("end"),
      ],
    };
    expect(redactMessage(message, secrets).content).toEqual([
      { type: "thinking", thinking: "tenant-7f3a9c-cred", signature: "sig" },
      text("ential-5b21d8e4f0 and [redacted]"),
      text("end"),
    ]);
  });

  it("histories nested in pause markers are walked too", () => {
    const marker = {
      role: "user",
      content: [text("[waiting]")],
      pending_approvals: [],
      suspended_calls: [
        {
          tool_use_id: "s",
          agent: "child",
          pending_ids: [],
          history: [
            { role: "assistant", content: [text("x tenant-7f3a9c-"), text("credential-5b21d8e4f0")] },
          ],
        },
      ],
    };
    const clean = redactMessage(marker, secrets);
    expect(clean.suspended_calls[0]!.history[0]!.content).toEqual([text("x [redacted]"), text("[redacted]")]);
    expect(marker.suspended_calls[0]!.history[0]!.content[0]).toEqual(text("x tenant-7f3a9c-"));
  });
});
