/**
 * The built-in client over an SDK client of the caller's (`createAnthropicClient({ anthropic })`),
 * end to end against the mock server: a plain `Anthropic` with its own fetch and headers, and
 * `AnthropicVertex` against the server's Vertex route. Retries, deadlines, cancellation and
 * redaction must hold exactly as for the built-in wire.
 */
import { inspect } from "node:util";
import Anthropic from "@anthropic-ai/sdk";
import AnthropicVertex from "@anthropic-ai/vertex-sdk";
import { afterEach, describe, expect, it } from "vitest";
import { InvalidOptionError, ProviderError, TimeoutError } from "../../src/errors";
import { createAgent } from "../../src/index";
import { createAnthropicClient } from "../../src/model/anthropic";
import type { ModelRequest, ModelStreamEvent } from "../../src/model/client";
import { type MockAnthropicServer, type MockStep, startMockAnthropicServer } from "../../src/testing";
import { closedPort } from "./closed-port";

const API_KEY = "lattice-injected-key-7Rw2Kq9Xb4";

let server: MockAnthropicServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(...responses: MockStep[]): Promise<MockAnthropicServer> {
  server = await startMockAnthropicServer({ responses });
  return server;
}

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: "claude-injected-1",
    messages: [{ role: "user", content: "Hello" }],
    maxTokens: 256,
    signal: new AbortController().signal,
    ...overrides,
  };
}

function expectNoKey(error: unknown): void {
  for (const view of [
    String(error),
    (error as Error).stack ?? "",
    inspect(error, { depth: 10, showHidden: true }),
  ])
    expect(view).not.toContain(API_KEY);
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => {
      throw new Error("expected the request to fail");
    },
    (thrown: unknown) => thrown,
  );
  expectNoKey(error);
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

/** An `Anthropic` whose requests go through a recording fetch to the mock server. */
function sdkFor(mock: MockAnthropicServer, fetched: string[] = []) {
  return new Anthropic({
    apiKey: API_KEY,
    baseURL: mock.url,
    defaultHeaders: { "x-tenant": "lattice-tests" },
    fetch: (input: string | URL | Request, init?: RequestInit) => {
      fetched.push(String(input instanceof Request ? input.url : input));
      return fetch(input, init);
    },
  });
}

