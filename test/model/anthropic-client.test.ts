import { createServer } from "node:net";
import { inspect } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import { InvalidOptionError, ProviderError, TimeoutError } from "../../src/errors";
import type { ContentBlock, ModelMessage, Usage } from "../../src/messages/types";
import { createAnthropicClient } from "../../src/model/anthropic";
import type { ModelRequest, ModelStreamEvent } from "../../src/model/client";
import { isPromptTooLongError } from "../../src/model/prompt-too-long";
import { type MockAnthropicServer, type MockStep, startMockAnthropicServer } from "../../src/testing";

/** Distinctive, and not shaped like an Anthropic key, so only the `secrets` scrubbing can hide it. */
const API_KEY = "lattice-test-key-QX7f3a9c2e5b";

let server: MockAnthropicServer | undefined;

afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
});

async function start(...responses: MockStep[]): Promise<MockAnthropicServer> {
  server = await startMockAnthropicServer({ responses });
  return server;
}

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: "claude-requested-1",
    messages: [{ role: "user", content: "Hello" }],
    maxTokens: 256,
    signal: new AbortController().signal,
    ...overrides,
  };
}

/** Asserts the key appears nowhere a log or a debugger would show the error. */
function expectNoKey(error: unknown): void {
  const views = [
    String(error),
    (error as Error).stack ?? "",
    JSON.stringify(error),
    inspect(error, { depth: 10 }),
    inspect(error, { depth: 10, showHidden: true }),
  ];
  for (const view of views) expect(view).not.toContain(API_KEY);
}

