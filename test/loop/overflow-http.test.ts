/**
 * Overflow recovery through the built-in client against the mock Messages API server, streaming
 * and not: a 400 "prompt is too long" and a `model_context_window_exceeded` stop each compact and
 * retry the same turn; a second overflow in the same query surfaces the provider's error.
 */
import { describe, expect, it } from "vitest";
import { wrapSummary } from "../../src/compaction/prompt";
import {
  ContextWindowExceededError,
  createAgent,
  createAnthropicClient,
  DEFAULT_COMPACTION_PROMPT,
  ProviderError,
} from "../../src/index";
import type { MockStep } from "../../src/testing/index";
import { mockServerPerTest } from "../support/mock-server";
import { fetchCall, fetchTool, systemMessages } from "./compaction-support";
import { collect, expectWellFormed, kinds, lastResult, MODEL } from "./support";

const API_KEY = "sk-ant-test-overflow-0123456789";

const PROMPT_TOO_LONG: MockStep = {
  fault: "status",
  status: 400,
  body: {
    type: "error",
    error: { type: "invalid_request_error", message: "prompt is too long: 210000 tokens > 200000 maximum" },
  },
};

const FETCH_TURN: MockStep = {
  content: [fetchCall("toolu_1", { text: "the document" })],
  usage: { input_tokens: 120, output_tokens: 9 },
};
const SUMMARY: MockStep = {
  content: "The user asked to read the document; it was read.",
  usage: { input_tokens: 300, output_tokens: 20 },
};
const FINAL: MockStep = { content: "All done.", usage: { input_tokens: 90, output_tokens: 4 } };

/** Whether a wire request body carries the default compaction prompt as a text block. */
function isCompactionBody(body: { messages: Array<{ content: unknown }> }): boolean {
  return body.messages.some(
    (message) =>
      Array.isArray(message.content) &&
      message.content.some(
        (block: { type: string; text?: string }) =>
          block.type === "text" && block.text === DEFAULT_COMPACTION_PROMPT,
      ),
  );
}

describe.each([
  { mode: "streaming", stream: true },
  { mode: "non-streaming", stream: false },
])("overflow recovery over HTTP ($mode)", ({ stream }) => {
  const server = mockServerPerTest();

  function agentOverServer() {
    return createAgent({
      model: MODEL,
      client: createAnthropicClient({ apiKey: API_KEY, baseURL: server.url, stream }),
      tools: [fetchTool],
      autoCompact: { thresholdTokens: 10_000_000, keepRecentMessages: 2 },
    });
  }

  it("a 400 prompt-too-long is recovered: compaction, then the same turn again, which succeeds", async () => {
    server.enqueue(FETCH_TURN, PROMPT_TOO_LONG, SUMMARY, FINAL);
    const agent = agentOverServer();

    const messages = await collect(agent.query("Read the document."));

    const result = lastResult(messages);
    expect(result.subtype).toBe("success");
    expect(result.result).toBe("All done.");
    expect(kinds(messages)).toEqual([
      "system:init",
      "assistant",
      "user",
      "system:compaction",
      "assistant",
      "result:success",
    ]);
    expect(systemMessages(messages, "compaction")[0]).toMatchObject({
      trigger: "overflow",
      compacted_messages: 1,
      usage: { input_tokens: 300, output_tokens: 20 },
    });
    expect(server.requests).toHaveLength(4);
    const [, rejected, summary, retried] = server.requests.map((request) => request.body);
    expect(isCompactionBody(summary)).toBe(true);
    expect(summary.tools).toBeUndefined();
    expect(isCompactionBody(retried)).toBe(false);
    expect(retried.messages[0]).toEqual({
      role: "user",
      content: wrapSummary("The user asked to read the document; it was read."),
    });
    expect(retried.messages.slice(1)).toEqual(rejected.messages.slice(1));
    // On the wire the kept messages carry API fields only.
    expect(JSON.stringify(retried.messages)).not.toMatch(/providerResponseId|"usage"|stop_reason/);
    expect(result.usage).toMatchObject({ input_tokens: 120 + 300 + 90, output_tokens: 9 + 20 + 4 });
    expectWellFormed(await agent.getHistory());
  });

  it("a model_context_window_exceeded stop is recovered and its response never enters history", async () => {
    server.enqueue(
      FETCH_TURN,
      {
        content: "cut off mid-wor",
        stop_reason: "model_context_window_exceeded",
        usage: { input_tokens: 199_990, output_tokens: 6 },
      },
      SUMMARY,
      FINAL,
    );
    const agent = agentOverServer();

    const messages = await collect(agent.query("Read the document."));

    expect(lastResult(messages).subtype).toBe("success");
    expect(systemMessages(messages, "compaction")).toHaveLength(1);
    expect(JSON.stringify(await agent.getHistory())).not.toContain("cut off mid-wor");
    expect(server.requests[3]!.body.messages.slice(1)).toEqual(server.requests[1]!.body.messages.slice(1));
  });

  it("a second prompt-too-long in the same query ends error_during_execution with the provider's error", async () => {
    server.enqueue(FETCH_TURN, PROMPT_TOO_LONG, SUMMARY, PROMPT_TOO_LONG);
    const agent = agentOverServer();

    const result = await agent.prompt("Read the document.");

    expect(result.subtype).toBe("error_during_execution");
    expect(result.error).toBeInstanceOf(ProviderError);
    expect((result.error as ProviderError).status).toBe(400);
    expect(result.error!.message).toContain("prompt is too long: 210000 tokens > 200000 maximum");
    expect(result.error!.message).not.toContain(API_KEY);
    expect(server.requests).toHaveLength(4);
  });

  it("a summary request that fails too surfaces the original overflow, not the summary's failure", async () => {
    server.enqueue(
      FETCH_TURN,
      { content: "cut", stop_reason: "model_context_window_exceeded" },
      {
        fault: "status",
        status: 400,
        body: { type: "error", error: { type: "invalid_request_error", message: "bad summary request" } },
      },
    );
    const agent = agentOverServer();

    const messages = await collect(agent.query("Read the document."));

    const result = lastResult(messages);
    expect(result.subtype).toBe("error_during_execution");
    expect(result.error).toBeInstanceOf(ContextWindowExceededError);
    expect(systemMessages(messages, "compaction_failed")[0]!.error.message).toContain("bad summary request");
    expect(server.requests).toHaveLength(3);
  });
});

