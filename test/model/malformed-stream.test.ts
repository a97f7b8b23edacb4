/**
 * A streamed response that breaks the Messages API's event order (issue 17) fails as malformed —
 * an error naming what was wrong — through the built-in client and through an injected SDK client
 * alike, over real HTTP against the mock server's scripted raw events. It is retried when nothing
 * was yielded yet, never when the consumer already saw part of it, and history stays well-formed.
 */
import Anthropic from "@anthropic-ai/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ProviderError } from "../../src/errors";
import { createAgent, isWellFormedHistory, type ModelClient, type SDKMessage } from "../../src/index";
import { createAnthropicClient } from "../../src/model/anthropic";
import { MALFORMED_STREAM_ERROR_TYPE } from "../../src/model/stream-protocol";
import { type MockAnthropicServer, type MockStep, startMockAnthropicServer } from "../../src/testing";

const API_KEY = "sk-ant-test-malformed-0123456789";
const MODEL = "claude-sonnet-4-6";

type RawEvent = { type: string; [key: string]: unknown };

const start = (): RawEvent => ({
  type: "message_start",
  message: {
    id: "msg_raw_1",
    type: "message",
    role: "assistant",
    model: MODEL,
    content: [],
    stop_reason: null,
    usage: { input_tokens: 10, output_tokens: 1 },
  },
});
const blockStart = (index: number, type = "text"): RawEvent => ({
  type: "content_block_start",
  index,
  content_block: type === "text" ? { type: "text", text: "" } : { type, thinking: "", signature: "" },
});
const text = (index: number, value: string): RawEvent => ({
  type: "content_block_delta",
  index,
  delta: { type: "text_delta", text: value },
});
const blockStop = (index: number): RawEvent => ({ type: "content_block_stop", index });
const end = (): RawEvent[] => [
  {
    type: "message_delta",
    delta: { stop_reason: "end_turn", stop_sequence: null },
    usage: { output_tokens: 5 },
  },
  { type: "message_stop" },
];

/** Each violation, as the events a stream sends, and what the error must say. */
const VIOLATIONS: Array<{ name: string; events: RawEvent[]; says: string }> = [
  {
    name: "a delta for an index that was never started",
    events: [start(), blockStart(0), text(0, "Kept "), text(1, "lost"), blockStop(0), ...end()],
    says: "a content_block_delta for block 1, which was never started",
  },
  {
    name: "a duplicate message_start",
    events: [start(), start(), blockStart(0), text(0, "Hi"), blockStop(0), ...end()],
    says: "a second message_start",
  },
  {
    name: "a delta before message_start",
    events: [text(0, "early"), start(), blockStart(0), text(0, "Hi"), blockStop(0), ...end()],
    says: "a content_block_delta event before message_start",
  },
  {
    name: "a stop for a block never started",
    events: [start(), blockStart(0), text(0, "Hi"), blockStop(0), blockStop(1), ...end()],
    says: "a content_block_stop for block 1, which was never started",
  },
  {
    name: "a delta whose type does not fit its block",
    events: [
      start(),
      blockStart(0),
      { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "hmm" } },
      blockStop(0),
      ...end(),
    ],
    says: "a thinking_delta for block 0, which is a text block",
  },
  {
    name: "a delta after its block stopped",
    events: [start(), blockStart(0), text(0, "Hi"), blockStop(0), text(0, " again"), ...end()],
    says: "a content_block_delta for block 0 after its content_block_stop",
  },
  {
    name: "a block started twice",
    events: [start(), blockStart(0), text(0, "Hi"), blockStop(0), blockStart(0), blockStop(0), ...end()],
    says: "a second content_block_start for block 0",
  },
];

let server: MockAnthropicServer;
beforeEach(async () => {
  server = await startMockAnthropicServer();
});
afterEach(async () => {
  await server.close();
});

const CLIENTS: Array<[string, () => ModelClient]> = [
  ["the built-in client", () => createAnthropicClient({ apiKey: API_KEY, baseURL: server.url })],
  [
    "an injected SDK client",
    () => createAnthropicClient({ anthropic: new Anthropic({ apiKey: API_KEY, baseURL: server.url }) }),
  ],
];