async function providerFailure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => {
      throw new Error("expected the request to fail");
    },
    (failure: unknown) => failure,
  );
  expectNoKey(error);
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe.each([
  { mode: "streaming", stream: true },
  { mode: "JSON", stream: false },
])("createAnthropicClient ($mode)", ({ stream }) => {
  const client = (mock: MockAnthropicServer) =>
    createAnthropicClient({ apiKey: API_KEY, baseURL: mock.url, stream });

  it("returns text with stop_reason, usage, providerResponseId and the serving model", async () => {
    const mock = await start({
      content: "Hello there, world! This text arrives in pieces.",
      usage: { input_tokens: 21, output_tokens: 9 },
    });
    const message = await client(mock).createMessage(request());
    expect(message).toEqual({
      role: "assistant",
      content: [{ type: "text", text: "Hello there, world! This text arrives in pieces." }],
      stop_reason: "end_turn",
      usage: { input_tokens: 21, output_tokens: 9 },
      providerResponseId: "msg_mock_1",
      model: "claude-requested-1",
    });
    expect(mock.requests[0]!.body.stream).toBe(stream);
  });

  it("reports a served model different from the requested one, and the provider's response id", async () => {
    const mock = await start({ content: "ok", model: "claude-served-9", id: "msg_01ServedElsewhere" });
    const message = await client(mock).createMessage(request());
    expect(message.model).toBe("claude-served-9");
    expect(message.providerResponseId).toBe("msg_01ServedElsewhere");
    expect(mock.requests[0]!.body.model).toBe("claude-requested-1");
  });

  it("assembles tool_use input split across deltas, and {} for a tool without input", async () => {
    const input = {
      path: "src/a.ts",
      options: { lines: [1, 2, 3], note: 'ünïcode ✓ "quoted"' },
      flag: true,
      none: null,
    };
    const mock = await start({
      content: [
        { type: "text", text: "Reading." },
        { type: "tool_use", id: "toolu_1", name: "read_file", input },
        { type: "tool_use", id: "toolu_2", name: "list", input: {} },
      ],
    });
    const events: ModelStreamEvent[] = [];
    const message = await client(mock).createMessage(request({ onEvent: (event) => events.push(event) }));
    expect(message.content).toEqual([
      { type: "text", text: "Reading." },
      { type: "tool_use", id: "toolu_1", name: "read_file", input },
      { type: "tool_use", id: "toolu_2", name: "list", input: {} },
    ]);
    expect(message.stop_reason).toBe("tool_use");
    if (stream) {
      const pieces = events.filter(
        (event) => (event.delta as { type?: string } | undefined)?.type === "input_json_delta",
      );
      expect(pieces.length).toBeGreaterThan(4);
    } else {
      expect(events).toEqual([]);
    }
  });

  it("assembles the streamed input of server and MCP tool calls, not only tool_use", async () => {
    const webSearch = {
      type: "server_tool_use",
      id: "srvtoolu_1",
      name: "web_search",
      input: { query: "capital of France", allowed_domains: ["wikipedia.org"] },
    };
    const mcpCall = {
      type: "mcp_tool_use",
      id: "mcptoolu_1",
      name: "lookup",
      server_name: "atlas",
      input: { city: "Paris", fields: ["population"] },
    };
    const mock = await start({
      content: [webSearch, mcpCall] as unknown as ContentBlock[],
      stop_reason: "pause_turn",
    });
    const message = await client(mock).createMessage(request());
    expect(message.content).toEqual([webSearch, mcpCall]);
  });

  it("keeps thinking with its signature and redacted thinking", async () => {
    const content = [
      {
        type: "thinking" as const,
        thinking: "First, consider the question carefully.",
        signature: "EqQBCkYIARgCIkB",
      },
      { type: "redacted_thinking" as const, data: "EmwKAhgBEgy3va3pzix" },
      { type: "text" as const, text: "The answer is 4." },
    ];
    const mock = await start({ content });
    const message = await client(mock).createMessage(request());
    expect(message.content).toEqual(content);
  });

  it("reports the cache buckets when the provider does, and only then", async () => {
    const usage = {
      input_tokens: 120,
      output_tokens: 30,
      cache_creation_input_tokens: 50,
      cache_read_input_tokens: 900,
    };
    const mock = await start(
      { content: "cached", usage },
      { content: "plain", usage: { input_tokens: 5, output_tokens: 2 } },
    );
    expect((await client(mock).createMessage(request())).usage).toEqual(usage);
    const plain = await client(mock).createMessage(request());
    expect(plain.usage).toEqual({ input_tokens: 5, output_tokens: 2 });
    expect(plain.usage).not.toHaveProperty("cache_read_input_tokens");
  });

  it("leaves out a usage bucket that is not a token count (negative, NaN, a string)", async () => {
    const usage = {
      input_tokens: -120,
      output_tokens: 30,
      cache_creation_input_tokens: "50",
      cache_read_input_tokens: -900,
    } as unknown as Usage;
    const mock = await start({ content: "odd gateway", usage });
    expect((await client(mock).createMessage(request())).usage).toEqual({
      input_tokens: 0,
      output_tokens: 30,
    });
  });

  it("passes the stop reason through (max_tokens)", async () => {
    const mock = await start({ content: "A truncated ans", stop_reason: "max_tokens" });
    expect((await client(mock).createMessage(request())).stop_reason).toBe("max_tokens");
  });

  it("sends only API fields: no SDK metadata on history messages, maxTokens as max_tokens", async () => {
    const mock = await start({ content: "ok" });
    const history: ModelMessage[] = [
      { role: "user", content: "What is 2+2?" },
      {
        role: "assistant",
        content: [{ type: "tool_use", id: "toolu_1", name: "add", input: { a: 2, b: 2 } }],
        stop_reason: "tool_use",
        usage: { input_tokens: 10, output_tokens: 5 },
        providerResponseId: "msg_previous",
        model: "claude-previous",
      },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "4" }] },
    ];
    const tools = [{ name: "add", description: "Adds", input_schema: { type: "object", properties: {} } }];
    await client(mock).createMessage(
      request({ messages: history, system: "Be brief.", tools, timeoutMs: 30_000, onEvent: () => {} }),
    );
    const body = mock.requests[0]!.body;
    expect(Object.keys(body).sort()).toEqual(
      ["max_tokens", "messages", "model", "stream", "system", "tools"].sort(),
    );
    expect(body).toMatchObject({ model: "claude-requested-1", max_tokens: 256, system: "Be brief.", tools });
    expect(body.messages).toEqual([
      { role: "user", content: "What is 2+2?" },
      {
        role: "assistant",
        content: [{ type: "tool_use", id: "toolu_1", name: "add", input: { a: 2, b: 2 } }],
      },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "4" }] },
    ]);
    expect(JSON.stringify(body)).not.toMatch(
      /providerResponseId|msg_previous|claude-previous|"usage"|stop_reason/,
    );
    expect(history[1]).toHaveProperty("providerResponseId", "msg_previous");
  });

  it("sends outputFormat as output_config.format without our parse", async () => {
    const mock = await start({ content: '{"answer":4}' });
    const schema = { type: "object", properties: { answer: { type: "number" } }, required: ["answer"] };
    await client(mock).createMessage(
      request({ outputFormat: { type: "json_schema", schema, parse: (value) => value } }),
    );
    expect(mock.requests[0]!.body.output_config).toEqual({ format: { type: "json_schema", schema } });
  });

  it("sends the key and the default headers, and makes exactly one HTTP request per call", async () => {
    const mock = await start({ fault: "status", status: 529 }, { content: "would be a retry" });
    const custom = createAnthropicClient({
      apiKey: API_KEY,
      baseURL: mock.url,
      stream,
      defaultHeaders: { "x-team": "lattice" },
    });
    const failure = await providerFailure(custom.createMessage(request()));
    expect(failure.retryable).toBe(true);
    expect(mock.requests).toHaveLength(1);
    expect(mock.pending).toBe(1);
    const headers = mock.requests[0]!.headers;
    // Both credential headers carry the key: compatible endpoints read one or the other.
    expect(headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(headers["x-api-key"]).toBe(API_KEY);
    expect(headers["x-team"]).toBe("lattice");
  });

  it("maps 529 overloaded to a retryable ProviderError with status, type and request id", async () => {
    const mock = await start({ fault: "status", status: 529 });
    const failure = await providerFailure(client(mock).createMessage(request()));
    expect(failure).toMatchObject({
      status: 529,
      errorType: "overloaded_error",
      requestId: "req_mock_1",
      retryable: true,
      partial: false,
    });
    expect(failure.message).toMatch(
      /^Model provider 127\.0\.0\.1:\d+ 529 overloaded_error: Overloaded \(request-id req_mock_1\)$/,
    );
  });

  it("maps 429 with retry-after (seconds) and retry-after-ms to retryAfterMs", async () => {
    const mock = await start(
      { fault: "status", status: 429, headers: { "retry-after": "7" } },
      { fault: "status", status: 429, headers: { "retry-after-ms": "1500", "retry-after": "2" } },
    );
    const seconds = await providerFailure(client(mock).createMessage(request()));
    expect(seconds).toMatchObject({
      status: 429,
      errorType: "rate_limit_error",
      retryable: true,
      retryAfterMs: 7000,
    });
    const milliseconds = await providerFailure(client(mock).createMessage(request()));
    expect(milliseconds.retryAfterMs).toBe(1500);
    expect(mock.requests).toHaveLength(2);
  });

  it("maps 500 (and a non-JSON 502 body) to retryable errors", async () => {
    const mock = await start(
      { fault: "status", status: 500 },
      { fault: "status", status: 502, body: "<html>Bad gateway</html>" },
    );
    expect(await providerFailure(client(mock).createMessage(request()))).toMatchObject({
      status: 500,
      errorType: "api_error",
      retryable: true,
    });
    const gateway = await providerFailure(client(mock).createMessage(request()));
    expect(gateway).toMatchObject({ status: 502, retryable: true });
    expect(gateway.message).toContain("Bad gateway");
  });

  it("names a gateway's HTML error page by its title, not by the whole page", async () => {
    // A CDN's 502/504 page runs to kilobytes of markup; every api_retry message and log line carries it.
    const page = `<!DOCTYPE html>\n<html lang="en">\n<head>\n<title>example.com | 504: Gateway time-out</title>\n<style>${"body{margin:0}".repeat(300)}</style></head><body>${"<div>details</div>".repeat(200)}</body></html>`;
    const mock = await start(
      { fault: "status", status: 504, body: page, headers: { "content-type": "text/html" } },
      { fault: "status", status: 502, body: `<html><body>${"<p>Bad gateway</p>".repeat(100)}</body></html>` },
      { fault: "status", status: 502, body: `<html><body>${"x".repeat(60)}${API_KEY}</body></html>` },
    );
    const titled = await providerFailure(client(mock).createMessage(request()));
    expect(titled).toMatchObject({ status: 504, retryable: true, requestId: "req_mock_1" });
    expect(titled.message).toBe(
      `Model provider ${new URL(mock.url).host} 504: an HTML page titled "example.com | 504: Gateway time-out" (request-id req_mock_1)`,
    );
    const untitled = await providerFailure(client(mock).createMessage(request()));
    expect(untitled.message).toMatch(
      /^Model provider 127\.0\.0\.1:\d+ 502: an HTML page starting "<html><body><p>Bad gateway/,
    );
    expect(untitled.message.length).toBeLessThan(200);
    const echoing = await providerFailure(client(mock).createMessage(request()));
    expect(echoing.message).not.toContain(API_KEY.slice(0, 8));
  });

  it("recognises a 400 prompt-too-long, not retryable", async () => {
    const mock = await start({
      fault: "status",
      status: 400,
      body: {
        type: "error",
        error: {
          type: "invalid_request_error",
          message: "prompt is too long: 210000 tokens > 200000 maximum",
        },
      },
    });
    const failure = await providerFailure(client(mock).createMessage(request()));
    expect(failure).toMatchObject({ status: 400, errorType: "invalid_request_error", retryable: false });
    expect(isPromptTooLongError(failure)).toBe(true);
    expect(failure.message).toContain("prompt is too long: 210000 tokens > 200000 maximum");
  });

  it("maps 401 to a non-retryable error that never shows the key, even when the server echoes it", async () => {
    const mock = await start({
      fault: "status",
      status: 401,
      body: {
        type: "error",
        error: { type: "authentication_error", message: `invalid x-api-key: ${API_KEY}` },
      },
    });
    const failure = await providerFailure(client(mock).createMessage(request()));
    expect(failure).toMatchObject({ status: 401, errorType: "authentication_error", retryable: false });
    expect(failure.message).toContain("invalid x-api-key: [redacted]");
    expect(isPromptTooLongError(failure)).toBe(false);
  });

  it("maps a connection refused before any response to a retryable error", async () => {
    const port = await closedPort();
    const refused = createAnthropicClient({ apiKey: API_KEY, baseURL: `http://127.0.0.1:${port}`, stream });
    const failure = await providerFailure(refused.createMessage(request()));
    expect(failure).toMatchObject({ retryable: true, partial: false, status: undefined });
    expect(failure.message).toMatch(/ECONNREFUSED/);
  });

  it("maps a connection dropped before the response to a retryable error", async () => {
    const mock = await start({ fault: "drop", beforeResponse: true });
    expect(await providerFailure(client(mock).createMessage(request()))).toMatchObject({
      retryable: true,
      partial: false,
    });
    expect(mock.requests).toHaveLength(1);
  });

  it("rethrows the caller's abort as is, not as a ProviderError", async () => {
    const mock = await start();
    const received = new Promise<void>((resolve) =>
      mock.setHandler(() => {
        resolve();
        return { fault: "hang" };
      }),
    );
    const controller = new AbortController();
    const reason = new Error("caller cancelled");
    const pending = client(mock).createMessage(request({ signal: controller.signal }));
    await received;
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });

  it("rejects with the reason of an already aborted signal, sending nothing", async () => {
    const mock = await start({ content: "never sent" });
    const reason = new Error("cancelled before the call");
    await expect(client(mock).createMessage(request({ signal: AbortSignal.abort(reason) }))).rejects.toBe(
      reason,
    );
    expect(mock.requests).toHaveLength(0);
  });

  it("ends a request to a hung server at timeoutMs with a TimeoutError", async () => {
    const mock = await start({ fault: "hang" });
    const error = await client(mock)
      .createMessage(request({ timeoutMs: 300 }))
      .catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).timeoutMs).toBe(300);
    expectNoKey(error);
  });

  it("sends a request with a large maxTokens and no timeoutMs (the SDK's non-streaming guess never runs)", async () => {
    const mock = await start({ content: "A long answer, one day." });
    const message = await client(mock).createMessage(request({ maxTokens: 64_000 }));
    expect(message.content).toEqual([{ type: "text", text: "A long answer, one day." }]);
    expect(mock.requests).toHaveLength(1);
    expect(mock.requests[0]!.body.max_tokens).toBe(64_000);
  });

  it("treats a timeoutMs past the longest timer (2^31 ms) as no deadline, not one that fires at once", async () => {
    const mock = await start({ content: "Slow but fine.", delayMs: 50 });
    const message = await client(mock).createMessage(request({ timeoutMs: 2 ** 31 }));
    expect(message.content).toEqual([{ type: "text", text: "Slow but fine." }]);
  });

  it("without timeoutMs, applies the SDK's default (10 minutes to the response headers), then a retryable ProviderError", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      let fetchSignal: AbortSignal | undefined;
      const slow = createAnthropicClient({
        apiKey: API_KEY,
        baseURL: "http://127.0.0.1:1",
        stream,
        fetch: (_input, init) => {
          fetchSignal = init?.signal ?? undefined;
          return new Promise<Response>((_resolve, reject) => {
            fetchSignal?.addEventListener("abort", () => reject(fetchSignal?.reason), { once: true });
          });
        },
      });
      const pending = slow.createMessage(request({ maxTokens: 64_000 }));
      const failed = pending.catch((error: unknown) => error);
      await vi.advanceTimersByTimeAsync(0);
      expect(fetchSignal).toBeDefined();
      await vi.advanceTimersByTimeAsync(599_000);
      expect(fetchSignal!.aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(2_000);
      expect(fetchSignal!.aborted).toBe(true);
      const error = await failed;
      expect(error).toBeInstanceOf(ProviderError);
      expect((error as ProviderError).retryable).toBe(true);
      expect(String((error as Error).message)).toMatch(/timed out/i);
      expectNoKey(error);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("createAnthropicClient (streaming only)", () => {
  const client = (mock: MockAnthropicServer) => createAnthropicClient({ apiKey: API_KEY, baseURL: mock.url });

  it("hands onEvent every raw event as sent on the wire, in order", async () => {
    const step: MockStep = {
      content: [
        { type: "thinking", thinking: "Consider it.", signature: "sig" },
        { type: "text", text: "Hello, events." },
        { type: "tool_use", id: "toolu_1", name: "echo", input: { words: ["a", "b"] } },
      ],
      usage: { input_tokens: 3, output_tokens: 4, cache_read_input_tokens: 2 },
      id: "msg_same",
    };
    const mock = await start(step, step);
    const events: ModelStreamEvent[] = [];
    await client(mock).createMessage(request({ onEvent: (event) => events.push(event) }));
    const wire = await fetch(`${mock.url}/v1/messages`, {
      method: "POST",
      body: JSON.stringify({ ...mock.requests[0]!.body }),
    });
    const sent = (await wire.text())
      .split("\n\n")
      .filter(Boolean)
      .map((frame) => JSON.parse(frame.split("\n")[1]!.slice("data: ".length)));
    expect(events).toEqual(sent);
    expect(events.map((event) => event.type)).toContain("ping");
    expect(events[0]!.type).toBe("message_start");
    expect(events.at(-1)!.type).toBe("message_stop");
  });

  it.each([
    { arrival: "paced events", eventDelayMs: 40 },
    { arrival: "events already buffered", eventDelayMs: 0 },
  ])(
    "stops at an abort in the middle of the stream and rethrows the abort ($arrival)",
    async ({ eventDelayMs }) => {
      const mock = await start({
        content: "one two three four five six seven eight nine ten",
        eventDelayMs,
      });
      const controller = new AbortController();
      const events: ModelStreamEvent[] = [];
      const pending = client(mock).createMessage(
        request({
          signal: controller.signal,
          onEvent: (event) => {
            events.push(event);
            if (event.type === "content_block_delta") controller.abort();
          },
        }),
      );
      const error = await pending.catch((failure: unknown) => failure);
      expect(error).toBe(controller.signal.reason);
      expect((error as Error).name).toBe("AbortError");
      expect(events.filter((event) => event.type === "content_block_delta")).toHaveLength(1);
      expect(events.map((event) => event.type)).not.toContain("message_stop");
    },
  );

  it("ends a stream that stalls after its headers at timeoutMs with a TimeoutError", async () => {
    const mock = await start({ fault: "hang", afterEvents: 4 });
    const events: ModelStreamEvent[] = [];
    const error = await client(mock)
      .createMessage(request({ timeoutMs: 400, onEvent: (event) => events.push(event) }))
      .catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(events.map((event) => event.type)).toEqual([
      "message_start",
      "ping",
      "content_block_start",
      "content_block_delta",
    ]);
  });

  it("turns an SSE error event into a retryable ProviderError, partial only once content started", async () => {
    const mock = await start(
      { fault: "sse_error" },
      { fault: "sse_error", afterEvents: 4 },
      { fault: "sse_error", errorType: "invalid_request_error", message: "bad" },
    );
    const early = await providerFailure(client(mock).createMessage(request()));
    expect(early).toMatchObject({
      errorType: "overloaded_error",
      retryable: true,
      partial: false,
      requestId: "req_mock_1",
    });
    expect(early.message).toContain("overloaded_error: Overloaded");
    const late = await providerFailure(client(mock).createMessage(request()));
    expect(late).toMatchObject({ errorType: "overloaded_error", retryable: true, partial: true });
    const invalid = await providerFailure(client(mock).createMessage(request()));
    expect(invalid).toMatchObject({ errorType: "invalid_request_error", retryable: false });
  });

  it("turns a connection dropped mid-stream into a retryable ProviderError, partial only after content", async () => {
    const mock = await start(
      { fault: "drop", afterEvents: 0 },
      { fault: "drop", afterEvents: 2 },
      { fault: "drop", afterEvents: 5 },
    );
    expect(await providerFailure(client(mock).createMessage(request()))).toMatchObject({
      retryable: true,
      partial: false,
    });
    expect(await providerFailure(client(mock).createMessage(request()))).toMatchObject({
      retryable: true,
      partial: false,
    });
    const late = await providerFailure(client(mock).createMessage(request()));
    expect(late).toMatchObject({ retryable: true, partial: true });
    expect(mock.requests).toHaveLength(3);
  });
});

describe("createAnthropicClient (JSON only)", () => {
  it("turns a body cut half way into a retryable ProviderError", async () => {
    const mock = await start({ fault: "drop" });
    const client = createAnthropicClient({ apiKey: API_KEY, baseURL: mock.url, stream: false });
    expect(await providerFailure(client.createMessage(request()))).toMatchObject({ retryable: true });
  });

  it("turns a 200 whose body is an API error into a ProviderError like the stream's error event", async () => {
    const errorBody = (type: string, message: string) => ({
      fault: "status" as const,
      status: 200,
      body: { type: "error", error: { type, message } },
    });
    const mock = await start(
      errorBody("overloaded_error", "Overloaded"),
      errorBody("invalid_request_error", `bad key ${API_KEY}`),
    );
    const client = createAnthropicClient({ apiKey: API_KEY, baseURL: mock.url, stream: false });
    const overloaded = await providerFailure(client.createMessage(request()));
    expect(overloaded).toMatchObject({
      errorType: "overloaded_error",
      requestId: "req_mock_1",
      retryable: true,
      partial: false,
    });
    expect(overloaded.message).toBe(
      `Model provider ${new URL(mock.url).host} overloaded_error: Overloaded (request-id req_mock_1)`,
    );
    const invalid = await providerFailure(client.createMessage(request()));
    expect(invalid).toMatchObject({
      errorType: "invalid_request_error",
      requestId: "req_mock_2",
      retryable: false,
    });
  });

  it("turns a 200 whose body has no content array into a ProviderError, not an empty answer", async () => {
    const mock = await start(
      { fault: "status", status: 200, body: { detail: "Not Found" } },
      {
        fault: "status",
        status: 200,
        body: { id: "msg_1", type: "message", role: "assistant", content: null },
      },
    );
    const client = createAnthropicClient({ apiKey: API_KEY, baseURL: mock.url, stream: false });
    for (const requestId of ["req_mock_1", "req_mock_2"]) {
      const failure = await providerFailure(client.createMessage(request()));
      expect(failure).toMatchObject({ requestId, retryable: false });
      expect(failure.message).toContain("not a message (no content array)");
    }
  });

  it("streaming: a JSON answer instead of SSE is read as the message it is, or as the error it is", async () => {
    const mock = await start(
      {
        fault: "status",
        status: 200,
        body: {
          id: "msg_json",
          type: "message",
          role: "assistant",
          model: "m-json",
          content: [{ type: "text", text: "no streaming here" }],
          stop_reason: "end_turn",
          usage: { input_tokens: 3, output_tokens: 4 },
        },
      },
      {
        fault: "status",
        status: 200,
        body: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
      },
    );
    const client = createAnthropicClient({ apiKey: API_KEY, baseURL: mock.url }); // streaming

    const message = await client.createMessage(request());
    expect(message).toMatchObject({
      content: [{ type: "text", text: "no streaming here" }],
      stop_reason: "end_turn",
      providerResponseId: "msg_json",
    });
    const failure = await providerFailure(client.createMessage(request()));
    expect(failure).toMatchObject({
      errorType: "overloaded_error",
      requestId: "req_mock_2",
      retryable: true,
    });
  });
});

describe.each([
  { mode: "streaming", stream: true },
  { mode: "JSON", stream: false },
])("createAnthropicClient: a 200 that is neither JSON nor an event stream ($mode)", ({ stream }) => {
  // A proxy's login page, a web application behind a wrong baseURL: retrying cannot help, and
  // "connection error" or a bare JSON.parse message would send the user looking in the wrong place.
  it("is a non-retryable ProviderError naming the content type and showing the start of the page", async () => {
    const page = `<!DOCTYPE html><html><title>Sign in to the proxy</title><body>${API_KEY}</body></html>`;
    const mock = await start({
      fault: "status",
      status: 200,
      body: page,
      headers: { "content-type": "text/html; charset=utf-8" },
    });
    const client = createAnthropicClient({ apiKey: API_KEY, baseURL: mock.url, stream });
    const failure = await providerFailure(client.createMessage(request()));
    expect(failure).toMatchObject({ retryable: false, partial: false, requestId: "req_mock_1" });
    expect(failure.message).toContain("text/html");
    expect(failure.message).toContain("<!DOCTYPE html><html><title>Sign in to the proxy");
    expect(failure.message).toContain("(request-id req_mock_1)");
    expect(failure.message).not.toContain("connection error");
    expect(mock.requests).toHaveLength(1);
  });

  it("leaves no fragment of an echoed key in the message", async () => {
    const mock = await start({ fault: "status", status: 200, body: `${API_KEY} is not allowed here` });
    const client = createAnthropicClient({ apiKey: API_KEY, baseURL: mock.url, stream });
    const failure = await providerFailure(client.createMessage(request()));
    expect(failure.retryable).toBe(false);
    expect(failure.message).not.toContain(API_KEY.slice(0, 8));
    expect(failure.message).toContain("[redacted] is not allowed here");
  });
});

/** A client whose `fetch` answers with these SSE bytes, delivered in exactly these chunks. */
function clientOverRawStream(chunks: string[]) {
  return createAnthropicClient({
    apiKey: API_KEY,
    baseURL: "http://127.0.0.1:1",
    fetch: async () => {
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
          controller.close();
        },
      });
      return new Response(body, {
        status: 200,
        headers: { "content-type": "text/event-stream", "request-id": "req_raw" },
      });
    },
  });
}

