/**
 * Failures that must not be retried, against the mock server over real HTTP: client errors fail
 * fast with one attempt, and a stream that already showed content to the consumer is never
 * silently replayed.
 */
import { describe, expect, it } from "vitest";
import { ProviderError, type SDKMessage } from "../../src/index";
import type { MockStep } from "../../src/testing/index";
import { FALLBACK_MODEL, runQuery, startHarness, TRANSPORT_MODES } from "./fault-harness";

const NEVER_SENT: MockStep = { content: "this answer must never be requested" };

const CLIENT_ERRORS: Array<[number, string]> = [
  [400, "invalid_request_error"],
  [401, "authentication_error"],
  [403, "permission_error"],
  [404, "not_found_error"],
  [413, "request_too_large"],
];

const PROMPT_TOO_LONG: MockStep = {
  fault: "status",
  status: 400,
  body: {
    type: "error",
    error: { type: "invalid_request_error", message: "prompt is too long: 210000 tokens > 200000 maximum" },
  },
};

describe.each(TRANSPORT_MODES)("non-retryable failures (%s)", (mode) => {
  it.each(CLIENT_ERRORS)(
    "HTTP %i fails fast with one attempt, keeping status, type and request id",
    async (status, errorType) => {
      const harness = await startHarness({ mode, steps: [{ fault: "status", status }, NEVER_SENT] });
      const { result, retries, fallbacks } = await runQuery(harness.agent, "Say hello");

      expect(harness.server.requests).toHaveLength(1);
      expect(harness.waits).toEqual([]);
      expect(retries).toEqual([]);
      expect(fallbacks).toEqual([]);
      expect(result.subtype).toBe("error_during_execution");
      expect(result.is_error).toBe(true);
      const error = result.error as ProviderError;
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ status, errorType, requestId: "req_mock_1", retryable: false });
      expect(error.message).toContain(String(status));
      expect(error.message).toContain("req_mock_1");
    },
  );

  it("a client error is not handed to the fallback model either", async () => {
    const harness = await startHarness({
      mode,
      agent: { fallbackModel: FALLBACK_MODEL },
      steps: [{ fault: "status", status: 400 }, NEVER_SENT],
    });
    const { result, fallbacks } = await runQuery(harness.agent, "Say hello");
    expect(result.subtype).toBe("error_during_execution");
    expect(fallbacks).toEqual([]);
    expect(harness.server.requests).toHaveLength(1);
  });

  it("prompt-too-long without autoCompact fails fast with the provider's wording", async () => {
    const harness = await startHarness({ mode, steps: [PROMPT_TOO_LONG, NEVER_SENT] });
    const { result, retries } = await runQuery(harness.agent, "A very long prompt");
    expect(harness.server.requests).toHaveLength(1);
    expect(retries).toEqual([]);
    expect(result.subtype).toBe("error_during_execution");
    const error = result.error as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.status).toBe(400);
    expect(error.message).toContain("prompt is too long");
  });

  it("an error type the API does not retry, sent as an SSE event (or its status), fails fast", async () => {
    const harness = await startHarness({
      mode,
      steps: [
        { fault: "sse_error", errorType: "invalid_request_error", message: "bad", afterEvents: 2 },
        NEVER_SENT,
      ],
    });
    const { result, retries } = await runQuery(harness.agent, "Say hello");
    expect(harness.server.requests).toHaveLength(1);
    expect(retries).toEqual([]);
    expect(result.subtype).toBe("error_during_execution");
    expect((result.error as ProviderError).errorType).toBe("invalid_request_error");
  });

  it("a 200 carrying an HTML page (a proxy, a wrong baseURL) fails fast, saying what came back", async () => {
    const page = "<!DOCTYPE html>\n<html><head><title>Corporate proxy: sign in</title></head></html>";
    const harness = await startHarness({
      mode,
      agent: { fallbackModel: FALLBACK_MODEL },
      steps: [
        { fault: "status", status: 200, body: page, headers: { "content-type": "text/html" } },
        NEVER_SENT,
      ],
    });
    const { result, retries, fallbacks } = await runQuery(harness.agent, "Say hello");
    expect(harness.server.requests).toHaveLength(1);
    expect(retries).toEqual([]);
    expect(fallbacks).toEqual([]);
    expect(result.subtype).toBe("error_during_execution");
    const error = result.error as ProviderError;
    expect(error).toMatchObject({ retryable: false, requestId: "req_mock_1" });
    expect(error.message).toContain("content-type text/html");
    expect(error.message).toContain("Corporate proxy: sign in");
    expect(await harness.agent.prompt("Again")).toMatchObject({ subtype: "success" });
  });
});

