/**
 * The mock server's fault injection: HTTP errors, hangs, dropped connections and stream errors,
 * after as many server-sent events of a (partial) response as asked.
 * @module
 */
import { apiErrorBody, errorTypeForStatus, statusForErrorType } from "./mock-server-errors";
import {
  type Exchange,
  jsonHeaders,
  sendJson,
  sendText,
  startEventStream,
  waitForAbort,
  write,
  writeEvents,
} from "./mock-server-exchange";
import { buildStreamEvents, type MockMessageBody } from "./mock-server-response";
import type { MockFault, MockResponse } from "./mock-server-steps";
import { encodeServerSentEvent } from "./sse";

/** The answer used for the events a fault streams before striking, when it has no `response`. */
const DEFAULT_FAULT_RESPONSE: MockResponse = { content: "A partial answer that never finishes." };

/**
 * Answers with `fault` instead of a response; `messageFor` builds the message whose events a
 * streaming fault writes before striking.
 */
export async function injectFault(
  exchange: Exchange,
  fault: MockFault,
  stream: boolean,
  messageFor: (response: MockResponse) => MockMessageBody,
): Promise<void> {
  const { response, request } = exchange;
  const answer = "response" in fault && fault.response ? fault.response : DEFAULT_FAULT_RESPONSE;
  const message = messageFor(answer);
  switch (fault.fault) {
    case "status": {
      const headers = { ...(fault.status === 429 ? defaultRetryAfter(fault.headers) : {}), ...fault.headers };
      if (typeof fault.body === "string") return sendText(exchange, fault.status, fault.body, headers);
      const errorBody =
        fault.body ?? apiErrorBody(errorTypeForStatus(fault.status), undefined, exchange.requestId);
      return sendJson(exchange, fault.status, errorBody, headers);
    }
    case "hang":
      if (stream && fault.afterEvents !== undefined) {
        startEventStream(exchange, answer.headers);
        await writeEvents(
          exchange,
          buildStreamEvents(message).slice(0, fault.afterEvents),
          answer.eventDelayMs,
        );
      }
      return waitForAbort(exchange.signal);
    case "drop":
      if (fault.beforeResponse) return void request.socket.destroy();
      if (stream) {
        startEventStream(exchange, answer.headers);
        await writeEvents(
          exchange,
          buildStreamEvents(message).slice(0, fault.afterEvents ?? 0),
          answer.eventDelayMs,
          answer.pauseAfterBlock,
        );
      } else {
        const text = JSON.stringify(message);
        response.writeHead(200, jsonHeaders(exchange, Buffer.byteLength(text)));
        await write(response, text.slice(0, Math.floor(text.length / 2)));
      }
      await new Promise((resolve) => setImmediate(resolve));
      return void request.socket.destroy();
    case "sse_error": {
      const errorType = fault.errorType ?? "overloaded_error";
      const errorBody = apiErrorBody(errorType, fault.message, exchange.requestId);
      if (!stream) return sendJson(exchange, statusForErrorType(errorType), errorBody);
      startEventStream(exchange, answer.headers);
      await writeEvents(
        exchange,
        buildStreamEvents(message).slice(0, fault.afterEvents ?? 0),
        answer.eventDelayMs,
      );
      await write(response, encodeServerSentEvent({ event: "error", data: errorBody }));
      return void response.end();
    }
    case "raw_events": {
      if (!stream) {
        const problem = "mock server: raw_events answers streaming requests only";
        return sendJson(exchange, 500, apiErrorBody("api_error", problem, exchange.requestId));
      }
      startEventStream(exchange);
      const frames = fault.events.map((event) => ({ event: String(event.type), data: event }));
      await writeEvents(exchange, frames, fault.eventDelayMs);
      return void response.end();
    }
  }
}

/** A 429's `retry-after: 1`, unless the step gives a `retry-after` of its own (in any capitalisation). */
function defaultRetryAfter(headers: Record<string, string> | undefined): Record<string, string> {
  const given = Object.keys(headers ?? {}).some((name) => name.toLowerCase() === "retry-after");
  return given ? {} : { "retry-after": "1" };
}
