/**
 * The mock server's side of one HTTP exchange: writing JSON, text and event streams, pacing, and
 * noticing when the client or the server goes away.
 * @module
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ServerSentEvent } from "./sse";
import { encodeServerSentEvent } from "./sse";
import { holdStream, pausePosition, type StreamPause } from "./stream-pause";

/** One request/response pair, with a signal that aborts when the client goes away or the server closes. */
export interface Exchange {
  request: IncomingMessage;
  response: ServerResponse;
  signal: AbortSignal;
  /** 1-based number of the request on this server (set once recorded). */
  number: number;
  /** The `request-id` header sent back. */
  requestId: string;
}

/** Pairs a request with its response and a signal for both ways it can end early. */
export function startExchange(
  request: IncomingMessage,
  response: ServerResponse,
  serverSignal: AbortSignal,
): Exchange {
  // One controller, aborted when the server closes or the client goes away before the answer is
  // complete; an exchange that ended normally aborts nothing (no DOMException per request).
  const ended = new AbortController();
  const endExchange = () => ended.abort(serverSignal.reason);
  if (serverSignal.aborted) endExchange();
  else serverSignal.addEventListener("abort", endExchange, { once: true });
  response.on("close", () => {
    serverSignal.removeEventListener("abort", endExchange);
    if (!response.writableFinished) ended.abort();
  });
  return { request, response, signal: ended.signal, number: 0, requestId: "" };
}

/** Headers of a JSON answer. */
export function jsonHeaders(
  exchange: Exchange,
  length: number,
  extra?: Record<string, string>,
): Record<string, string | number> {
  return {
    "content-type": "application/json",
    "content-length": length,
    "request-id": exchange.requestId,
    ...extra,
  };
}

/** Sends a complete JSON answer. */
export function sendJson(
  exchange: Exchange,
  status: number,
  payload: unknown,
  headers?: Record<string, string>,
): void {
  const text = JSON.stringify(payload);
  exchange.response.writeHead(status, jsonHeaders(exchange, Buffer.byteLength(text), headers));
  exchange.response.end(text);
}

/** Sends a complete plain-text answer. */
export function sendText(
  exchange: Exchange,
  status: number,
  text: string,
  headers?: Record<string, string>,
): void {
  exchange.response.writeHead(status, {
    "content-type": "text/plain; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "request-id": exchange.requestId,
    ...headers,
  });
  exchange.response.end(text);
}

/** Sends the headers of a server-sent event stream. */
export function startEventStream(exchange: Exchange, headers?: Record<string, string>): void {
  exchange.response.writeHead(200, eventStreamHeaders(exchange, headers));
  exchange.response.flushHeaders();
}

/**
 * Sends a whole server-sent event stream at once — headers, every frame and the end of the body in
 * one write — as a server does that has the complete answer (no pacing between the frames).
 */
export function sendEventStream(
  exchange: Exchange,
  events: ServerSentEvent[],
  headers?: Record<string, string>,
): void {
  exchange.response.writeHead(200, eventStreamHeaders(exchange, headers));
  exchange.response.end(events.map(encodeServerSentEvent).join(""));
}

function eventStreamHeaders(exchange: Exchange, headers?: Record<string, string>): Record<string, string> {
  return {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    "request-id": exchange.requestId,
    ...headers,
  };
}

/**
 * Writes the frames one by one (each flushed before the next), pausing between them when asked,
 * and holding after one block's `content_block_stop` when `hold` says so.
 */
export async function writeEvents(
  exchange: Exchange,
  events: ServerSentEvent[],
  delayMs?: number,
  hold?: StreamPause,
): Promise<void> {
  const data = events.map((event) => event.data as { type: string; index?: unknown });
  // Where the stream holds: after the block's stop, even when that is the last frame written (a fault's).
  const holdAt =
    hold && data.some((d) => d.type === "content_block_stop" && d.index === hold.index)
      ? pausePosition(data, hold.index)
      : -1;
  for (const [position, event] of events.entries()) {
    if (exchange.signal.aborted) return;
    if (position === holdAt) await holdStream(hold!, exchange.signal);
    else if (position > 0) await pause(delayMs, exchange.signal);
    await write(exchange.response, encodeServerSentEvent(event));
  }
  if (holdAt === events.length) await holdStream(hold!, exchange.signal);
}

/** Writes a chunk and resolves once it is flushed (at once when the client has gone). */
export function write(response: ServerResponse, chunk: string): Promise<void> {
  if (response.destroyed || response.writableEnded) return Promise.resolve();
  return new Promise((resolve) => response.write(chunk, () => resolve()));
}

/** Waits `milliseconds`, or less when `signal` aborts. */
export function pause(milliseconds: number | undefined, signal: AbortSignal): Promise<void> {
  if (!milliseconds || milliseconds <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, milliseconds);
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}

/** Resolves when `signal` aborts. */
export function waitForAbort(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}