const data = (payload: unknown) => `data: ${JSON.stringify(payload)}\r\n\r\n`;
const MESSAGE_START = {
  type: "message_start",
  message: { id: "msg_raw", model: "compat-model", usage: { input_tokens: 4, output_tokens: 1 } },
};

describe("createAnthropicClient (raw streams from Anthropic-compatible endpoints)", () => {
  it("reads data-only frames with CRLF endings cut at arbitrary byte boundaries, and ignores [DONE]", async () => {
    const text = [
      data(MESSAGE_START),
      data({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
      data({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "héllo " } }),
      data({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "wörld" } }),
      data({ type: "content_block_stop", index: 0 }),
      data({
        type: "message_delta",
        delta: { stop_reason: "end_turn" },
        usage: { output_tokens: 3, input_tokens: 6 },
      }),
      data({ type: "message_stop" }),
      "data: [DONE]\r\n\r\n",
    ].join("");
    const chunks: string[] = [];
    for (let start = 0, size = 1; start < text.length; start += size, size = (size % 7) + 3)
      chunks.push(text.slice(start, start + size));
    const message = await clientOverRawStream(chunks).createMessage(request());
    expect(message).toEqual({
      role: "assistant",
      content: [{ type: "text", text: "héllo wörld" }],
      stop_reason: "end_turn",
      usage: { input_tokens: 6, output_tokens: 3 },
      providerResponseId: "msg_raw",
      model: "compat-model",
    });
  });

  it("keeps a tool input given whole in content_block_start when no delta follows", async () => {
    const message = await clientOverRawStream([
      data(MESSAGE_START),
      data({
        type: "content_block_start",
        index: 0,
        content_block: { type: "tool_use", id: "t1", name: "add", input: { a: 1 } },
      }),
      data({ type: "content_block_stop", index: 0 }),
      data({ type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 5 } }),
      data({ type: "message_stop" }),
    ]).createMessage(request());
    expect(message.content).toEqual([{ type: "tool_use", id: "t1", name: "add", input: { a: 1 } }]);
  });

  it("keeps citations and server-tool blocks, and ignores events it does not know", async () => {
    const citation = {
      type: "char_location",
      cited_text: "Paris",
      document_index: 0,
      start_char_index: 0,
      end_char_index: 5,
    };
    const serverTool = {
      type: "server_tool_use",
      id: "srvtoolu_1",
      name: "web_search",
      input: { query: "capital" },
    };
    const message = await clientOverRawStream([
      data(MESSAGE_START),
      data({ type: "content_block_start", index: 0, content_block: serverTool }),
      data({ type: "content_block_stop", index: 0 }),
      data({
        type: "content_block_start",
        index: 1,
        content_block: { type: "text", text: "", citations: null },
      }),
      data({ type: "content_block_delta", index: 1, delta: { type: "citations_delta", citation } }),
      data({ type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "Paris." } }),
      data({ type: "content_block_delta", index: 1, delta: { type: "future_delta", payload: 1 } }),
      data({ type: "content_block_stop", index: 1 }),
      data({ type: "future_event", index: 7 }),
      data({ type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 5 } }),
      data({ type: "message_stop" }),
    ]).createMessage(request());
    expect(message.content).toEqual([serverTool, { type: "text", text: "Paris.", citations: [citation] }]);
  });

  it("returns at message_stop even when the body never ends, and lets go of the connection", async () => {
    // A proxy that keeps the response open after the last event: the message is complete, and
    // waiting for the end of the body would turn it into a timeout (or a retry that bills twice).
    let cancelled = false;
    const encoder = new TextEncoder();
    const client = createAnthropicClient({
      apiKey: API_KEY,
      baseURL: "http://127.0.0.1:1",
      fetch: async () =>
        new Response(
          new ReadableStream<Uint8Array>({
            start(controller) {
              for (const frame of [
                data(MESSAGE_START),
                data({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
                data({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "done" } }),
                data({ type: "content_block_stop", index: 0 }),
                data({
                  type: "message_delta",
                  delta: { stop_reason: "end_turn" },
                  usage: { output_tokens: 2 },
                }),
                data({ type: "message_stop" }),
              ])
                controller.enqueue(encoder.encode(frame));
              // never closed
            },
            cancel() {
              cancelled = true;
            },
          }),
          { status: 200, headers: { "content-type": "text/event-stream" } },
        ),
    });
    const message = await client.createMessage(request());
    expect(message).toMatchObject({ content: [{ type: "text", text: "done" }], stop_reason: "end_turn" });
    expect(cancelled).toBe(true);
  }, 5_000); // before the fix, the read never returned

  it("reads the end of a body that follows message_stop, so the connection is reused", async () => {
    // Servers often end the body in a later packet than message_stop; cancelling the body at
    // message_stop would close the connection, and every turn would open a new one (TLS included).
    const frames = [
      data(MESSAGE_START),
      data({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
      data({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "done" } }),
      data({ type: "content_block_stop", index: 0 }),
      data({ type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 2 } }),
      data({ type: "message_stop" }),
    ].join("");
    const http = await import("node:http");
    let connections = 0;
    const server = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(frames);
        setTimeout(() => res.end(), 20);
      });
    });
    server.keepAliveTimeout = 60_000;
    server.on("connection", () => connections++);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as { port: number };
      const client = createAnthropicClient({ apiKey: API_KEY, baseURL: `http://127.0.0.1:${port}` });
      for (let turn = 0; turn < 8; turn++) {
        const message = await client.createMessage(request());
        expect(message.content).toEqual([{ type: "text", text: "done" }]);
      }
      expect(connections).toBeLessThanOrEqual(2); // cancelled bodies: one connection per request
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("fails retryably when the stream ends before the message does", async () => {
    const failure = await providerFailure(
      clientOverRawStream([
        data(MESSAGE_START),
        data({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
        data({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "cut" } }),
      ]).createMessage(request()),
    );
    expect(failure).toMatchObject({ retryable: true, partial: true, requestId: "req_raw" });
    expect(failure.message).toContain("the stream ended before the message was complete");
  });

  it("fails without retry on an event that is not JSON", async () => {
    const failure = await providerFailure(
      clientOverRawStream([data(MESSAGE_START), "event: ping\ndata: {oops\n\n"]).createMessage(request()),
    );
    expect(failure.retryable).toBe(false);
    expect(failure.message).toContain("not JSON");
  });

  it("treats malformed tool input JSON as a provider failure, unless the response was cut off (max_tokens, context window)", async () => {
    const frames = (stopReason: string) => [
      data(MESSAGE_START),
      data({
        type: "content_block_start",
        index: 0,
        content_block: { type: "tool_use", id: "t1", name: "write", input: {} },
      }),
      data({
        type: "content_block_delta",
        index: 0,
        delta: { type: "input_json_delta", partial_json: '{"path": "a.t' },
      }),
      data({ type: "content_block_stop", index: 0 }),
      data({ type: "message_delta", delta: { stop_reason: stopReason }, usage: { output_tokens: 5 } }),
      data({ type: "message_stop" }),
    ];
    const failure = await providerFailure(clientOverRawStream(frames("tool_use")).createMessage(request()));
    expect(failure).toMatchObject({ errorType: "invalid_tool_input", partial: true });
    const truncated = await clientOverRawStream(frames("max_tokens")).createMessage(request());
    expect(truncated.stop_reason).toBe("max_tokens");
    expect(truncated.content).toEqual([{ type: "tool_use", id: "t1", name: "write", input: {} }]);
    // The context window ran out mid-input: an overflow for the loop to recover, not a failure.
    const overflowed = await clientOverRawStream(frames("model_context_window_exceeded")).createMessage(
      request(),
    );
    expect(overflowed.stop_reason).toBe("model_context_window_exceeded");
  });
});

