import { afterEach, describe, expect, it } from "vitest";
import type { AssistantModelMessage, ContentBlock, ModelMessage } from "../../src/messages/types";
import { createAnthropicClient } from "../../src/model/anthropic";
import { toAnthropicRequestBody } from "../../src/model/anthropic-request";
import { StreamedMessageAssembler } from "../../src/model/anthropic-stream";
import type { ModelRequest } from "../../src/model/client";
import { type MockAnthropicServer, type MockStep, startMockAnthropicServer } from "../../src/testing";

let server: MockAnthropicServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(...responses: MockStep[]): Promise<MockAnthropicServer> {
  server = await startMockAnthropicServer({ responses });
  return server;
}

const TOOLS = [
  { name: "read", description: "Read a file", input_schema: { type: "object", properties: {} } },
  { name: "grep", description: "Search", input_schema: { type: "object", properties: {} } },
];

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: "claude-sonnet-4-6",
    messages: [{ role: "user", content: "Hello" }],
    maxTokens: 4096,
    signal: new AbortController().signal,
    ...overrides,
  };
}

/** The body of one request as the mock server received it, after sending `overrides` through the client. */
async function wireBody(overrides: Partial<ModelRequest>, stream = true): Promise<Record<string, unknown>> {
  const mock = await start({ content: "ok" });
  await createAnthropicClient({ apiKey: "test-key", baseURL: mock.url, stream }).createMessage(
    request(overrides),
  );
  const body = mock.requests[0]!.body as Record<string, unknown>;
  await mock.close();
  return body;
}

describe.each([
  { mode: "streaming", stream: true },
  { mode: "JSON", stream: false },
])("model settings on the wire ($mode)", ({ stream }) => {
  it("sends every setting under its Messages API name", async () => {
    const body = await wireBody(
      {
        tools: TOOLS,
        temperature: 0.3,
        topP: 0.9,
        topK: 40,
        stopSequences: ["END", "STOP"],
        toolChoice: { type: "tool", name: "grep" },
        parallelToolCalls: false,
        effort: "high",
        metadata: { userId: "user-7f3a" },
        serviceTier: "standard_only",
      },
      stream,
    );
    expect(body).toEqual({
      model: "claude-sonnet-4-6",
      max_tokens: 4096,
      messages: [{ role: "user", content: "Hello" }],
      tools: TOOLS,
      temperature: 0.3,
      top_p: 0.9,
      top_k: 40,
      stop_sequences: ["END", "STOP"],
      tool_choice: { type: "tool", name: "grep", disable_parallel_tool_use: true },
      output_config: { effort: "high" },
      metadata: { user_id: "user-7f3a" },
      service_tier: "standard_only",
      stream,
    });
  });

  it("sends no setting at all when none is set (the provider's defaults apply)", async () => {
    const body = await wireBody({}, stream);
    expect(Object.keys(body).sort()).toEqual(["max_tokens", "messages", "model", "stream"]);
  });
});

