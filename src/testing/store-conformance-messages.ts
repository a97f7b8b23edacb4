/**
 * The messages the conformance suite stores: plain ones, a sample conversation with every kind of
 * block and metadata, large and awkward ones, and one that JSON cannot hold.
 * @module
 */
import type { ModelMessage } from "../messages/types";

/** A user message of plain text. */
export function userMessage(text: string): ModelMessage {
  return { role: "user", content: text };
}

/** An assistant message of one text block. */
export function assistantMessage(text: string): ModelMessage {
  return { role: "assistant", content: [{ type: "text", text }], stop_reason: "end_turn" };
}

/** A message JSON cannot hold: storing it must fail before anything is written. */
export function unstorableMessage(): ModelMessage {
  return {
    role: "user",
    content: [{ type: "tool_result", tool_use_id: "x", content: "n" }],
    size: 1n,
  } as unknown as ModelMessage;
}

/**
 * A conversation with thinking, tool search (provider side), tool use and its result, redacted
 * thinking, usage and response metadata.
 */
export function sampleConversation(): ModelMessage[] {
  return [
    { role: "user", content: "What is in README.md?" },
    {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "I should read it.", signature: "sig-1" },
        { type: "text", text: "Let me read it." },
        // Provider-side tool search: kept verbatim, sent back as they are.
        {
          type: "server_tool_use",
          id: "srvtoolu_01",
          name: "tool_search_tool_bm25",
          input: { query: "read file" },
        },
        {
          type: "tool_search_tool_result",
          tool_use_id: "srvtoolu_01",
          content: {
            type: "tool_search_tool_search_result",
            tool_references: [{ type: "tool_reference", tool_name: "read_file" }],
          },
        },
        {
          type: "tool_use",
          id: "toolu_01",
          name: "read_file",
          input: { path: "README.md", nested: { lines: [1, 2] } },
        },
      ],
      stop_reason: "tool_use",
      usage: { input_tokens: 120, output_tokens: 30, cache_read_input_tokens: 100 },
      providerResponseId: "msg_01",
      model: "claude-sonnet-4-6",
    },
    {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_01",
          content: [{ type: "text", text: "# Title" }],
          is_error: false,
        },
      ],
    },
    {
      role: "assistant",
      content: [
        { type: "redacted_thinking", data: "opaque" },
        { type: "text", text: "It has a title." },
      ],
      stop_reason: "end_turn",
    },
  ];
}

/** A 1 MB image, a long text of awkward unicode and control characters, a 300 kB tool input. */
export function largeMessages(): ModelMessage[] {
  const bytes = new Uint8Array(1024 * 1024);
  for (let index = 0; index < bytes.length; index++) bytes[index] = (index * 7919 + 13) % 256;
  const unicode =
    "Grüße, 你好, こんにちは, مرحبا, שלום, 👩‍👩‍👧‍👦 🏳️‍🌈, e\u0301, \u2028\u2029, tab\there, NUL\u0000end, " +
    "quotes \" ' ` backslash \\ \\n literal, newline\nsecond line\r\n, lone surrogate \ud800 and \udfff";
  return [
    {
      role: "user",
      content: [
        { type: "text", text: "Describe this image." },
        {
          type: "image",
          source: { type: "base64", media_type: "image/png", data: Buffer.from(bytes).toString("base64") },
        },
      ],
    },
    { role: "assistant", content: [{ type: "text", text: unicode.repeat(200) }] },
    { role: "user", content: unicode },
    {
      role: "assistant",
      content: [
        {
          type: "tool_use",
          id: "toolu_big",
          name: "write",
          input: { text: "x".repeat(300_000), [unicode]: unicode },
        },
      ],
    },
  ];
}
