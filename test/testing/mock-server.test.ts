import { afterEach, describe, expect, it } from "vitest";
import type { ContentBlock } from "../../src/messages/types";
import { type MockAnthropicServer, type MockStep, startMockAnthropicServer } from "../../src/testing";
import { splitEvenly, splitUnevenly } from "../../src/testing/mock-server-response";
import { encodeServerSentEvent } from "../../src/testing/sse";
import { until } from "../support/promises";

let server: MockAnthropicServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(...responses: MockStep[]): Promise<MockAnthropicServer> {
  server = await startMockAnthropicServer({ responses });
  return server;
}

function post(base: string, body: unknown, path = "/v1/messages"): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-test": "yes" },
    body: JSON.stringify(body),
  });
}

/** The parsed JSON body of a response. */
function json(response: Response): Promise<any> {
  return response.json();
}

const REQUEST = { model: "claude-test-1", max_tokens: 64, messages: [{ role: "user", content: "Hi" }] };

/** Splits an SSE body into frames, checking the `event:` line matches the payload's `type`. */
function parseFrames(text: string): Array<{ event: string; data: any }> {
  expect(text.endsWith("\n\n")).toBe(true);
  return text
    .split("\n\n")
    .filter((frame) => frame.length > 0)
    .map((frame) => {
      const [eventLine, dataLine, ...rest] = frame.split("\n");
      expect(rest).toEqual([]);
      expect(eventLine).toMatch(/^event: /);
      expect(dataLine).toMatch(/^data: /);
      const event = eventLine!.slice("event: ".length);
      const data = JSON.parse(dataLine!.slice("data: ".length));
      expect(data.type).toBe(event);
      return { event, data };
    });
}

describe("encodeServerSentEvent", () => {
  it("writes an event line, a one-line JSON data line and a blank line", () => {
    expect(encodeServerSentEvent({ event: "ping", data: { type: "ping" } })).toBe(
      'event: ping\ndata: {"type":"ping"}\n\n',
    );
    const multiline = encodeServerSentEvent({ event: "content_block_delta", data: { text: "a\nb\r\nc" } });
    expect(multiline.split("\n")).toHaveLength(4);
    expect(JSON.parse(multiline.split("\n")[1]!.slice(6))).toEqual({ text: "a\nb\r\nc" });
  });

  it("rejects an event name with a line break", () => {
    expect(() => encodeServerSentEvent({ event: "a\nb", data: {} })).toThrow(TypeError);
  });
});

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe("delta splitting", () => {
  it("splits text evenly and tool JSON unevenly, losing nothing", () => {
    expect(splitEvenly("abcdefgh", 3)).toEqual(["abc", "def", "gh"]);
    expect(splitEvenly("", 3)).toEqual([]);
    const json = JSON.stringify({ path: "src/a.ts", lines: [1, 2, 3], note: "ünïcode" });
    const pieces = splitUnevenly(json);
    expect(pieces.join("")).toBe(json);
    expect(new Set(pieces.map((piece) => piece.length)).size).toBeGreaterThan(2);
  });

  it("never cuts a character in two: every piece is well-formed text, as the API's deltas are", () => {
    // Astral characters (emoji) are two UTF-16 code units; a cut between them leaves lone
    // surrogates, which a client writing each delta out as UTF-8 shows as U+FFFD.
    const text = "😀🎉👍🏽 fine ✓ 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 😀😀😀";
    const json = JSON.stringify({ note: "𝔘𝔫𝔦😀🎉", ok: true });
    for (const pieces of [
      ...[2, 3, 4, 5, 7].map((count) => splitEvenly(text, count)),
      splitUnevenly(json),
      splitUnevenly(text),
    ]) {
      expect(pieces.length).toBeGreaterThan(1);
      for (const piece of pieces) expect(piece, JSON.stringify(piece)).not.toMatch(LONE_SURROGATE);
    }
    expect(splitEvenly(text, 3).join("")).toBe(text);
    expect(splitUnevenly(json).join("")).toBe(json);
  });
});

