/**
 * A server compaction as the built-in client reads it: the `compaction` block kept whole (JSON, and
 * streamed as `content_block_start` + one `compaction_delta`), the compaction's usage from
 * `usage.iterations` (never from the top-level usage) recorded in `meta.compaction_usage`, and the
 * request's betas and edit.
 */
import { describe, expect, it } from "vitest";
import { betaHeaderOf, toAnthropicRequestBody, toCountTokensBody } from "../../src/model/anthropic-request";
import { toAssistantMessage } from "../../src/model/anthropic-response";
import { StreamedMessageAssembler } from "../../src/model/anthropic-stream";
import type { ModelRequest } from "../../src/model/client";
import { readCompactionUsage } from "../../src/model/server-compaction";

const block = { type: "compaction", content: "Summary.", encrypted_content: "b3BhcXVl", signature: "c2ln" };
const usage = {
  input_tokens: 900,
  output_tokens: 12,
  iterations: [
    { type: "compaction", input_tokens: 160_000, output_tokens: 800, cache_read_input_tokens: 0 },
    { type: "message", input_tokens: 900, output_tokens: 12 },
  ],
};

describe("reading a server compaction", () => {
  it("keeps the block whole and reads the compaction's usage apart (JSON)", () => {
    const message = toAssistantMessage({ content: [block, { type: "text", text: "Hi" }], usage });
    expect(message.content[0]).toEqual(block);
    expect(message.usage).toEqual({ input_tokens: 900, output_tokens: 12 });
    expect(message.meta?.compaction_usage).toEqual({
      input_tokens: 160_000,
      output_tokens: 800,
      cache_read_input_tokens: 0,
    });
  });

  it("assembles a streamed compaction block from its start and one compaction_delta", () => {
    const stream = new StreamedMessageAssembler();
    stream.apply({
      type: "message_start",
      message: { id: "m", model: "x", usage: { input_tokens: 900 } },
    } as never);
    stream.apply({
      type: "content_block_start",
      index: 0,
      content_block: { type: "compaction", content: null, encrypted_content: null, signature: "c2ln" },
    } as never);
    stream.apply({
      type: "content_block_delta",
      index: 0,
      delta: { type: "compaction_delta", content: "Summary.", encrypted_content: "b3BhcXVl" },
    } as never);
    stream.apply({ type: "content_block_stop", index: 0 } as never);
    stream.apply({ type: "message_delta", delta: { stop_reason: "end_turn" }, usage } as never);
    stream.apply({ type: "message_stop" } as never);
    const message = stream.toMessage();
    expect(message.content).toEqual([block]);
    expect(message.meta?.compaction_usage?.input_tokens).toBe(160_000);
  });

  it("refuses a compaction_delta on another block type (stream protocol)", () => {
    const stream = new StreamedMessageAssembler();
    stream.apply({ type: "message_start", message: {} } as never);
    stream.apply({
      type: "content_block_start",
      index: 0,
      content_block: { type: "text", text: "" },
    } as never);
    expect(() =>
      stream.apply({
        type: "content_block_delta",
        index: 0,
        delta: { type: "compaction_delta", content: "x" },
      } as never),
    ).toThrow(/compaction_delta for block 0, which is a text block/);
  });

  it("reports no compaction usage without compaction entries", () => {
    expect(
      readCompactionUsage({ input_tokens: 5, iterations: [{ type: "message", input_tokens: 5 }] }),
    ).toBeUndefined();
    expect(readCompactionUsage({ input_tokens: 5 })).toBeUndefined();
  });
});

describe("asking for a server compaction", () => {
  const request = (contextManagement: ModelRequest["contextManagement"]): ModelRequest => ({
    model: "claude-sonnet-4-6",
    messages: [{ role: "user", content: "Hi" }],
    maxTokens: 100,
    signal: new AbortController().signal,
    contextManagement,
  });

  it("sends compact_20260112 last with its own beta, and both betas with context edits", () => {
    const compact = { triggerTokens: 60_000, instructions: "Keep file names." };
    expect(toAnthropicRequestBody(request({ compact })).context_management).toEqual({
      edits: [
        {
          type: "compact_20260112",
          trigger: { type: "input_tokens", value: 60_000 },
          instructions: "Keep file names.",
        },
      ],
    });
    expect(betaHeaderOf(request({ compact }))).toBe("compact-2026-01-12");
    const both = request({ compact, clearThinking: { keepTurns: 1 } });
    expect(betaHeaderOf(both)).toBe("context-management-2025-06-27,compact-2026-01-12");
    expect(toAnthropicRequestBody(both).context_management?.edits.map((edit) => edit.type)).toEqual([
      "clear_thinking_20251015",
      "compact_20260112",
    ]);
    // Counting asks for the context edits only, never for a compaction.
    expect(toCountTokensBody(both).context_management).toEqual({
      edits: [{ type: "clear_thinking_20251015", keep: { type: "thinking_turns", value: 1 } }],
    });
    expect(toCountTokensBody(request({ compact })).context_management).toBeUndefined();
  });
});
