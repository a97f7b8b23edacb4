/**
 * `startMockAnthropicServer`: a real HTTP server on the loopback interface that speaks
 * `POST /v1/messages` like the Messages API (JSON, or server-sent events when the body asks for
 * `stream: true`), replays scripted responses, injects faults, and records every request.
 * @module
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { apiErrorBody, errorTypeForStatus, statusForErrorType } from "./mock-server-errors";
import {
  type Exchange,
  jsonHeaders,
  pause,
  sendJson,
  sendText,
  startEventStream,
  startExchange,
  waitForAbort,
  write,
  writeEvents,
} from "./mock-server-exchange";
import { buildMessageBody, buildStreamEvents, type MockMessageBody } from "./mock-server-response";
import { responseProblem, type ScriptedResponse } from "./scripted-client";
import { encodeServerSentEvent } from "./sse";

/** A scripted response: the fields of {@link ScriptedResponse} that make sense on the wire, plus pacing. */
export type MockResponse = Pick<
  ScriptedResponse,
  "content" | "stop_reason" | "usage" | "model" | "id" | "delayMs"
> & {
  /** Streaming only: wait this long between two events. */
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
    };

/** One step of the script: a response or a fault. */
export type MockStep = MockResponse | MockFault;

/** Computes the step for a request nobody scripted. `index` counts requests from 0. */
export type MockHandler = (body: any, index: number) => MockStep | Promise<MockStep>;

/** A request the server received, as it arrived. */
export interface MockRecordedRequest {
  method: string;
  /** Path and query, e.g. `/v1/messages`. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (the raw text when it is not JSON). */
  body: any;
}

/** Options of {@link startMockAnthropicServer}. */
export interface MockAnthropicServerOptions {
  /** Steps replayed in order, one per request. */
  responses?: MockStep[];
  /** Answers requests once the scripted steps are used up. */
  handler?: MockHandler;
}

/** A running mock server. */
export interface MockAnthropicServer {
  /** The base URL to give a client, e.g. `http://127.0.0.1:43117`. */
  readonly url: string;
  /** Every request received, in order (unscripted and malformed ones included). */
  readonly requests: MockRecordedRequest[];
  /** Appends steps to the script. */
  enqueue(...steps: MockStep[]): void;
  /** Sets the handler used once the scripted steps are used up. */
  setHandler(handler: MockHandler | undefined): void;
  /** Scripted steps not yet used. */
  readonly pending: number;
  /** Ends every open connection (hung ones too) and stops listening. */
  close(): Promise<void>;
}

/** The answer used for the events a fault streams before striking, when it has no `response`. */
const DEFAULT_FAULT_RESPONSE: MockResponse = { content: "A partial answer that never finishes." };

/**
 * Starts the server on 127.0.0.1, on a free port. A request with nothing scripted and no handler
 * gets a 500 saying "mock server: no scripted response left for request #N", so tests fail loudly.
 *
 * @example
 * const server = await startMockAnthropicServer({ responses: [{ content: "Hello!" }, { fault: "status", status: 529 }] });
 * const client = createAnthropicClient({ apiKey: "test-key", baseURL: server.url });
 * // … server.requests[0].body.messages …
 * await server.close();
 */
