/**
 * The wire form of the UI message stream: server-sent events, one `data:` line of JSON per chunk,
 * `data: [DONE]` at the end.
 * @module
 */
import type { UIStreamChunk } from "./ui-chunk";

/** The headers a UI message stream response carries (the protocol's version header among them). */
export const UI_MESSAGE_STREAM_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  connection: "keep-alive",
  "x-vercel-ai-ui-message-stream": "v1",
  "x-accel-buffering": "no",
};

const encoder = new TextEncoder();
const DONE = encoder.encode("data: [DONE]\n\n");

/** The chunks as SSE bytes; cancelling the bytes cancels the chunks. */
export function encodeChunks(chunks: ReadableStream<UIStreamChunk>): ReadableStream<Uint8Array> {
  return chunks.pipeThrough(
    new TransformStream<UIStreamChunk, Uint8Array>({
      transform(chunk, controller) {
        controller.enqueue(encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`));
      },
      flush(controller) {
        controller.enqueue(DONE);
      },
    }),
  );
}
