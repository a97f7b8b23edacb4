/**
 * The steps of the mock server's script: scripted responses and injected faults.
 * @module
 */
import { responseProblem, type ScriptedResponse } from "./scripted-client";

/** A scripted response: the fields of {@link ScriptedResponse} that make sense on the wire, plus pacing. */
export type MockResponse = Pick<
  ScriptedResponse,
  "content" | "stop_reason" | "stop_sequence" | "usage" | "model" | "id" | "delayMs" | "pauseAfterBlock"
> & {
  /**
   * Streaming only: wait this long between two events. Without it (and without `pauseAfterBlock`,
   * which a `drop` fault honours too, before it drops) the whole stream is sent in one write.
   */
  eventDelayMs?: number;
  /** Extra response headers. */
  headers?: Record<string, string>;
};

/**
 * A fault to inject instead of a response. `afterEvents` counts every SSE frame written, `ping`
 * included (`message_start` is the first, `ping` the second, then the blocks' frames). The events
 * come from `response` (default: a short text answer).
 */
export type MockFault =
  /** An HTTP error. `body` defaults to the API's error JSON for the status; a string is sent as plain text. 429 sends `retry-after: 1` unless `headers` give a `retry-after` of their own (any capitalisation). */
  | { fault: "status"; status: number; body?: unknown; headers?: Record<string, string> }
  /** Never answer (or, streaming with `afterEvents`, stop after that many events). The socket is released on close. */
  | { fault: "hang"; afterEvents?: number; response?: MockResponse }
  /**
   * Destroy the connection: streaming, after `afterEvents` events (default 0, right after the
   * headers); JSON, half way through the body. `beforeResponse: true` destroys it before any byte.
   */
  | { fault: "drop"; afterEvents?: number; beforeResponse?: boolean; response?: MockResponse }
  /**
   * Streaming: an `event: error` frame after `afterEvents` events (default 0), then the end of the
   * stream. JSON: the same error as an HTTP error (`overloaded_error` → 529 …).
   */
  | {
      fault: "sse_error";
      errorType?: string;
      message?: string;
      afterEvents?: number;
      response?: MockResponse;
    }
  /**
   * Streaming: exactly these events, in order, then the end of the stream — for protocol violations
   * no real response produces (a delta for a block never started, a second `message_start` …).
   * Each is sent as `event: <its type>` with the object as its data. JSON requests get a 500.
   */
  | { fault: "raw_events"; events: Array<{ type: string; [key: string]: unknown }>; eventDelayMs?: number };

/** One step of the script: a response or a fault. */
export type MockStep = MockResponse | MockFault;

/** Computes the step for a request nobody scripted. `index` counts requests from 0. */
export type MockHandler = (body: any, index: number) => MockStep | Promise<MockStep>;

const FAULTS: ReadonlySet<string> = new Set<MockFault["fault"]>([
  "status",
  "hang",
  "drop",
  "sse_error",
  "raw_events",
]);

/** What makes `step` unusable — a response without content, an unknown fault — or `undefined`. */
export function stepProblem(step: unknown): string | undefined {
  if (typeof step === "object" && step !== null && "fault" in step) {
    const { fault } = step as { fault: unknown };
    return typeof fault === "string" && FAULTS.has(fault)
      ? undefined
      : `has an unknown fault ${JSON.stringify(fault)} (one of ${[...FAULTS].map((name) => `"${name}"`).join(", ")})`;
  }
  return responseProblem(step, "is");
}
