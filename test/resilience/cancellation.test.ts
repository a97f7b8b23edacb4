/**
 * Retry waits and hung requests cut short: an abort ends the query `error_abort`, an interrupt
 * `interrupted`, a request deadline `error_timeout` — at once, with history well-formed and the
 * agent ready for the next prompt.
 */
import { describe, expect, it } from "vitest";
import { AbortError, TimeoutError } from "../../src/index";
import type { MockStep } from "../../src/testing/index";
import { until } from "../support/promises";
import { runQuery, startHarness, TRANSPORT_MODES } from "./fault-harness";

const ANSWER: MockStep = { content: "fine", usage: { input_tokens: 4, output_tokens: 1 } };

/** A sleep that never ends on its own: it only settles when its signal aborts. */
function waitUntilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((_, reject) => {
    if (signal.aborted) return reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

describe.each(TRANSPORT_MODES)("cancelling a retry wait (%s)", (mode) => {
  it("an abort during the wait ends the query error_abort, and the next prompt runs", async () => {
    const controller = new AbortController();
    const harness = await startHarness({
      mode,
      steps: [{ fault: "status", status: 529 }, ANSWER],
      sleep: (ms, signal, waits) => {
        waits.push(ms);
        const waiting = waitUntilAborted(signal);
        controller.abort(new Error("the user gave up"));
        return waiting;
      },
    });
    const { result, retries } = await runQuery(harness.agent, "Say hello", { signal: controller.signal });

    expect(result.subtype).toBe("error_abort");
    expect(result.is_error).toBe(true);
    expect(result.error).toBeInstanceOf(AbortError);
    expect(result.error!.message).toContain("the user gave up");
    expect(retries).toHaveLength(1);
    expect(harness.waits).toHaveLength(1);
    expect(harness.server.requests).toHaveLength(1);

    const next = await runQuery(harness.agent, "Again");
    expect(next.result.subtype).toBe("success");
    expect(harness.server.requests).toHaveLength(2);
  });

  it("an interrupt during the wait ends the query interrupted (not an error)", async () => {
    const harness = await startHarness({
      mode,
      steps: [{ fault: "status", status: 503 }, ANSWER],
      sleep: (ms, signal, waits) => {
        waits.push(ms);
        const waiting = waitUntilAborted(signal);
        harness.agent.interrupt();
        return waiting;
      },
    });
    const { result } = await runQuery(harness.agent, "Say hello");
    expect(result.subtype).toBe("interrupted");
    expect(result.is_error).toBe(false);
    expect(result.error).toBeUndefined();
    expect(harness.server.requests).toHaveLength(1);

    const next = await runQuery(harness.agent, "Again");
    expect(next.result.subtype).toBe("success");
  });

  it("the built-in sleep is cut short by an abort: a 60 s retry-after does not hold the query", async () => {
    const controller = new AbortController();
    const harness = await startHarness({
      mode,
      agent: { retry: { maxRetries: 2, initialDelayMs: 100, maxDelayMs: 120_000 } },
      steps: [{ fault: "status", status: 429, headers: { "retry-after": "60" } }, ANSWER],
      sleep: "real",
    });
    const { result, retries } = await runQuery(
      harness.agent,
      "Say hello",
      { signal: controller.signal },
      (message) => {
        if (message.type === "system" && message.subtype === "api_retry") controller.abort("stop waiting");
      },
    );
    expect(retries[0]!.delay_ms).toBe(60_000);
    expect(result.subtype).toBe("error_abort");
    expect(harness.server.requests).toHaveLength(1);
  });
});

describe("a deadline on the whole query", () => {
  it("AbortSignal.timeout cuts a long retry wait short: error_abort carrying the timeout", async () => {
    const harness = await startHarness({
      mode: "stream",
      agent: { retry: { maxRetries: 2, initialDelayMs: 100, maxDelayMs: 120_000 } },
      steps: [{ fault: "status", status: 529, headers: { "retry-after": "60" } }, ANSWER],
      sleep: "real",
    });
    const { result, retries } = await runQuery(harness.agent, "Say hello", {
      signal: AbortSignal.timeout(300),
    });
    expect(retries).toHaveLength(1);
    expect(result.subtype).toBe("error_abort");
    expect((result.error as AbortError).cause).toMatchObject({ name: "TimeoutError" });
    expect(harness.server.requests).toHaveLength(1);
  });
});

describe.each(TRANSPORT_MODES)("a hung request (%s)", (mode) => {
  it("ends error_timeout at requestTimeoutMs and is not retried", async () => {
    const harness = await startHarness({
      mode,
      agent: { requestTimeoutMs: 150 },
      steps: [{ fault: "hang" }, ANSWER],
    });
    const { result, retries } = await runQuery(harness.agent, "Say hello");
    expect(result.subtype).toBe("error_timeout");
    expect(result.error).toBeInstanceOf(TimeoutError);
    expect((result.error as TimeoutError).timeoutMs).toBe(150);
    expect(retries).toEqual([]);
    expect(harness.server.requests).toHaveLength(1);
  });

  it("is cut by an abort", async () => {
    const controller = new AbortController();
    const harness = await startHarness({
      mode,
      steps: [{ fault: "hang" }, ANSWER],
    });
    const query = runQuery(harness.agent, "Say hello", { signal: controller.signal });
    await until(() => harness.server.requests.length === 1);
    controller.abort();
    const { result } = await query;
    expect(result.subtype).toBe("error_abort");
  });

  it("is cut by an interrupt", async () => {
    const harness = await startHarness({ mode, steps: [{ fault: "hang" }, ANSWER] });
    const query = runQuery(harness.agent, "Say hello");
    await until(() => harness.server.requests.length === 1);
    harness.agent.interrupt();
    const { result } = await query;
    expect(result.subtype).toBe("interrupted");
    expect((await runQuery(harness.agent, "Again")).result.subtype).toBe("success");
  });
});
