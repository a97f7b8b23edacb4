/**
 * The loop through the built-in client against the mock Messages API server, over real HTTP,
 * streaming (SSE) and non-streaming (JSON): a tool round trip, a submit_output round trip,
 * outputFormat, and the three endings — a hung server timing out, an abort and an interrupt
 * mid-response — each leaving history well-formed.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  AbortError,
  createAgent,
  createAnthropicClient,
  defineTool,
  ProviderError,
  type SDKMessage,
  SUBMIT_OUTPUT_TOOL_NAME,
  TimeoutError,
} from "../../src/index";
import { startMockAnthropicServer } from "../../src/testing/index";
import { buildMessageBody, buildStreamEvents } from "../../src/testing/mock-server-response";
import { encodeServerSentEvent } from "../../src/testing/sse";
import { mockServerPerTest } from "../support/mock-server";
import {
  collect,
  createMemoryStore,
  expectWellFormed,
  lastResult,
  MODEL,
  toolResults,
  toolUse,
  until,
} from "./support";

const API_KEY = "sk-ant-test-0123456789-secret";

const weather = defineTool({
  name: "get_weather",
  description: "Current weather of a city",
  readOnly: true,
  inputSchema: z.object({ city: z.string() }),
  execute: ({ city }) => `Sunny in ${city}, 21°C`,
});

describe.each([
  { mode: "streaming", stream: true },
  { mode: "non-streaming", stream: false },
])("built-in client over HTTP ($mode)", ({ stream }) => {
  const server = mockServerPerTest();

  const client = () => createAnthropicClient({ apiKey: API_KEY, baseURL: server.url, stream });

  it("runs a tool round trip and records provider metadata, sending none of it back", async () => {
    server.enqueue(
      {
        content: [
          { type: "text", text: "Let me check." },
          toolUse("toolu_1", "get_weather", { city: "Paris" }),
        ],
        id: "msg_round_1",
        usage: { input_tokens: 40, output_tokens: 12, cache_read_input_tokens: 8 },
      },
      { content: "It is sunny in Paris.", id: "msg_round_2", usage: { input_tokens: 70, output_tokens: 9 } },
    );
    const agent = createAgent({
      model: MODEL,
      client: client(),
      tools: [weather],
      systemPrompt: "Be brief.",
      promptCaching: false, // the bodies compared exactly: no cache markers (tested in test/agent/model-settings-wire)
    });

    const messages = await collect(agent.query("Weather in Paris?"));
    const result = lastResult(messages);

    expect(result).toMatchObject({ subtype: "success", result: "It is sunny in Paris.", num_turns: 2 });
    expect(result.usage).toMatchObject({ input_tokens: 110, output_tokens: 21, cache_read_input_tokens: 8 });
    const history = await agent.getHistory();
    expectWellFormed(history);
    expect(history[1]).toMatchObject({
      role: "assistant",
      providerResponseId: "msg_round_1",
      model: MODEL,
      stop_reason: "tool_use",
      content: [
        { type: "text", text: "Let me check." },
        toolUse("toolu_1", "get_weather", { city: "Paris" }),
      ],
    });
    expect(toolResults(history)).toEqual([
      { type: "tool_result", tool_use_id: "toolu_1", content: "Sunny in Paris, 21°C" },
    ]);

    const [first, second] = server.requests.map((request) => request.body);
    expect(first.stream === true).toBe(stream);
    expect(first.system).toBe("Be brief.");
    expect(first.tools).toEqual([
      expect.objectContaining({ name: "get_weather", description: "Current weather of a city" }),
    ]);
    expect(first.tools[0].input_schema).toMatchObject({
      type: "object",
      properties: { city: { type: "string" } },
    });
    expect(second.messages).toHaveLength(3);
    expect(second.messages[1]).toEqual({ role: "assistant", content: history[1]!.content });
    expect(second.messages[2]).toEqual({ role: "user", content: toolResults(history) });
    expect(JSON.stringify(second)).not.toMatch(/providerResponseId|msg_round_1|stop_reason|"usage"/);
  });

  it("runs a submit_output round trip: a failing payload, then the fix", async () => {
    server.enqueue(
      { content: [toolUse("toolu_a", SUBMIT_OUTPUT_TOOL_NAME, { n: "seven" })] },
      { content: [toolUse("toolu_b", SUBMIT_OUTPUT_TOOL_NAME, { n: 7 })] },
    );
    const agent = createAgent({ model: MODEL, client: client(), outputSchema: z.object({ n: z.number() }) });

    const result = await agent.prompt("Count.");

    expect(result.subtype).toBe("success");
    expect(result.structuredResult).toEqual({ n: 7 });
    expect(server.requests[0]?.body.tools).toEqual([
      expect.objectContaining({
        name: "submit_output",
        input_schema: expect.objectContaining({ properties: { n: { type: "number" } } }),
      }),
    ]);
    const rejection = server.requests[1]?.body.messages[2].content[0];
    expect(rejection).toMatchObject({ type: "tool_result", tool_use_id: "toolu_a", is_error: true });
    expectWellFormed(await agent.getHistory());
  });

  it("sends outputFormat as output_config.format and parses the JSON answer", async () => {
    server.enqueue({ content: '{"city":"Lima"}' });
    const schema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
    const agent = createAgent({
      model: MODEL,
      client: client(),
      outputFormat: { type: "json_schema", schema, parse: (input) => input },
    });

    const result = await agent.prompt("Where?");

    expect(server.requests[0]?.body.output_config).toEqual({ format: { type: "json_schema", schema } });
    expect(result.structuredResult).toEqual({ city: "Lima" });
  });

  it("a hung server ends error_timeout in time, and history stays well-formed", async () => {
    // Answered by prompt, not by arrival order: a first request the deadline cuts before the server
    // has read it must not leave the hang to the second one.
    server.setHandler((body: { messages: unknown[] }) =>
      JSON.stringify(body.messages.at(-1)).includes("Again?") ? { content: "back again" } : { fault: "hang" },
    );
    const store = createMemoryStore();
    const agent = createAgent({ model: MODEL, client: client(), requestTimeoutMs: 150, historyStore: store });

    const result = await agent.prompt("Are you there?");

    expect(result.subtype).toBe("error_timeout");
    expect(result.error).toBeInstanceOf(TimeoutError);
    expect((result.error as TimeoutError).timeoutMs).toBe(150);
    const history = await agent.getHistory();
    expect(history).toEqual([{ role: "user", content: "Are you there?" }]);
    expect(store.saved).toEqual(history);

    // A healthy request is not raced against the 150 ms deadline: under load it may take longer.
    expect((await agent.prompt("Again?", { requestTimeoutMs: 30_000 })).result).toBe("back again");
  });

  it("a server that stalls mid-response ends error_timeout too", async () => {
    server.enqueue({ fault: "hang", afterEvents: 4, response: { content: "a partial answer that stalls" } });
    const agent = createAgent({ model: MODEL, client: client(), requestTimeoutMs: 150 });

    const result = await agent.prompt("Talk.");

    expect(result.subtype).toBe("error_timeout");
    expect(await agent.getHistory()).toEqual([{ role: "user", content: "Talk." }]);
  });

  it("an abort mid-response ends error_abort and drops the partial answer", async () => {
    server.enqueue(
      { fault: "hang", afterEvents: 4, response: { content: "Partial words that never finish" } },
      { content: "recovered" },
    );
    const controller = new AbortController();
    const agent = createAgent({ model: MODEL, client: client(), includePartialMessages: true });

    const messages: SDKMessage[] = [];
    const abortOnce = () => {
      if (!controller.signal.aborted) controller.abort(new Error("caller cancelled"));
    };
    // Non-streaming: abort once the server holds the request. Streaming: once partial text arrived.
    if (!stream) void until(() => server.requests.length === 1).then(abortOnce);
    for await (const message of agent.query("Talk.", { signal: controller.signal })) {
      messages.push(message);
      if (message.type === "stream_event" && message.event.type === "content_block_delta") abortOnce();
    }
    const result = lastResult(messages);

    expect(result.subtype).toBe("error_abort");
    expect(result.error).toBeInstanceOf(AbortError);
    if (stream) expect(messages.some((message) => message.type === "stream_event")).toBe(true);
    expect(result.error?.message).toContain("caller cancelled");
    expect(await agent.getHistory()).toEqual([{ role: "user", content: "Talk." }]);
    expect((await agent.prompt("Again.")).result).toBe("recovered");
  });

  it("an interrupt mid-response ends interrupted, and the agent continues with the full history", async () => {
    server.enqueue(
      { content: [toolUse("toolu_1", "get_weather", { city: "Oslo" })] },
      { fault: "hang", afterEvents: 4, response: { content: "Oslo is sunny and" } },
      { content: "Only Oslo then." },
    );
    const agent = createAgent({
      model: MODEL,
      client: client(),
      tools: [weather],
      includePartialMessages: true,
      promptCaching: false, // the last message compared exactly, without a cache marker
    });

    const messages: SDKMessage[] = [];
    // Non-streaming: interrupt once the server holds the second request. Streaming: once its partial text arrived.
    if (!stream) void until(() => server.requests.length === 2).then(() => agent.interrupt());
    for await (const message of agent.query("Weather?")) {
      messages.push(message);
      if (message.type === "stream_event" && JSON.stringify(message.event).includes("text_delta"))
        agent.interrupt();
    }
    const result = lastResult(messages);

    expect(result.subtype).toBe("interrupted");
    expect(result.is_error).toBe(false);
    const history = await agent.getHistory();
    expect(history.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
    expect(JSON.stringify(history)).not.toContain("Oslo is sunny");
    expectWellFormed(history);

    const next = await agent.prompt("Just Oslo.");
    expect(next.result).toBe("Only Oslo then.");
    expect(server.requests[2]?.body.messages).toHaveLength(4);
    expect(server.requests[2]?.body.messages[3]).toEqual({ role: "user", content: "Just Oslo." });
  });

  it("a provider error ends error_during_execution without the API key anywhere", async () => {
    server.enqueue({
      fault: "status",
      status: 400,
      body: { type: "error", error: { type: "invalid_request_error", message: `bad key ${API_KEY}` } },
    });
    const agent = createAgent({ model: MODEL, client: client() });

    const result = await agent.prompt("Hi");

    expect(result.subtype).toBe("error_during_execution");
    expect(result.error).toBeInstanceOf(ProviderError);
    expect((result.error as ProviderError).status).toBe(400);
    expect(result.error?.message).not.toContain(API_KEY);
    expect(JSON.stringify(await agent.getHistory())).not.toContain(API_KEY);
  });
});

describe("stream events over HTTP", () => {
  it("yields the raw SSE events, text split across deltas, before the assistant message", async () => {
    const server = await startMockAnthropicServer({ responses: [{ content: "Hello from the stream" }] });
    try {
      const agent = createAgent({
        model: MODEL,
        client: createAnthropicClient({ apiKey: API_KEY, baseURL: server.url }),
        includePartialMessages: true,
      });

      const messages = await collect(agent.query("Hi"));

      const events = messages.flatMap((message) => (message.type === "stream_event" ? [message.event] : []));
      expect(events[0]?.type).toBe("message_start");
      expect(events.map((event) => event.type)).toContain("message_stop");
      const text = events
        .filter((event) => event.type === "content_block_delta")
        .map((event) => (event.delta as { text: string }).text);
      expect(text.length).toBeGreaterThan(1);
      expect(text.join("")).toBe("Hello from the stream");
      const assistantAt = messages.findIndex((message) => message.type === "assistant");
      const lastEventAt = messages.findLastIndex((message) => message.type === "stream_event");
      expect(lastEventAt).toBeLessThan(assistantAt);
    } finally {
      await server.close();
    }
  });
});

describe("a server that leaves the response open after message_stop", () => {
  it("ends the turn at message_stop: the tool round trip succeeds, the connection is let go", async () => {
    // A proxy that never ends the body. Before, each complete answer waited for the body's end:
    // requestTimeoutMs then discarded it as error_timeout.
    const answers = [
      { content: [toolUse("toolu_1", "get_weather", { city: "Oslo" })] },
      { content: "Sunny in Oslo." },
    ];
    let closedResponses = 0;
    const http = createServer((request, response) => {
      response.on("close", () => closedResponses++);
      request.resume();
      request.on("end", () => {
        const answer = answers.shift()!;
        const message = buildMessageBody({
          content: answer.content,
          stopReason: undefined,
          usage: { input_tokens: 10, output_tokens: 5 },
          id: "msg_open",
          model: MODEL,
          requestChars: 0,
        });
        response.writeHead(200, { "content-type": "text/event-stream" });
        for (const event of buildStreamEvents(message)) response.write(encodeServerSentEvent(event));
        // never ended
      });
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    try {
      const store = createMemoryStore();
      const agent = createAgent({
        model: MODEL,
        client: createAnthropicClient({
          apiKey: API_KEY,
          baseURL: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
        }),
        tools: [weather],
        requestTimeoutMs: 5_000,
        historyStore: store,
      });

      const result = await agent.prompt("Weather in Oslo?");

      expect(result.subtype).toBe("success");
      expect(result.result).toBe("Sunny in Oslo.");
      const history = await agent.getHistory();
      expect(history.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant"]);
      expectWellFormed(history);
      expect(store.saved).toEqual(history);
      // The client cancelled both bodies: the server sees each response closed.
      await until(() => closedResponses === 2);
    } finally {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    }
  });
});