describe("startMockAnthropicServer — JSON", () => {
  it("answers like the Messages API and records the request", async () => {
    const mock = await start({ content: "Hello!", usage: { input_tokens: 12, output_tokens: 3 } });
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await post(mock.url, REQUEST);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("request-id")).toBe("req_mock_1");
    expect(await json(response)).toEqual({
      id: "msg_mock_1",
      type: "message",
      role: "assistant",
      model: "claude-test-1",
      content: [{ type: "text", text: "Hello!" }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 12, output_tokens: 3 },
    });
    expect(mock.requests).toHaveLength(1);
    expect(mock.requests[0]).toMatchObject({ method: "POST", path: "/v1/messages", body: REQUEST });
    expect(mock.requests[0]!.headers["x-test"]).toBe("yes");
    expect(mock.pending).toBe(0);
  });

  it("defaults stop_reason to tool_use for tool calls, lets the step override model and id, and estimates usage", async () => {
    const mock = await start({
      content: [{ type: "tool_use", id: "toolu_1", name: "read", input: { path: "a" } }],
      model: "claude-served-2",
      id: "msg_custom",
    });
    const body = await json(await post(mock.url, REQUEST));
    expect(body).toMatchObject({ id: "msg_custom", model: "claude-served-2", stop_reason: "tool_use" });
    expect(body.usage.input_tokens).toBeGreaterThan(0);
    expect(body.usage.output_tokens).toBeGreaterThan(0);
    expect(body.usage).not.toHaveProperty("cache_read_input_tokens");
  });

  it("fails loudly when nothing is scripted, and records that request too", async () => {
    const mock = await start({ content: "one" });
    await post(mock.url, REQUEST);
    const response = await post(mock.url, REQUEST);
    expect(response.status).toBe(500);
    const body = await json(response);
    expect(body.type).toBe("error");
    expect(body.error.message).toContain("mock server: no scripted response left for request #2");
    expect(mock.requests).toHaveLength(2);
  });

  it("uses enqueued steps first, then the handler with the body and the request index", async () => {
    const seen: Array<[string, number]> = [];
    server = await startMockAnthropicServer({
      handler: (body, index) => {
        seen.push([body.messages[0].content, index]);
        return { content: `handled ${index}` };
      },
    });
    server.enqueue({ content: "queued" });
    expect(server.pending).toBe(1);
    const first = await json(await post(server.url, REQUEST));
    const second = await json(
      await post(server.url, { ...REQUEST, messages: [{ role: "user", content: "again" }] }),
    );
    expect(first.content[0].text).toBe("queued");
    expect(second.content[0].text).toBe("handled 1");
    expect(seen).toEqual([["again", 1]]);
    server.setHandler(async () => ({ fault: "status", status: 503 }));
    expect((await post(server.url, REQUEST)).status).toBe(503);
  });

  it("answers 404 for other routes and 400 for a body that is not JSON", async () => {
    const mock = await start({ content: "unused" });
    const notFound = await post(mock.url, REQUEST, "/v1/complete");
    expect(notFound.status).toBe(404);
    expect((await json(notFound)).error.type).toBe("not_found_error");
    const malformed = await fetch(`${mock.url}/v1/messages`, { method: "POST", body: "{not json" });
    expect(malformed.status).toBe(400);
    expect(mock.pending).toBe(1);
    expect(mock.requests.map((request) => request.body)).toEqual([REQUEST, "{not json"]);
  });
});

