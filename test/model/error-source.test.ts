/**
 * Errors name the service that answered: "Anthropic API" for the Anthropic API only, any other
 * endpoint (a compatible provider, a proxy, a local server) as "Model provider host:port" — for HTTP
 * errors, malformed streams, bodies that are no message, streamed `error` events, in both the
 * streaming and the JSON path. Each answer is served by a `fetch` of the test's own, so the same
 * bytes can come "from" the Anthropic API's host and from another.
 */
import { describe, expect, it } from "vitest";
import { ProviderError } from "../../src/errors";
import { createAnthropicClient } from "../../src/model/anthropic";
import type { ModelRequest } from "../../src/model/client";
import { endpointOf, errorSourceOf } from "../../src/model/endpoint";

const API_KEY = "lattice-test-key-Zr81c0ffee42";

const ENDPOINTS: Array<{ baseURL: string; source: string }> = [
  { baseURL: "https://api.anthropic.com", source: "Anthropic API" },
  { baseURL: "https://api.deepseek.com/anthropic", source: "Model provider api.deepseek.com:443" },
  { baseURL: "http://127.0.0.1:8080", source: "Model provider 127.0.0.1:8080" },
  { baseURL: "http://[::1]:9931/proxy", source: "Model provider [::1]:9931" },
];

function request(): ModelRequest {
  return {
    model: "claude-test-1",
    messages: [{ role: "user", content: "Hello" }],
    maxTokens: 64,
    signal: new AbortController().signal,
  };
}

function sse(...events: object[]): string {
  return events
    .map((event) => `event: ${(event as { type: string }).type}\ndata: ${JSON.stringify(event)}\n\n`)
    .join("");
}

const START = {
  type: "message_start",
  message: { id: "msg_1", model: "claude-test-1", usage: { input_tokens: 3 } },
};
const STOP = [{ type: "message_delta", delta: { stop_reason: "end_turn" } }, { type: "message_stop" }];

/** Each failure: what the server answers, whether the client streams, and how the message goes on after the source. */
const FAILURES: Array<{ name: string; stream: boolean; answer: () => Response; rest: RegExp }> = [
  {
    name: "a stream out of the protocol's order",
    stream: true,
    answer: () =>
      eventStream(sse({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "x" } })),
    rest: /^ stream is malformed: a content_block_delta event before message_start\.$/,
  },
  {
    name: "a tool input that is not JSON",
    stream: true,
    answer: () =>
      eventStream(
        sse(
          START,
          {
            type: "content_block_start",
            index: 0,
            content_block: { type: "tool_use", id: "toolu_1", name: "t", input: {} },
          },
          {
            type: "content_block_delta",
            index: 0,
            delta: { type: "input_json_delta", partial_json: '{"a":' },
          },
          { type: "content_block_stop", index: 0 },
          ...STOP,
        ),
      ),
    rest: /^ stream: a tool_use block's input is not valid JSON\.$/,
  },
  {
    name: "an event that is not JSON",
    stream: true,
    answer: () => eventStream("event: message_start\ndata: {not json\n\n"),
    rest: /^ stream.*not JSON/,
  },
  {
    name: "a streamed error event",
    stream: true,
    answer: () =>
      eventStream(sse(START, { type: "error", error: { type: "overloaded_error", message: "Overloaded" } })),
    rest: /^ stream.*overloaded_error: Overloaded/,
  },
  {
    name: "a body that is neither an event stream nor JSON",
    stream: true,
    answer: () =>
      new Response("<html><body>hello</body></html>", { headers: { "content-type": "text/html" } }),
    rest: /^: the response is neither an event stream nor JSON \(content-type text\/html\)/,
  },
  {
    name: "a JSON body that is not JSON",
    stream: false,
    answer: () => new Response("<html>oops</html>", { headers: { "content-type": "application/json" } }),
    rest: /^: the response is not JSON/,
  },
  {
    name: "a 200 carrying an API error body",
    stream: false,
    answer: () => json({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }),
    rest: /^ overloaded_error: Overloaded$/,
  },
  {
    name: "a JSON body that is no message",
    stream: false,
    answer: () => json({ hello: "world" }),
    rest: /^: the response is not a message \(no content array\)/,
  },
  {
    name: "an HTTP 500",
    stream: false,
    answer: () => json({ type: "error", error: { type: "api_error", message: "Internal" } }, 500),
    rest: /^ 500 api_error: Internal/,
  },
];

function eventStream(body: string): Response {
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => {
      throw new Error("expected the request to fail");
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe.each(ENDPOINTS)("errors from $baseURL name it as '$source'", ({ baseURL, source }) => {
  it.each(FAILURES)("$name", async ({ stream, answer, rest }) => {
    const client = createAnthropicClient({
      apiKey: API_KEY,
      baseURL,
      stream,
      fetch: async () => answer(),
    });
    const error = await failure(client.createMessage(request()));
    expect(error.message.startsWith(source)).toBe(true);
    expect(error.message.slice(source.length)).toMatch(rest);
    if (source !== "Anthropic API") expect(error.message).not.toContain("Anthropic API");
    expect(error.message).not.toContain(API_KEY);
  });
});

describe("errorSourceOf", () => {
  it("says 'Anthropic API' for its host only, in any case, and names every other endpoint by host and port", () => {
    expect(errorSourceOf(endpointOf())).toBe("Anthropic API");
    expect(errorSourceOf(endpointOf("https://API.Anthropic.com/"))).toBe("Anthropic API");
    expect(errorSourceOf(endpointOf("https://api.anthropic.com.evil.example"))).toBe(
      "Model provider api.anthropic.com.evil.example:443",
    );
    expect(errorSourceOf(endpointOf("http://localhost"))).toBe("Model provider localhost:80");
    expect(errorSourceOf(endpointOf("https://bedrock-runtime.us-east-1.amazonaws.com"))).toBe(
      "Model provider bedrock-runtime.us-east-1.amazonaws.com:443",
    );
  });

  it("an endpoint whose URL could not be read is 'Model provider', without an address", () => {
    expect(errorSourceOf(endpointOf("not a url"))).toBe("Model provider");
  });
});
