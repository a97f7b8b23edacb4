/**
 * Transient failures against the mock server over real HTTP, streaming and JSON: each is retried
 * with the right waits, one `api_retry` message per retry, and the query succeeds — or, once the
 * retries are spent, ends `error_during_execution` keeping what the provider said.
 */
import { describe, expect, it } from "vitest";
import { createAgent, InvalidOptionError, ProviderError } from "../../src/index";
import { createScriptedClient, type MockStep } from "../../src/testing/index";
import {
  closedPortUrl,
  jitteredWait,
  PRIMARY_MODEL,
  runQuery,
  startHarness,
  TEST_RETRY,
  TRANSPORT_MODES,
} from "./fault-harness";

const RECOVERED: MockStep = { content: "recovered", usage: { input_tokens: 12, output_tokens: 3 } };

/** Statuses retried with exponential backoff (429 is tested apart: it carries `retry-after`). */
const BACKOFF_STATUSES = [408, 409, 500, 502, 503, 504, 529];

describe.each(TRANSPORT_MODES)("retryable failures (%s)", (mode) => {
  it.each(BACKOFF_STATUSES)(
    "HTTP %i is retried after a jittered wait, then the query succeeds",
    async (status) => {
      const harness = await startHarness({ mode, steps: [{ fault: "status", status }, RECOVERED] });
      const { result, retries } = await runQuery(harness.agent, "Say hello");

      expect(result.subtype).toBe("success");
      expect(result.result).toBe("recovered");
      expect(result.num_turns).toBe(1);
      expect(harness.server.requests).toHaveLength(2);
      // The retry sends the very same request.
      expect(harness.server.requests[1]!.body).toEqual(harness.server.requests[0]!.body);
      expect(harness.waits).toEqual([jitteredWait(1, 0.5)]);
      expect(retries).toHaveLength(1);
      expect(retries[0]).toMatchObject({
        attempt: 1,
        max_retries: TEST_RETRY.maxRetries,
        delay_ms: jitteredWait(1, 0.5),
        status,
        model: PRIMARY_MODEL,
      });
      expect(retries[0]!.error).toBeInstanceOf(ProviderError);
      expect(await harness.agent.getHistory()).toHaveLength(2);
    },
  );

  it("HTTP 429 waits what retry-after says (seconds), not the backoff", async () => {
    const harness = await startHarness({
      mode,
      steps: [{ fault: "status", status: 429, headers: { "retry-after": "3" } }, RECOVERED],
    });
    const { result, retries } = await runQuery(harness.agent, "Say hello");
    expect(result.subtype).toBe("success");
    expect(harness.waits).toEqual([3000]);
    expect(retries[0]).toMatchObject({
      attempt: 1,
      delay_ms: 3000,
      status: 429,
      error_type: "rate_limit_error",
    });
  });

  it("retry-after-ms wins over retry-after", async () => {
    const harness = await startHarness({
      mode,
      steps: [
        { fault: "status", status: 429, headers: { "retry-after": "7", "retry-after-ms": "250" } },
        RECOVERED,
      ],
    });
    const { result, retries } = await runQuery(harness.agent, "Say hello");
    expect(result.subtype).toBe("success");
    expect(harness.waits).toEqual([250]);
    expect(retries[0]!.delay_ms).toBe(250);
  });

  it("a retry-after on a 5xx is honoured too, capped at maxDelayMs", async () => {
    const harness = await startHarness({
      mode,
      agent: { retry: { ...TEST_RETRY, maxDelayMs: 5_000 } },
      steps: [
        { fault: "status", status: 503, headers: { "retry-after": "2" } },
        { fault: "status", status: 529, headers: { "retry-after": "600" } },
        RECOVERED,
      ],
    });
    const { result, retries } = await runQuery(harness.agent, "Say hello");
    expect(result.subtype).toBe("success");
    expect(harness.waits).toEqual([2000, 5000]);
    expect(retries.map((retry) => [retry.attempt, retry.status, retry.delay_ms])).toEqual([
      [1, 503, 2000],
      [2, 529, 5000],
    ]);
  });

  it("a retry-after given as an HTTP date is honoured, capped at maxDelayMs", async () => {
    const inAnHour = new Date(Date.now() + 3_600_000).toUTCString();
    const harness = await startHarness({
      mode,
      steps: [{ fault: "status", status: 503, headers: { "retry-after": inAnHour } }, RECOVERED],
    });
    const { result } = await runQuery(harness.agent, "Say hello");
    expect(result.subtype).toBe("success");
    expect(harness.waits).toEqual([TEST_RETRY.maxDelayMs]);
  });

  // `Date.parse` reads "-5" or "later 2" as dates in 2001: a wait of 0 ms would hammer a
  // rate-limited provider. A hint that is neither seconds nor an HTTP date is no hint.
  it.each(["-5", "1,5", "later 2", "soon"])(
    "a garbled retry-after (%j) is ignored: the backoff applies, not an immediate retry",
    async (retryAfter) => {
      const harness = await startHarness({
        mode,
        steps: [{ fault: "status", status: 429, headers: { "retry-after": retryAfter } }, RECOVERED],
      });
      const { result, retries } = await runQuery(harness.agent, "Say hello");
      expect(result.subtype).toBe("success");
      expect(harness.waits).toEqual([jitteredWait(1, 0.5)]);
      expect((retries[0]!.error as ProviderError).retryAfterMs).toBeUndefined();
    },
  );

  it("without retry-after, each wait is a full-jitter draw below a doubling ceiling capped by maxDelayMs", async () => {
    const policy = { maxRetries: 5, initialDelayMs: 100, maxDelayMs: 1_000 };
    const draws = [0, 0.25, 0.5, 0.75, 0.9999];
    const harness = await startHarness({
      mode,
      agent: { retry: policy },
      random: draws,
      steps: [...Array.from({ length: 5 }, (): MockStep => ({ fault: "status", status: 500 })), RECOVERED],
    });
    const { result, retries } = await runQuery(harness.agent, "Say hello");
    expect(result.subtype).toBe("success");
    const ceilings = [100, 200, 400, 800, 1000];
    const expected = ceilings.map((ceiling, index) => Math.floor(draws[index]! * ceiling));
    expect(expected).toEqual([0, 50, 200, 600, 999]);
    expect(harness.waits).toEqual(expected);
    expect(retries.map((retry) => retry.attempt)).toEqual([1, 2, 3, 4, 5]);
    expect(harness.server.requests).toHaveLength(6);
  });

  it.each([429, 503, 529])(
    "HTTP %i on every attempt: the retries are spent and the provider error is kept",
    async (status) => {
      const harness = await startHarness({
        mode,
        steps: Array.from(
          { length: 3 },
          (): MockStep => ({ fault: "status", status, headers: { "retry-after-ms": "10" } }),
        ),
      });
      const { result, retries } = await runQuery(harness.agent, "Say hello");

      expect(harness.server.requests).toHaveLength(TEST_RETRY.maxRetries + 1);
      expect(retries.map((retry) => retry.attempt)).toEqual([1, 2]);
      expect(harness.waits).toEqual([10, 10]);
      expect(result.subtype).toBe("error_during_execution");
      expect(result.is_error).toBe(true);
      expect(result.num_turns).toBe(1);
      const error = result.error as ProviderError;
      expect(error).toBeInstanceOf(ProviderError);
      expect(error.status).toBe(status);
      expect(error.errorType).toBe(
        { 429: "rate_limit_error", 503: "api_error", 529: "overloaded_error" }[status],
      );
      expect(error.requestId).toBe("req_mock_3");
      expect(error.retryable).toBe(true);
      expect(error.message).toContain(String(status));
      // Only the prompt is in history: no response ever arrived.
      expect(await harness.agent.getHistory()).toEqual([{ role: "user", content: "Say hello" }]);
    },
  );

  it("maxRetries: 0 fails on the first transient error", async () => {
    const harness = await startHarness({
      mode,
      agent: { retry: { maxRetries: 0 } },
      steps: [{ fault: "status", status: 529 }, RECOVERED],
    });
    const { result, retries } = await runQuery(harness.agent, "Say hello");
    expect(result.subtype).toBe("error_during_execution");
    expect(retries).toHaveLength(0);
    expect(harness.server.requests).toHaveLength(1);
  });

  it("a refused connection (closed port) is retried, then the server answers", async () => {
    const closed = await closedPortUrl();
    const harness = await startHarness({
      mode,
      steps: [RECOVERED],
      routeAttempt: (attempt, url) =>
        attempt === 0 ? url.replace(/^http:\/\/127\.0\.0\.1:\d+/, closed) : url,
    });
    const { result, retries } = await runQuery(harness.agent, "Say hello");
    expect(result.subtype).toBe("success");
    expect(harness.fetchCalls).toBe(2);
    expect(harness.server.requests).toHaveLength(1);
    expect(retries).toHaveLength(1);
    expect(retries[0]!.status).toBeUndefined();
    expect(retries[0]!.error.message).toMatch(/connection/i);
  });

  it("a server that refuses every connection: the retries are spent, the error says why", async () => {
    const harness = await startHarness({ mode, baseURL: await closedPortUrl() });
    const { result, retries } = await runQuery(harness.agent, "Say hello");
    expect(harness.fetchCalls).toBe(TEST_RETRY.maxRetries + 1);
    expect(retries).toHaveLength(TEST_RETRY.maxRetries);
    expect(result.subtype).toBe("error_during_execution");
    const error = result.error as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.retryable).toBe(true);
    expect(error.status).toBeUndefined();
    expect(error.message).toMatch(/ECONNREFUSED|connection/i);
  });

  it("a connection dropped before any byte of the response is retried", async () => {
    const harness = await startHarness({ mode, steps: [{ fault: "drop", beforeResponse: true }, RECOVERED] });
    const { result, retries } = await runQuery(harness.agent, "Say hello");
    expect(result.subtype).toBe("success");
    expect(harness.server.requests).toHaveLength(2);
    expect(retries).toHaveLength(1);
    expect(retries[0]!.delay_ms).toBe(jitteredWait(1, 0.5));
  });

  it("a response cut before any content is retried", async () => {
    // Streaming: after message_start and ping only. JSON: half way through the body.
    const harness = await startHarness({ mode, steps: [{ fault: "drop", afterEvents: 2 }, RECOVERED] });
    const { result, retries } = await runQuery(harness.agent, "Say hello");
    expect(result.subtype).toBe("success");
    expect(result.result).toBe("recovered");
    expect(harness.server.requests).toHaveLength(2);
    expect(retries).toHaveLength(1);
  });

  // The response headers (request-id included) had arrived before the cut, so the failure keeps
  // the id, in both modes.
  it("a response cut after its headers keeps the request id", async () => {
    const harness = await startHarness({ mode, steps: [{ fault: "drop", afterEvents: 2 }, RECOVERED] });
    const { retries } = await runQuery(harness.agent, "Say hello");
    expect(retries[0]!.error).toMatchObject({ requestId: "req_mock_1", retryable: true });
  });

  it("an overloaded_error before any content (an SSE error event; a 529 in JSON) is retried", async () => {
    const harness = await startHarness({
      mode,
      steps: [{ fault: "sse_error", errorType: "overloaded_error", afterEvents: 2 }, RECOVERED],
    });
    const { result, retries } = await runQuery(harness.agent, "Say hello");
    expect(result.subtype).toBe("success");
    expect(harness.server.requests).toHaveLength(2);
    expect(retries).toHaveLength(1);
    expect(retries[0]!.error_type).toBe("overloaded_error");
    expect(retries[0]!.status).toBe(mode === "json" ? 529 : undefined);
  });

  it("an HTTP 200 whose body is an overloaded_error (an endpoint that answers errors with 200) is retried", async () => {
    const overloadedBody = { type: "error", error: { type: "overloaded_error", message: "Overloaded" } };
    const harness = await startHarness({
      mode,
      steps: [{ fault: "status", status: 200, body: overloadedBody }, RECOVERED],
    });
    const { result, retries } = await runQuery(harness.agent, "Say hello");
    expect(result.subtype).toBe("success");
    expect(result.result).toBe("recovered");
    expect(harness.server.requests).toHaveLength(2);
    expect(retries).toHaveLength(1);
    expect(retries[0]!.error).toMatchObject({ requestId: "req_mock_1", retryable: true });
    // JSON reads the error body; a stream that gets JSON instead of events ends before its message.
    if (mode === "json") expect(retries[0]!.error_type).toBe("overloaded_error");
  });

  it("a transient failure on a later turn is retried there, and the earlier turns are kept", async () => {
    const harness = await startHarness({
      mode,
      agent: { maxTurns: 5 },
      steps: [
        { content: "first", usage: { input_tokens: 5, output_tokens: 1 } },
        { fault: "status", status: 502 },
        RECOVERED,
      ],
    });
    expect((await runQuery(harness.agent, "One")).result.subtype).toBe("success");
    const second = await runQuery(harness.agent, "Two");
    expect(second.result.subtype).toBe("success");
    expect(second.retries).toHaveLength(1);
    expect(second.result.usage).toMatchObject({ input_tokens: 12, output_tokens: 3 });
    const history = await harness.agent.getHistory();
    expect(history.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant"]);
    // The retried request carries the whole conversation, once.
    expect(harness.server.requests[2]!.body.messages).toHaveLength(3);
  });
});

describe("retry options", () => {
  it.each([
    [{ maxRetries: -1 }],
    [{ maxRetries: 1.5 }],
    [{ initialDelayMs: -10 }],
    [{ maxDelayMs: Number.NaN }],
  ])("reject %j at creation", (retry) => {
    expect(() => createAgent({ model: PRIMARY_MODEL, client: createScriptedClient([]), retry })).toThrow(
      InvalidOptionError,
    );
  });
});