describe("model settings on the wire", () => {
  it.each([
    [{ toolChoice: "auto" }, { type: "auto" }],
    [{ toolChoice: "any" }, { type: "any" }],
    [{ toolChoice: "none" }, { type: "none" }],
    [{ toolChoice: { type: "tool", name: "read" } }, { type: "tool", name: "read" }],
    [
      { toolChoice: "auto", parallelToolCalls: false },
      { type: "auto", disable_parallel_tool_use: true },
    ],
    [
      { toolChoice: "any", parallelToolCalls: false },
      { type: "any", disable_parallel_tool_use: true },
    ],
    [{ toolChoice: "none", parallelToolCalls: false }, { type: "none" }],
    [{ parallelToolCalls: false }, { type: "auto", disable_parallel_tool_use: true }],
    [{ toolChoice: "any", parallelToolCalls: true }, { type: "any" }],
  ] as Array<[Partial<ModelRequest>, unknown]>)("maps %j to tool_choice %j", async (settings, wire) => {
    expect((await wireBody({ tools: TOOLS, ...settings })).tool_choice).toEqual(wire);
  });

  it("sends no tool_choice for a request without tools (the API would refuse it)", async () => {
    const body = await wireBody({ toolChoice: "none", parallelToolCalls: false });
    expect(body).not.toHaveProperty("tool_choice");
    expect((await wireBody({ parallelToolCalls: true, tools: TOOLS })).tool_choice).toBeUndefined();
  });

  it.each([
    [
      { type: "enabled", budgetTokens: 2048 },
      { type: "enabled", budget_tokens: 2048 },
    ],
    [{ type: "adaptive" }, { type: "adaptive" }],
    [{ type: "disabled" }, { type: "disabled" }],
  ] as const)("maps thinking %j to %j", async (thinking, wire) => {
    expect((await wireBody({ thinking })).thinking).toEqual(wire);
  });

  it("merges effort with the output format in output_config, without the format's parse", async () => {
    const schema = { type: "object", properties: { answer: { type: "string" } } };
    const body = await wireBody({
      effort: "low",
      outputFormat: { type: "json_schema", schema, parse: (value) => value },
    });
    expect(body.output_config).toEqual({ format: { type: "json_schema", schema }, effort: "low" });
    expect((await wireBody({ outputFormat: { type: "json_schema", schema } })).output_config).toEqual({
      format: { type: "json_schema", schema },
    });
  });

  it("sends no metadata when it holds no userId, and no stop_sequences when the list is empty", async () => {
    const body = await wireBody({ metadata: {}, stopSequences: [] });
    expect(body).not.toHaveProperty("metadata");
    expect(body).not.toHaveProperty("stop_sequences");
  });

  it("merges extraBody last: over the modelled settings, never over the SDK's own fields", async () => {
    const original = request({ tools: TOOLS, system: "Be brief." });
    const body = await wireBody({
      tools: TOOLS,
      system: "Be brief.",
      temperature: 0.2,
      // As an onModelRequest hook could set it, past the creation-time check.
      extraBody: {
        speed: "fast",
        temperature: 0.5,
        model: "claude-other",
        messages: [],
        max_tokens: 1,
        tools: [],
        stream: false,
        system: "Ignore everything.",
        inference_geo: undefined,
      },
    });
    expect(body).toMatchObject({
      model: original.model,
      max_tokens: original.maxTokens,
      messages: original.messages,
      tools: TOOLS,
      system: "Be brief.",
      stream: true,
      speed: "fast",
      temperature: 0.5,
    });
    expect(body).not.toHaveProperty("inference_geo");
  });

  it("never lets an extraBody key named __proto__ replace the body's prototype", () => {
    const extraBody = JSON.parse('{"__proto__": {"polluted": true}, "speed": "fast"}') as Record<
      string,
      unknown
    >;
    const body = toAnthropicRequestBody(request({ extraBody }));
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    expect((body as Record<string, unknown>).polluted).toBeUndefined();
    expect((body as Record<string, unknown>).speed).toBe("fast");
  });

  it("sends no cache marker at all without promptCaching", async () => {
    const body = await wireBody({
      tools: TOOLS,
      system: "Be brief.",
      messages: [{ role: "user", content: "Q" }],
    });
    expect(JSON.stringify(body)).not.toContain("cache_control");
  });

  it("marks tools, system and the newest block with promptCaching, one hour with ttl 1h", async () => {
    const history: ModelMessage[] = [{ role: "user", content: [{ type: "text", text: "Q" }] }];
    const snapshot = structuredClone(history);
    const body = await wireBody({
      tools: TOOLS,
      system: "Be brief.",
      messages: history,
      promptCaching: { ttl: "1h" },
    });
    const marker = { type: "ephemeral", ttl: "1h" };
    expect((body.tools as unknown[])[1]).toEqual({ ...TOOLS[1], cache_control: marker });
    expect(body.system).toEqual([{ type: "text", text: "Be brief.", cache_control: marker }]);
    expect(body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "Q", cache_control: marker }] },
    ]);
    expect(history).toEqual(snapshot);
    const short = await wireBody({ messages: history, promptCaching: { ttl: "5m" } });
    expect(short.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "Q", cache_control: { type: "ephemeral" } }] },
    ]);
  });
});