describe.each([
  { mode: "streaming", stream: true },
  { mode: "JSON", stream: false },
])("createAnthropicClient({ anthropic: new Anthropic(…) }) ($mode)", ({ stream }) => {
  it("sends through the SDK client: its fetch, its headers, its key; the answer assembled", async () => {
    const mock = await start({
      content: [
        { type: "text", text: "Reading it." },
        { type: "tool_use", id: "toolu_1", name: "read", input: { path: "a.txt", lines: [1, 2] } },
      ],
      usage: { input_tokens: 11, output_tokens: 7 },
      id: "msg_injected",
    });
    const fetched: string[] = [];
    const events: ModelStreamEvent[] = [];
    const client = createAnthropicClient({ anthropic: sdkFor(mock, fetched), stream });
    const message = await client.createMessage(request({ onEvent: (event) => events.push(event) }));
    expect(message).toEqual({
      role: "assistant",
      content: [
        { type: "text", text: "Reading it." },
        { type: "tool_use", id: "toolu_1", name: "read", input: { path: "a.txt", lines: [1, 2] } },
      ],
      stop_reason: "tool_use",
      usage: { input_tokens: 11, output_tokens: 7 },
      providerResponseId: "msg_injected",
      model: "claude-injected-1",
    });
    expect(fetched).toEqual([`${mock.url}/v1/messages`]);
    const sent = mock.requests[0]!;
    expect(sent.headers["x-tenant"]).toBe("lattice-tests");
    expect(`${sent.headers.authorization ?? ""} ${sent.headers["x-api-key"] ?? ""}`).toContain(API_KEY);
    expect(sent.body).toMatchObject({ model: "claude-injected-1", max_tokens: 256, stream });
    if (stream) {
      expect(events[0]!.type).toBe("message_start");
      expect(events.at(-1)!.type).toBe("message_stop");
    } else {
      expect(events).toEqual([]);
    }
    expect(client.endpoint).toMatchObject({ providerName: "anthropic", address: "127.0.0.1" });
  });

  it("sends exactly one HTTP request per call, whatever the SDK client's own maxRetries", async () => {
    const mock = await start({ fault: "status", status: 529 }, { content: "would be the SDK's retry" });
    const sdk = new Anthropic({ apiKey: API_KEY, baseURL: mock.url, maxRetries: 5 });
    const error = await failure(createAnthropicClient({ anthropic: sdk, stream }).createMessage(request()));
    expect(error).toMatchObject({ status: 529, errorType: "overloaded_error", retryable: true });
    // Not the Anthropic API: the error names the endpoint that answered.
    expect(error.message).toMatch(
      /^Model provider 127\.0\.0\.1:\d+ 529 overloaded_error: Overloaded \(request-id req_mock_1\)$/,
    );
    expect(mock.requests).toHaveLength(1);
  });

  it("never shows the SDK client's key, even when the server echoes it", async () => {
    const mock = await start({
      fault: "status",
      status: 401,
      body: {
        type: "error",
        error: { type: "authentication_error", message: `invalid x-api-key: ${API_KEY}` },
      },
    });
    const client = createAnthropicClient({ anthropic: sdkFor(mock), stream });
    const error = await failure(client.createMessage(request()));
    expect(error).toMatchObject({ status: 401, retryable: false });
    expect(error.message).toContain("invalid x-api-key: [redacted]");
  });

  it("ends a request to a hung server at timeoutMs with a TimeoutError", async () => {
    const mock = await start({ fault: "hang" });
    const client = createAnthropicClient({ anthropic: sdkFor(mock), stream });
    const error = await client.createMessage(request({ timeoutMs: 300 })).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).timeoutMs).toBe(300);
  });

  it("rethrows the caller's abort as is", async () => {
    const mock = await start();
    const received = new Promise<void>((resolve) =>
      mock.setHandler(() => {
        resolve();
        return { fault: "hang" };
      }),
    );
    const controller = new AbortController();
    const reason = new Error("caller cancelled");
    const pending = createAnthropicClient({ anthropic: sdkFor(mock), stream }).createMessage(
      request({ signal: controller.signal }),
    );
    await received;
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });

  it("names the endpoint and the cause of a refused connection, retryably", async () => {
    const port = await closedPort();
    const sdk = new Anthropic({ apiKey: API_KEY, baseURL: `http://127.0.0.1:${port}`, maxRetries: 0 });
    const error = await failure(createAnthropicClient({ anthropic: sdk, stream }).createMessage(request()));
    expect(error.message).toBe(`Model provider at 127.0.0.1:${port}: connection refused (ECONNREFUSED)`);
    expect(error.retryable).toBe(true);
  });
});

describe("createAnthropicClient({ anthropic: new Anthropic(…) }) (streaming only)", () => {
  it("stops at an abort in the middle of the stream and rethrows the abort", async () => {
    const mock = await start({ content: "one two three four five six seven", eventDelayMs: 30 });
    const controller = new AbortController();
    const events: ModelStreamEvent[] = [];
    const pending = createAnthropicClient({ anthropic: sdkFor(mock) }).createMessage(
      request({
        signal: controller.signal,
        onEvent: (event) => {
          events.push(event);
          if (event.type === "content_block_delta") controller.abort();
        },
      }),
    );
    const error = await pending.catch((thrown: unknown) => thrown);
    expect(error).toBe(controller.signal.reason);
    expect(events.filter((event) => event.type === "content_block_delta")).toHaveLength(1);
  });

  it("turns an error event into a retryable ProviderError, partial once content streamed", async () => {
    const mock = await start({ fault: "sse_error", afterEvents: 4 });
    const error = await failure(createAnthropicClient({ anthropic: sdkFor(mock) }).createMessage(request()));
    expect(error).toMatchObject({ errorType: "overloaded_error", retryable: true, partial: true });
  });

  it("a connection dropped mid-stream is a retryable failure, partial after content", async () => {
    const mock = await start({ fault: "drop", afterEvents: 5 });
    const error = await failure(createAnthropicClient({ anthropic: sdkFor(mock) }).createMessage(request()));
    expect(error).toMatchObject({ retryable: true, partial: true });
  });
});

