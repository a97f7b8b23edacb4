/**
 * Server-sent event framing, as the Messages API writes it on the wire.
 * @module
 */

/** One server-sent event: its name and its JSON payload. */
export interface ServerSentEvent {
  event: string;
  data: unknown;
}

/**
 * Encodes one event as an SSE frame: an `event:` line, a `data:` line holding the payload as
 * one-line JSON, and the blank line that ends the frame.
 *
 * @example
 * encodeServerSentEvent({ event: "ping", data: { type: "ping" } });
 * // 'event: ping\ndata: {"type":"ping"}\n\n'
 */
export function encodeServerSentEvent({ event, data }: ServerSentEvent): string {
  if (/[\r\n]/.test(event))
    throw new TypeError(`An SSE event name cannot contain a line break: ${JSON.stringify(event)}`);
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