describe("startMockAnthropicServer — streaming", () => {
  it("streams message_start, ping, block events with split deltas, message_delta and message_stop", async () => {
    const input = { path: "src/index.ts", options: { lines: [1, 2, 3], note: "ünïcode ✓" } };
    const mock = await start({
      content: [
        { type: "thinking", thinking: "Let me think about this carefully.", signature: "sig-abc" },
        { type: "text", text: "I will read the file now." },
        { type: "tool_use", id: "toolu_9", name: "read_file", input },
      ],
      usage: {
        input_tokens: 100,
        output_tokens: 40,
        cache_creation_input_tokens: 7,
        cache_read_input_tokens: 900,
      },
    });
    const response = await post(mock.url, { ...REQUEST, stream: true });
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(response.headers.get("request-id")).toBe("req_mock_1");
    const frames = parseFrames(await response.text());
    const names = frames.map((frame) => frame.event);
    expect(names.slice(0, 2)).toEqual(["message_start", "ping"]);
    expect(names.slice(-2)).toEqual(["message_delta", "message_stop"]);

    const opening = frames[0]!.data.message;
    expect(opening).toMatchObject({
      id: "msg_mock_1",
      model: "claude-test-1",
      content: [],
      stop_reason: null,
    });
    expect(opening.usage).toEqual({
      input_tokens: 100,
      output_tokens: 1,
      cache_creation_input_tokens: 7,
      cache_read_input_tokens: 900,
    });
    expect(frames.at(-2)!.data).toEqual({
      type: "message_delta",
      delta: { stop_reason: "tool_use", stop_sequence: null },
      usage: { output_tokens: 40 },
    });

    const deltasOf = (index: number) =>
      frames
        .filter((frame) => frame.event === "content_block_delta" && frame.data.index === index)
        .map((frame) => frame.data.delta);
    const thinking = deltasOf(0);
    expect(thinking.filter((delta) => delta.type === "thinking_delta").length).toBeGreaterThan(1);
    expect(thinking.at(-1)).toEqual({ type: "signature_delta", signature: "sig-abc" });
    const text = deltasOf(1);
    expect(text.length).toBeGreaterThan(1);
    expect(text.map((delta) => delta.text).join("")).toBe("I will read the file now.");
    const json = deltasOf(2);
    expect(json[0]).toEqual({ type: "input_json_delta", partial_json: "" });
    expect(json.length).toBeGreaterThan(3);
    expect(JSON.parse(json.map((delta) => delta.partial_json).join(""))).toEqual(input);

    const starts = frames
      .filter((frame) => frame.event === "content_block_start")
      .map((frame) => frame.data.content_block);
    expect(starts).toEqual([
      { type: "thinking", thinking: "", signature: "" },
      { type: "text", text: "" },
      { type: "tool_use", id: "toolu_9", name: "read_file", input: {} },
    ]);
    expect(
      frames.filter((frame) => frame.event === "content_block_stop").map((frame) => frame.data.index),
    ).toEqual([0, 1, 2]);
  });

  it("streams the input of server and MCP tool calls as input_json_delta pieces, like tool_use", async () => {
    const input = { query: "capital of France" };
    const mock = await start({
      content: [
        { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input },
        { type: "mcp_tool_use", id: "mcptoolu_1", name: "lookup", server_name: "atlas", input },
      ] as unknown as ContentBlock[],
    });
    const frames = parseFrames(await (await post(mock.url, { ...REQUEST, stream: true })).text());
    const starts = frames
      .filter((frame) => frame.event === "content_block_start")
      .map((frame) => frame.data.content_block);
    expect(starts).toEqual([
      { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: {} },
      { type: "mcp_tool_use", id: "mcptoolu_1", name: "lookup", server_name: "atlas", input: {} },
    ]);
    for (const index of [0, 1]) {
      const pieces = frames
        .filter((frame) => frame.event === "content_block_delta" && frame.data.index === index)
        .map((frame) => frame.data.delta);
      expect(pieces.every((delta) => delta.type === "input_json_delta")).toBe(true);
      expect(pieces.length).toBeGreaterThan(2);
      expect(JSON.parse(pieces.map((delta) => delta.partial_json).join(""))).toEqual(input);
    }
  });

  it("sends an error frame and ends the stream for sse_error", async () => {
    const mock = await start({ fault: "sse_error", afterEvents: 3 });
    const frames = parseFrames(await (await post(mock.url, { ...REQUEST, stream: true })).text());
    expect(frames.map((frame) => frame.event)).toEqual([
      "message_start",
      "ping",
      "content_block_start",
      "error",
    ]);
    expect(frames[3]!.data).toEqual({
      type: "error",
      error: { type: "overloaded_error", message: "Overloaded" },
      request_id: "req_mock_1",
    });
  });

  it("cuts the stream after the given number of events for drop", async () => {
    const mock = await start({ fault: "drop", afterEvents: 2 });
    const response = await post(mock.url, { ...REQUEST, stream: true });
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
  });
});