describe("overflow recovery over a raw stream", () => {
  /** A client whose `fetch` answers each request with the next of these SSE frame lists. */
  function clientOverRawStreams(streams: unknown[][]) {
    const bodies: unknown[] = [];
    const client = createAnthropicClient({
      apiKey: API_KEY,
      baseURL: "http://127.0.0.1:1",
      fetch: async (_input, init) => {
        bodies.push(JSON.parse(String(init?.body)));
        const frames = streams.shift();
        if (!frames) return new Response("no stream left", { status: 500 });
        const text = frames.map((frame) => `data: ${JSON.stringify(frame)}\n\n`).join("");
        return new Response(text, { status: 200, headers: { "content-type": "text/event-stream" } });
      },
    });
    return { client, bodies };
  }

  function textStream(text: string, usage: { input_tokens: number; output_tokens: number }) {
    return [
      { type: "message_start", message: { id: "msg_t", model: MODEL, usage } },
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } },
      { type: "content_block_stop", index: 0 },
      {
        type: "message_delta",
        delta: { stop_reason: "end_turn" },
        usage: { output_tokens: usage.output_tokens },
      },
      { type: "message_stop" },
    ];
  }

  it("a window that runs out while a tool input streams is an overflow, not a malformed-input failure", async () => {
    // The window ran out in the middle of a tool call's input JSON: the stop reason says so.
    const cutMidToolInput = [
      {
        type: "message_start",
        message: { id: "msg_o", model: MODEL, usage: { input_tokens: 199_990, output_tokens: 1 } },
      },
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "tool_use", id: "toolu_cut", name: "fetch", input: {} },
      },
      {
        type: "content_block_delta",
        index: 0,
        delta: { type: "input_json_delta", partial_json: '{"text": "the docu' },
      },
      { type: "content_block_stop", index: 0 },
      {
        type: "message_delta",
        delta: { stop_reason: "model_context_window_exceeded" },
        usage: { output_tokens: 9 },
      },
      { type: "message_stop" },
    ];
    const { client, bodies } = clientOverRawStreams([
      textStream("Noted.", { input_tokens: 100, output_tokens: 2 }),
      cutMidToolInput,
      textStream("The user said hello; it was noted.", { input_tokens: 300, output_tokens: 20 }),
      textStream("All done.", { input_tokens: 90, output_tokens: 4 }),
    ]);
    const agent = createAgent({
      model: MODEL,
      client,
      tools: [fetchTool],
      retry: { maxRetries: 0 },
      autoCompact: { thresholdTokens: 10_000_000, keepRecentMessages: 1 },
    });
    await agent.prompt("Hello.");

    const messages = await collect(agent.query("Read the document."));

    const result = lastResult(messages);
    expect(result.subtype).toBe("success");
    expect(result.result).toBe("All done.");
    expect(systemMessages(messages, "compaction")[0]).toMatchObject({ trigger: "overflow" });
    expect(isCompactionBody(bodies[2] as { messages: Array<{ content: unknown }> })).toBe(true);
    expect(JSON.stringify(await agent.getHistory())).not.toContain("toolu_cut");
    expectWellFormed(await agent.getHistory());
  });
});