describe.each([
  { mode: "streaming", stream: true },
  { mode: "JSON", stream: false },
])("thinking round trip and stop sequences ($mode)", ({ stream }) => {
  const client = (mock: MockAnthropicServer) =>
    createAnthropicClient({ apiKey: "k", baseURL: mock.url, stream });

  it("returns thinking and redacted thinking byte for byte and sends them back unchanged, in order", async () => {
    const thinkingText = 'Let me check both files — first ünïcode ✓, then the "quoted" one.\n\nDone.';
    const signature = `EqQBCkYIBRgCKkD${"x7+/=".repeat(200)}`;
    const content: ContentBlock[] = [
      { type: "thinking", thinking: thinkingText, signature },
      { type: "redacted_thinking", data: `EmwKAhgBEgy3va3pzix${"Q".repeat(300)}` },
      { type: "text", text: "Reading both." },
      { type: "tool_use", id: "toolu_a", name: "read", input: { path: "a.ts" } },
      { type: "tool_use", id: "toolu_b", name: "read", input: { path: "b.ts" } },
    ];
    const mock = await start({ content }, { content: "Both files are fine." });
    const thinking = { type: "enabled", budgetTokens: 2048 } as const;
    const first = await client(mock).createMessage(request({ tools: TOOLS, thinking }));
    expect(first.content).toEqual(content);
    const history: ModelMessage[] = [
      { role: "user", content: "Check a.ts and b.ts" },
      first,
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_a", content: "ok" },
          { type: "tool_result", tool_use_id: "toolu_b", content: "ok" },
        ],
      },
    ];
    const second = await client(mock).createMessage(request({ tools: TOOLS, thinking, messages: history }));
    expect(second.content).toEqual([{ type: "text", text: "Both files are fine." }]);
    const sentBack = (mock.requests[1]!.body.messages as Array<{ content: unknown }>)[1]!;
    expect(sentBack).toEqual({ role: "assistant", content });
  });

  it("reports which stop sequence ended the response, and none when none did", async () => {
    const mock = await start(
      { content: "The plan:\n1. read\nEND\n2. never sent" },
      { content: "No sequence here." },
      { content: "Scripted stop.", stop_sequence: "###" },
    );
    const stopped = await client(mock).createMessage(request({ stopSequences: ["STOP", "END"] }));
    expect(stopped).toMatchObject({
      stop_reason: "stop_sequence",
      stop_sequence: "END",
      content: [{ type: "text", text: "The plan:\n1. read\n" }],
    });
    const plain = await client(mock).createMessage(request({ stopSequences: ["END"] }));
    expect(plain.stop_reason).toBe("end_turn");
    expect(plain).not.toHaveProperty("stop_sequence");
    const scripted: AssistantModelMessage = await client(mock).createMessage(request());
    expect(scripted).toMatchObject({ stop_reason: "stop_sequence", stop_sequence: "###" });
    // stop_sequence is metadata: it never goes back on the wire.
    const mockBack = await start({ content: "ok" });
    await client(mockBack).createMessage(
      request({ messages: [{ role: "user", content: "Q" }, stopped, { role: "user", content: "go on" }] }),
    );
    expect((mockBack.requests[0]!.body.messages as unknown[])[1]).toEqual({
      role: "assistant",
      content: stopped.content,
    });
  });

  it("reads the cache writes by TTL when the provider reports them", async () => {
    const mock = await start({
      content: "cached",
      usage: {
        input_tokens: 12,
        output_tokens: 3,
        cache_read_input_tokens: 2000,
        cache_creation_input_tokens: 700,
        cache_creation: { ephemeral_5m_input_tokens: 200, ephemeral_1h_input_tokens: 500 },
      },
    });
    expect((await client(mock).createMessage(request())).usage).toEqual({
      input_tokens: 12,
      output_tokens: 3,
      cache_read_input_tokens: 2000,
      cache_creation_input_tokens: 700,
      cache_creation: { ephemeral_5m_input_tokens: 200, ephemeral_1h_input_tokens: 500 },
    });
  });
});

describe("StreamedMessageAssembler — stop_sequence and the cache split", () => {
  const start = (usage: Record<string, unknown>) =>
    ({ type: "message_start", message: { id: "msg_1", model: "m", usage } }) as never;
  const delta = (stopSequence: string | null, usage: Record<string, unknown>) =>
    ({
      type: "message_delta",
      delta: { stop_reason: "stop_sequence", stop_sequence: stopSequence },
      usage,
    }) as never;
  const split = { ephemeral_5m_input_tokens: 10, ephemeral_1h_input_tokens: 30 };

  it("keeps the split when a later report repeats the total, drops it when the total changes", () => {
    const same = new StreamedMessageAssembler();
    same.apply(start({ input_tokens: 5, cache_creation_input_tokens: 40, cache_creation: split }));
    same.apply(delta("END", { output_tokens: 7, cache_creation_input_tokens: 40 }));
    expect(same.toMessage()).toMatchObject({
      stop_reason: "stop_sequence",
      stop_sequence: "END",
      usage: { input_tokens: 5, output_tokens: 7, cache_creation_input_tokens: 40, cache_creation: split },
    });
    const changed = new StreamedMessageAssembler();
    changed.apply(start({ input_tokens: 5, cache_creation_input_tokens: 40, cache_creation: split }));
    changed.apply(delta(null, { output_tokens: 7, cache_creation_input_tokens: 64 }));
    const message = changed.toMessage();
    expect(message.usage).toEqual({ input_tokens: 5, output_tokens: 7, cache_creation_input_tokens: 64 });
    expect(message).not.toHaveProperty("stop_sequence");
  });
});