describe("an agent over an injected SDK client", () => {
  it("retries through the loop (the SDK's own retries stay off), then answers", async () => {
    const mock = await start({ fault: "status", status: 529 }, { content: "recovered" });
    const sdk = new Anthropic({ apiKey: API_KEY, baseURL: mock.url, maxRetries: 3 });
    const agent = createAgent({
      model: "claude-injected-1",
      client: createAnthropicClient({ anthropic: sdk }),
      retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 1 },
    });
    const retries: unknown[] = [];
    let result: { subtype: string; result: string } | undefined;
    for await (const message of agent.query("Hi")) {
      if (message.type === "system" && message.subtype === "api_retry") retries.push(message);
      if (message.type === "result") result = message;
    }
    expect(result).toMatchObject({ subtype: "success", result: "recovered" });
    expect(retries).toHaveLength(1);
    expect(mock.requests).toHaveLength(2);
  });
});

/** A Google auth client that hands out a fixed token: no metadata server, no network. */
function fakeGoogleAuthClient(token: string) {
  return {
    projectId: "lattice-project",
    getRequestHeaders: async () => new Headers({ authorization: `Bearer ${token}` }),
  } as unknown as ConstructorParameters<typeof AnthropicVertex>[0] extends infer O
    ? O extends { authClient?: infer C }
      ? NonNullable<C>
      : never
    : never;
}

describe.each([
  { mode: "streaming", stream: true, method: "streamRawPredict" },
  { mode: "JSON", stream: false, method: "rawPredict" },
])("createAnthropicClient({ anthropic: new AnthropicVertex(…) }) ($mode)", ({ stream, method }) => {
  it("speaks Vertex's URL shape: the model in the path, anthropic_version in the body", async () => {
    const mock = await start({ content: "Hello from Vertex.", usage: { input_tokens: 5, output_tokens: 4 } });
    const token = "ya29.fake-vertex-token-Q8s1";
    const vertex = new AnthropicVertex({
      region: "us-east5",
      projectId: "lattice-project",
      baseURL: `${mock.url}/v1`,
      authClient: fakeGoogleAuthClient(token),
    });
    const client = createAnthropicClient({ anthropic: vertex, stream });
    const message = await client.createMessage(request({ model: "claude-sonnet-4-6@20260101" }));
    expect(message).toMatchObject({
      content: [{ type: "text", text: "Hello from Vertex." }],
      stop_reason: "end_turn",
      usage: { input_tokens: 5, output_tokens: 4 },
      model: "claude-sonnet-4-6@20260101",
    });
    const sent = mock.requests[0]!;
    expect(sent.path).toBe(
      `/v1/projects/lattice-project/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-6@20260101:${method}`,
    );
    expect(sent.body).not.toHaveProperty("model");
    expect(typeof sent.body.anthropic_version).toBe("string");
    expect(sent.headers.authorization).toBe(`Bearer ${token}`);
    expect(sent.headers["x-api-key"]).toBeUndefined();
  });

  it("maps Vertex's failures like the API's, once per call", async () => {
    const mock = await start({ fault: "status", status: 429, headers: { "retry-after": "3" } });
    const vertex = new AnthropicVertex({
      region: "us-east5",
      projectId: "lattice-project",
      baseURL: `${mock.url}/v1`,
      authClient: fakeGoogleAuthClient("ya29.another-token"),
    });
    const error = await failure(
      createAnthropicClient({ anthropic: vertex, stream }).createMessage(request()),
    );
    expect(error).toMatchObject({ status: 429, retryable: true, retryAfterMs: 3000 });
    expect(mock.requests).toHaveLength(1);
  });
});

describe("createAnthropicClient({ anthropic }) options", () => {
  it("refuses what is not an SDK client", () => {
    expect(() => createAnthropicClient({ anthropic: {} as never })).toThrow(InvalidOptionError);
  });

  it("refuses options that belong to the SDK client", () => {
    const sdk = new Anthropic({ apiKey: API_KEY });
    expect(() => createAnthropicClient({ anthropic: sdk, apiKey: "other" })).toThrow(/`apiKey`/);
    expect(() => createAnthropicClient({ anthropic: sdk, baseURL: "http://x", fetch })).toThrow(
      /`baseURL`, `fetch`/,
    );
  });

  it("takes any object with a compatible messages.create (duck-typed)", async () => {
    const bodies: unknown[] = [];
    const client = createAnthropicClient({
      stream: false,
      anthropic: {
        messages: {
          create: (async (body: unknown) => {
            bodies.push(body);
            return { id: "msg_duck", content: [{ type: "text", text: "quack" }], stop_reason: "end_turn" };
          }) as never,
        },
      },
    });
    expect((await client.createMessage(request())).content).toEqual([{ type: "text", text: "quack" }]);
    expect(bodies[0]).toMatchObject({ model: "claude-injected-1", stream: false });
  });
});