describe("a stream that already showed content", () => {
  const partialAnswer: MockStep = {
    content: "The first words of an answer",
    usage: { input_tokens: 10, output_tokens: 7 },
  };

  function textDeltas(messages: SDKMessage[]): string[] {
    return messages.flatMap((message) =>
      message.type === "stream_event" &&
      message.event.type === "content_block_delta" &&
      (message.event.delta as { type?: string }).type === "text_delta"
        ? [(message.event.delta as { text: string }).text]
        : [],
    );
  }

  it("is not replayed after an overloaded_error event when partial messages were yielded", async () => {
    const harness = await startHarness({
      mode: "stream",
      agent: { includePartialMessages: true },
      // message_start, ping, content_block_start, one text delta — then the error event.
      steps: [
        { fault: "sse_error", errorType: "overloaded_error", afterEvents: 4, response: partialAnswer },
        NEVER_SENT,
      ],
    });
    const { messages, result, retries } = await runQuery(harness.agent, "Say hello");

    expect(textDeltas(messages).join("")).not.toBe("");
    expect(harness.server.requests).toHaveLength(1);
    expect(retries).toEqual([]);
    expect(result.subtype).toBe("error_during_execution");
    const error = result.error as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.errorType).toBe("overloaded_error");
    expect(error.retryable).toBe(true);
    expect(error.partial).toBe(true);
    // The half-streamed answer never enters history.
    expect(await harness.agent.getHistory()).toEqual([{ role: "user", content: "Say hello" }]);
  });

  it("is not replayed after the connection drops mid-answer when partial messages were yielded", async () => {
    const harness = await startHarness({
      mode: "stream",
      agent: { includePartialMessages: true },
      steps: [{ fault: "drop", afterEvents: 5, response: partialAnswer }, NEVER_SENT],
    });
    const { messages, result, retries } = await runQuery(harness.agent, "Say hello");
    expect(textDeltas(messages).length).toBeGreaterThan(0);
    expect(harness.server.requests).toHaveLength(1);
    expect(retries).toEqual([]);
    expect(result.subtype).toBe("error_during_execution");
    expect((result.error as ProviderError).partial).toBe(true);
  });

  it("a failure after message_start but before any content is retried; api_retry separates the attempts", async () => {
    const harness = await startHarness({
      mode: "stream",
      agent: { includePartialMessages: true },
      steps: [
        { fault: "sse_error", errorType: "overloaded_error", afterEvents: 2 },
        { content: "complete answer" },
      ],
    });
    const { messages, result, retries } = await runQuery(harness.agent, "Say hello");
    expect(result.subtype).toBe("success");
    expect(harness.server.requests).toHaveLength(2);
    const retryIndex = messages.indexOf(retries[0]!);
    const eventsBefore = messages.slice(0, retryIndex).filter((message) => message.type === "stream_event");
    expect(eventsBefore.map((message) => (message as { event: { type: string } }).event.type)).toEqual([
      "message_start",
      "ping",
      "error",
    ]);
    expect(textDeltas(messages.slice(retryIndex)).join("")).toBe("complete answer");
  });

  it("is retried when nothing was shown to the consumer (no partial messages)", async () => {
    const harness = await startHarness({
      mode: "stream",
      steps: [
        { fault: "sse_error", errorType: "overloaded_error", afterEvents: 4, response: partialAnswer },
        { content: "complete answer" },
      ],
    });
    const { messages, result, retries } = await runQuery(harness.agent, "Say hello");
    expect(messages.some((message) => message.type === "stream_event")).toBe(false);
    expect(harness.server.requests).toHaveLength(2);
    expect(retries).toHaveLength(1);
    expect(result.subtype).toBe("success");
    expect(result.result).toBe("complete answer");
  });
});