function raw(events: RawEvent[]): MockStep {
  return { fault: "raw_events", events };
}

async function run(client: ModelClient, maxRetries: number, includePartialMessages = false) {
  const agent = createAgent({
    model: MODEL,
    client,
    retry: { maxRetries, initialDelayMs: 1, maxDelayMs: 1 },
    includePartialMessages,
  });
  const messages: SDKMessage[] = [];
  for await (const message of agent.query("Hello")) messages.push(message);
  const result = messages.at(-1);
  if (result?.type !== "result") throw new Error("the query did not end with a result");
  return { result, messages, history: await agent.getHistory() };
}

describe.each(CLIENTS)("a malformed stream through %s", (_name, client) => {
  it.each(VIOLATIONS)("$name: fails naming it, and is retried", async ({ events, says }) => {
    server.enqueue(raw(events), { content: "Recovered." });
    const { result, messages, history } = await run(client(), 1);
    expect(result).toMatchObject({ subtype: "success", result: "Recovered.", num_turns: 1 });
    expect(server.requests).toHaveLength(2);
    const retry = messages.find((message) => message.type === "system" && message.subtype === "api_retry");
    expect(retry).toMatchObject({ error_type: MALFORMED_STREAM_ERROR_TYPE });
    const error = (retry as { error?: unknown }).error;
    expect(error).toBeInstanceOf(ProviderError);
    // The mock is not the Anthropic API: the error names the server that sent the stream.
    expect((error as Error).message).toBe(
      `Model provider ${new URL(server.url).host} stream is malformed: ${says}.`,
    );
    // Nothing of the malformed response entered history.
    expect(isWellFormedHistory(history)).toBe(true);
    expect(history).toEqual([
      { role: "user", content: "Hello" },
      expect.objectContaining({ role: "assistant", content: [{ type: "text", text: "Recovered." }] }),
    ]);
  });

  it("with no retry left: the query fails with the malformed-stream error, history well-formed", async () => {
    server.enqueue(raw(VIOLATIONS[0]!.events));
    const { result, history } = await run(client(), 0);
    expect(result.subtype).toBe("error_during_execution");
    expect(result.error).toBeInstanceOf(ProviderError);
    expect(result.error?.message).toContain("which was never started");
    expect((result.error as ProviderError).errorType).toBe(MALFORMED_STREAM_ERROR_TYPE);
    expect(isWellFormedHistory(history)).toBe(true);
    expect(history.some((message) => message.role === "assistant")).toBe(false);
  });

  it("is not retried once the consumer saw part of it", async () => {
    server.enqueue(raw(VIOLATIONS[0]!.events), { content: "Never requested." });
    const { result, messages, history } = await run(client(), 2, true);
    expect(server.requests).toHaveLength(1);
    expect(result.subtype).toBe("error_during_execution");
    expect((result.error as ProviderError).errorType).toBe(MALFORMED_STREAM_ERROR_TYPE);
    expect((result.error as ProviderError).partial).toBe(true);
    const shown = messages.flatMap((message) =>
      message.type === "stream_event" &&
      message.event.type === "content_block_delta" &&
      message.event.delta.type === "text_delta"
        ? [message.event.delta.text]
        : [],
    );
    expect(shown).toContain("Kept ");
    expect(messages.some((message) => message.type === "system" && message.subtype === "api_retry")).toBe(
      false,
    );
    expect(isWellFormedHistory(history)).toBe(true);
  });

  it("a well-formed stream with a ping and an unknown event type still assembles", async () => {
    server.enqueue(
      raw([
        start(),
        { type: "ping" },
        blockStart(0),
        text(0, "Fine"),
        { type: "future_event", index: 0 },
        blockStop(0),
        ...end(),
      ]),
    );
    const { result } = await run(client(), 0);
    expect(result).toMatchObject({ subtype: "success", result: "Fine" });
  });
});