export async function startMockAnthropicServer(
  options: MockAnthropicServerOptions = {},
): Promise<MockAnthropicServer> {
  const queue: MockStep[] = [...(options.responses ?? [])];
  let handler = options.handler;
  const requests: MockRecordedRequest[] = [];
  const lifetime = new AbortController();

  const server = createServer((request, response) => {
    const exchange = startExchange(request, response, lifetime.signal);
    handleRequest(exchange, requests, () => nextStep(queue, handler)).catch((error: unknown) => {
      if (!response.headersSent && !response.destroyed) {
        sendJson(
          exchange,
          500,
          apiErrorBody("api_error", `mock server: ${error instanceof Error ? error.message : String(error)}`),
        );
      } else {
        response.destroy();
      }
    });
  });
  const port = await listen(server);
  let closing: Promise<void> | undefined;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    enqueue: (...steps) => {
      queue.push(...steps);
    },
    setHandler: (next) => {
      handler = next;
    },
    get pending() {
      return queue.length;
    },
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        lifetime.abort();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

function nextStep(
  queue: MockStep[],
  handler: MockHandler | undefined,
): ((body: any, index: number) => MockStep | Promise<MockStep>) | undefined {
  const scripted = queue.shift();
  if (scripted) return () => scripted;
  return handler;
}

async function handleRequest(
  exchange: Exchange,
  requests: MockRecordedRequest[],
  takeStep: () => ReturnType<typeof nextStep>,
): Promise<void> {
  const { request } = exchange;
  const text = await readBody(request);
  const body = parseJson(text) as any;
  requests.push({
    method: request.method ?? "",
    path: request.url ?? "",
    headers: { ...request.headers },
    body: body ?? text,
  });
  exchange.number = requests.length;
  exchange.requestId = `req_mock_${exchange.number}`;

  const pathname = new URL(request.url ?? "/", "http://localhost").pathname;
  if (request.method !== "POST" || pathname !== "/v1/messages") {
    return sendJson(
      exchange,
      404,
      apiErrorBody("not_found_error", `mock server: no route for ${request.method} ${pathname}`),
    );
  }
  if (typeof body !== "object" || body === null) {
    return sendJson(
      exchange,
      400,
      apiErrorBody("invalid_request_error", "mock server: the request body is not a JSON object"),
    );
  }
  const answer = takeStep();
  if (!answer) {
    return sendJson(
      exchange,
      500,
      apiErrorBody("api_error", `mock server: no scripted response left for request #${exchange.number}`),
    );
  }
  const step = await answer(body, exchange.number - 1);
  const problem = stepProblem(step);
  if (problem !== undefined) {
    return sendJson(
      exchange,
      500,
      apiErrorBody("api_error", `mock server: the step for request #${exchange.number} ${problem}`),
    );
  }
  const stream = body.stream === true;
  if ("fault" in step) return injectFault(exchange, step, body, text.length, stream);
  await pause(step.delayMs, exchange.signal);
  const message = toMessageBody(step, body, text.length, exchange.number);
  if (!stream) return sendJson(exchange, 200, message, step.headers);
  startEventStream(exchange, step.headers);
  await writeEvents(exchange, buildStreamEvents(message), step.eventDelayMs);
  exchange.response.end();
}

async function injectFault(
  exchange: Exchange,
  fault: MockFault,
  body: any,
  requestChars: number,
  stream: boolean,
): Promise<void> {
  const { response, request } = exchange;
  const answer = "response" in fault && fault.response ? fault.response : DEFAULT_FAULT_RESPONSE;
  const message = toMessageBody(answer, body, requestChars, exchange.number);
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
  }
}

const FAULTS: ReadonlySet<string> = new Set<MockFault["fault"]>(["status", "hang", "drop", "sse_error"]);

/** What makes `step` unusable — a response without content, an unknown fault — or `undefined`. */
function stepProblem(step: unknown): string | undefined {
  if (typeof step === "object" && step !== null && "fault" in step) {
    const { fault } = step as { fault: unknown };
    return typeof fault === "string" && FAULTS.has(fault)
      ? undefined
      : `has an unknown fault ${JSON.stringify(fault)} (one of ${[...FAULTS].map((name) => `"${name}"`).join(", ")})`;
  }
  return responseProblem(step, "is");
}

/** A 429's `retry-after: 1`, unless the step gives a `retry-after` of its own (in any capitalisation). */
function defaultRetryAfter(headers: Record<string, string> | undefined): Record<string, string> {
  const given = Object.keys(headers ?? {}).some((name) => name.toLowerCase() === "retry-after");
  return given ? {} : { "retry-after": "1" };
}

function toMessageBody(step: MockResponse, body: any, requestChars: number, number: number): MockMessageBody {
  return buildMessageBody({
    content: step.content,
    stopReason: step.stop_reason,
    usage: step.usage,
    id: step.id ?? `msg_mock_${number}`,
    model: step.model ?? (typeof body.model === "string" ? body.model : "mock-model"),
    requestChars,
  });
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