describe("createAnthropicClient options", () => {
  it("throws InvalidOptionError at creation without a key or a baseURL, naming both ways to give one", () => {
    vi.stubEnv("ANTHROPIC_API_KEY", "");
    vi.stubEnv("ANTHROPIC_BASE_URL", "");
    const error = (() => {
      try {
        createAnthropicClient();
      } catch (failure) {
        return failure as Error;
      }
    })();
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect(error!.message).not.toContain("\n");
    expect(error!.message).toContain("apiKey");
    expect(error!.message).toContain("ANTHROPIC_API_KEY");
  });

  it("reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL by default", async () => {
    const mock = await start({ content: "from env" });
    vi.stubEnv("ANTHROPIC_API_KEY", API_KEY);
    vi.stubEnv("ANTHROPIC_BASE_URL", mock.url);
    const message = await createAnthropicClient().createMessage(request());
    expect(message.content).toEqual([{ type: "text", text: "from env" }]);
    const headers = mock.requests[0]!.headers;
    expect(`${headers.authorization ?? ""} ${headers["x-api-key"] ?? ""}`).toContain(API_KEY);
  });

  it("talks to a keyless endpoint given only a baseURL, sending no credentials", async () => {
    vi.stubEnv("ANTHROPIC_API_KEY", "");
    vi.stubEnv("ANTHROPIC_AUTH_TOKEN", "");
    const mock = await start({ content: "local" });
    const message = await createAnthropicClient({ baseURL: mock.url }).createMessage(request());
    expect(message.content).toEqual([{ type: "text", text: "local" }]);
    expect(mock.requests[0]!.headers.authorization).toBeUndefined();
    expect(mock.requests[0]!.headers["x-api-key"]).toBeUndefined();
  });

  it("passes a custom fetch through", async () => {
    const mock = await start({ content: "via custom fetch" });
    const calls: string[] = [];
    const client = createAnthropicClient({
      apiKey: API_KEY,
      baseURL: mock.url,
      fetch: (input, init) => {
        calls.push(String(input instanceof Request ? input.url : input));
        return fetch(input, init);
      },
    });
    await client.createMessage(request());
    expect(calls).toEqual([`${mock.url}/v1/messages`]);
  });
});

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe("createAnthropicClient: secrets in unusual places", () => {
  it("a key in the base URL (user:key@host) never appears in the error", async () => {
    const mock = await startMockAnthropicServer();
    try {
      const url = new URL(mock.url);
      url.username = "user";
      url.password = API_KEY;
      const client = createAnthropicClient({ apiKey: "other-key-0000", baseURL: url.toString() });
      const failure = await providerFailure(client.createMessage(request()));
      expectNoKey(failure);
    } finally {
      await mock.close();
    }
  });

  // A URL that does not parse gives no parts to redact, and fetch's TypeError keeps it whole as `input`.
  it.each([
    `http://user:${API_KEY}@127.0.0.1:99999/`,
    `htp s://user:${API_KEY}@proxy.example/`,
    `http://[::1:${API_KEY}/`,
  ])("a base URL that is not a URL (%s) is refused at creation, without quoting it", (baseURL) => {
    for (const create of [
      () => createAnthropicClient({ apiKey: "other-key-0000", baseURL }),
      () => {
        vi.stubEnv("ANTHROPIC_BASE_URL", baseURL);
        return createAnthropicClient({ apiKey: "other-key-0000" });
      },
    ]) {
      let error: unknown;
      try {
        create();
      } catch (failure) {
        error = failure;
      }
      expect(error).toBeInstanceOf(InvalidOptionError);
      expect((error as Error).message).toContain("baseURL");
      expectNoKey(error);
    }
  });

  it("a key in the base URL's query string never appears in the error", async () => {
    const client = createAnthropicClient({
      baseURL: `http://127.0.0.1:1/?key=${API_KEY}`,
      fetch: async (input) => {
        throw new TypeError(`fetch failed for ${String(input)}`);
      },
    });
    expectNoKey(await providerFailure(client.createMessage(request())));
  });

  it("an echoed key is redacted before a body is cut for the message (no key fragment is left)", async () => {
    // The key straddles the 80th character, where the message cuts the body.
    const body = JSON.stringify({ detail: `${"x".repeat(28)} credential not accepted: ${API_KEY}` });
    const client = createAnthropicClient({
      apiKey: API_KEY,
      baseURL: "http://127.0.0.1:1",
      stream: false,
      fetch: async () => new Response(body, { headers: { "content-type": "application/json" } }),
    });
    const failure = await providerFailure(client.createMessage(request()));
    expect(failure.message).toContain("not a message");
    expect(failure.message).not.toContain(API_KEY.slice(0, 12));
  });

  it("the same for an SSE event that is not JSON", async () => {
    const failure = await providerFailure(
      clientOverRawStream([
        data(MESSAGE_START),
        `event: ping\ndata: {oops ${"x".repeat(47)} the key is ${API_KEY} and more text after it\n\n`,
      ]).createMessage(request()),
    );
    expect(failure.message).toContain("not JSON");
    expect(failure.message).not.toContain(API_KEY.slice(0, 12));
  });

  it("a request id or error type echoing the key is redacted too", async () => {
    const client = createAnthropicClient({
      apiKey: API_KEY,
      baseURL: "http://127.0.0.1:1",
      stream: false,
      fetch: async () =>
        Response.json(
          { type: "error", error: { type: `bad_key_${API_KEY}`, message: "no" } },
          { status: 401, headers: { "request-id": `req_${API_KEY}` } },
        ),
    });
    const failure = await providerFailure(client.createMessage(request()));
    expectNoKey(failure);
    expect(failure.requestId).toBeDefined();
  });
});