describe("startMockAnthropicServer — faults", () => {
  it("sends the API's error JSON for a status fault, with retry-after on 429", async () => {
    const mock = await start(
      { fault: "status", status: 529 },
      { fault: "status", status: 429 },
      {
        fault: "status",
        status: 400,
        body: { type: "error", error: { type: "invalid_request_error", message: "custom" } },
      },
      { fault: "status", status: 502, body: "<html>Bad gateway</html>", headers: { "x-extra": "1" } },
    );
    const overloaded = await post(mock.url, REQUEST);
    expect(overloaded.status).toBe(529);
    expect(await json(overloaded)).toEqual({
      type: "error",
      error: { type: "overloaded_error", message: "Overloaded" },
      request_id: "req_mock_1",
    });
    const limited = await post(mock.url, REQUEST);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("1");
    expect((await json(limited)).error.type).toBe("rate_limit_error");
    expect((await json(await post(mock.url, REQUEST))).error.message).toBe("custom");
    const gateway = await post(mock.url, REQUEST);
    expect(gateway.status).toBe(502);
    expect(gateway.headers.get("x-extra")).toBe("1");
    expect(await gateway.text()).toBe("<html>Bad gateway</html>");
  });

  it("sends a 429's own Retry-After, in any capitalisation, instead of the default retry-after: 1", async () => {
    const mock = await start(
      { fault: "status", status: 429, headers: { "Retry-After": "0" } },
      { fault: "status", status: 429, headers: { "RETRY-AFTER": "7" } },
      { fault: "status", status: 429, headers: { "retry-after-ms": "250" } },
    );
    for (const expected of ["0", "7"]) {
      const response = await post(mock.url, REQUEST);
      expect(response.status).toBe(429);
      // Both headers would be joined by fetch as "1, 0".
      expect(response.headers.get("retry-after")).toBe(expected);
    }
    const withMilliseconds = await post(mock.url, REQUEST);
    expect(withMilliseconds.headers.get("retry-after-ms")).toBe("250");
    expect(withMilliseconds.headers.get("retry-after")).toBe("1");
  });

  it("answers a JSON request's sse_error as the matching HTTP error", async () => {
    const mock = await start({ fault: "sse_error", errorType: "rate_limit_error", message: "slow down" });
    const response = await post(mock.url, REQUEST);
    expect(response.status).toBe(429);
    expect((await json(response)).error).toEqual({ type: "rate_limit_error", message: "slow down" });
  });

  it("cuts a JSON body half way for drop, and refuses the response for drop beforeResponse", async () => {
    const mock = await start({ fault: "drop" }, { fault: "drop", beforeResponse: true });
    const halfway = await post(mock.url, REQUEST);
    await expect(halfway.text()).rejects.toThrow();
    await expect(post(mock.url, REQUEST)).rejects.toThrow(/fetch failed/);
  });

  it("keeps a hung request open until close, which releases it and resolves", async () => {
    const mock = await start({ fault: "hang" });
    const pending = post(mock.url, REQUEST);
    await until(() => mock.requests.length > 0);
    const outcome = pending.then(
      () => "answered",
      () => "released",
    );
    await mock.close();
    expect(await outcome).toBe("released");
    server = undefined;
  });

  it("waits delayMs before answering, and a client that leaves is not an error", async () => {
    const mock = await start({ content: "late", delayMs: 10_000 });
    const controller = new AbortController();
    const pending = fetch(`${mock.url}/v1/messages`, {
      method: "POST",
      body: JSON.stringify(REQUEST),
      signal: controller.signal,
    });
    await until(() => mock.requests.length > 0);
    controller.abort();
    await expect(pending).rejects.toThrow();
    mock.enqueue({ content: "next" });
    expect((await json(await post(mock.url, REQUEST))).content[0].text).toBe("next");
  });
});

describe("startMockAnthropicServer — many requests at once", () => {
  it("answers 30 concurrent requests without a MaxListenersExceededWarning (every open one listens for close)", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      server = await startMockAnthropicServer({ handler: () => ({ content: "ok", delayMs: 50 }) });
      const base = server.url;
      const answers = await Promise.all(
        Array.from({ length: 30 }, () => post(base, REQUEST).then((response) => json(response))),
      );
      expect(answers.map((answer) => answer.content[0].text)).toEqual(Array(30).fill("ok"));
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
      expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });
});
