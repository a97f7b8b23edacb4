/**
 * The API key never leaks: not in `result.error` however it is printed (String, stack, JSON,
 * util.inspect with hidden fields), not in any message a query yields — even when the provider
 * echoes the key back in its error body and headers.
 */
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import {
  createAgent,
  createAnthropicClient,
  type ProviderError,
  type SDKMessage,
  type SDKResultMessage,
} from "../../src/index";
import { type MockStep, startMockAnthropicServer } from "../../src/testing/index";
import { closedPortUrl, runQuery, TRANSPORT_MODES } from "./fault-harness";

/** A key that does not look like an Anthropic key, so only the configured secret can redact it. */
const PLAIN_KEY = "tenant-7f3a9c-credential-5b21d8e4f0";
/** A key shaped like an Anthropic key. */
const ANTHROPIC_SHAPED_KEY = "sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe-AAAA";

function echoingFailure(status: number, key: string): MockStep {
  return {
    fault: "status",
    status,
    headers: { "x-echoed-credential": key, "retry-after-ms": "1" },
    body: {
      type: "error",
      error: {
        type: status === 401 ? "authentication_error" : "overloaded_error",
        message: `credential ${key} was rejected (x-api-key: ${key})`,
      },
    },
  };
}

function everyRendering(value: unknown): string[] {
  const renderings = [
    inspect(value, { depth: Number.POSITIVE_INFINITY, showHidden: true, getters: true }),
    safeJson(value),
  ];
  if (value instanceof Error) renderings.push(String(value), value.stack ?? "", value.message);
  return renderings;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "";
  }
}

function expectNoKey(key: string, result: SDKResultMessage, messages: SDKMessage[]): void {
  expect(result.error).toBeInstanceOf(Error);
  for (const text of everyRendering(result.error)) expect(text).not.toContain(key);
  for (const message of messages) for (const text of everyRendering(message)) expect(text).not.toContain(key);
  let cause: unknown = result.error;
  for (let depth = 0; cause && depth < 8; depth++) {
    for (const text of everyRendering(cause)) expect(text).not.toContain(key);
    cause = (cause as { cause?: unknown }).cause;
  }
}

describe.each(TRANSPORT_MODES)("the API key never appears (%s)", (mode) => {
  it.each([
    ["a plain key", PLAIN_KEY],
    ["an Anthropic-shaped key", ANTHROPIC_SHAPED_KEY],
  ])("401 echoing %s: not in the error nor in any message", async (_label, key) => {
    const server = await startMockAnthropicServer({ responses: [echoingFailure(401, key)] });
    try {
      // The built-in path: createAgent builds the client from apiKey and baseURL.
      const agent =
        mode === "stream"
          ? createAgent({ model: "claude-sonnet-4-6", apiKey: key, baseURL: server.url })
          : createAgent({
              model: "claude-sonnet-4-6",
              client: createAnthropicClient({ apiKey: key, baseURL: server.url, stream: false }),
            });
      const { result, messages } = await runQuery(agent, "Say hello");
      expect(result.subtype).toBe("error_during_execution");
      expect((result.error as ProviderError).status).toBe(401);
      // The key really travelled (the SDK sends it as a bearer token or x-api-key).
      expect(JSON.stringify(server.requests[0]!.headers)).toContain(key);
      expectNoKey(key, result, messages);
    } finally {
      await server.close();
    }
  });

  it.each([
    ["x-api-key", { "x-api-key": PLAIN_KEY }],
    ["X-Api-Key", { "X-Api-Key": PLAIN_KEY }],
    ["Authorization: Bearer", { Authorization: `Bearer ${PLAIN_KEY}` }],
    ["authorization: Bearer", { authorization: `Bearer ${PLAIN_KEY}` }],
  ])(
    "a key given through defaultHeaders (%s), echoed in a 401: not in the error nor in any message",
    async (_label, defaultHeaders) => {
      const server = await startMockAnthropicServer({ responses: [echoingFailure(401, PLAIN_KEY)] });
      try {
        const agent = createAgent({
          model: "claude-sonnet-4-6",
          client: createAnthropicClient({ baseURL: server.url, defaultHeaders, stream: mode === "stream" }),
        });
        const { result, messages } = await runQuery(agent, "Say hello");
        expect(result.subtype).toBe("error_during_execution");
        expect((result.error as ProviderError).status).toBe(401);
        expect(JSON.stringify(server.requests[0]!.headers)).toContain(PLAIN_KEY);
        expectNoKey(PLAIN_KEY, result, messages);
      } finally {
        await server.close();
      }
    },
  );

  it("retried failures echoing the key: not in the api_retry messages nor in the final error", async () => {
    const server = await startMockAnthropicServer({
      responses: [
        echoingFailure(529, PLAIN_KEY),
        echoingFailure(529, PLAIN_KEY),
        echoingFailure(529, PLAIN_KEY),
      ],
    });
    try {
      const agent = createAgent({
        model: "claude-sonnet-4-6",
        apiKey: PLAIN_KEY,
        client: createAnthropicClient({ apiKey: PLAIN_KEY, baseURL: server.url, stream: mode === "stream" }),
        _internal: { sleep: async () => {} },
      });
      const { result, messages, retries } = await runQuery(agent, "Say hello");
      expect(retries).toHaveLength(2);
      expect(result.subtype).toBe("error_during_execution");
      expectNoKey(PLAIN_KEY, result, messages);
    } finally {
      await server.close();
    }
  });

  it("a refused connection: not in the error", async () => {
    const agent = createAgent({
      model: "claude-sonnet-4-6",
      client: createAnthropicClient({
        apiKey: PLAIN_KEY,
        baseURL: await closedPortUrl(),
        stream: mode === "stream",
      }),
      _internal: { sleep: async () => {} },
    });
    const { result, messages } = await runQuery(agent, "Say hello");
    expect(result.subtype).toBe("error_during_execution");
    expectNoKey(PLAIN_KEY, result, messages);
  });
});

describe("a custom client that throws an error carrying the key", () => {
  it("is reported without the key when the agent knows it", async () => {
    const leaky = Object.assign(new Error(`upstream said: bad key ${PLAIN_KEY}`), {
      status: 401,
      headers: { authorization: `Bearer ${PLAIN_KEY}` },
    });
    const agent = createAgent({
      model: "claude-sonnet-4-6",
      apiKey: PLAIN_KEY,
      client: {
        createMessage: async () => {
          throw leaky;
        },
      },
    });
    const { result, messages } = await runQuery(agent, "Say hello");
    expect(result.subtype).toBe("error_during_execution");
    expect((result.error as ProviderError).status).toBe(401);
    expectNoKey(PLAIN_KEY, result, messages);
  });
});
