/**
 * `toUIMessageStream`: a query's messages as a stream of UI message chunks (the AI SDK's UI message
 * stream protocol), and `toUIMessageStreamResponse`: the same as a server-sent-events `Response`.
 * @module
 */
import type { SDKMessage } from "../index";
import { ChunkBatch } from "./chunk-batch";
import { encodeChunks, UI_MESSAGE_STREAM_HEADERS } from "./sse-encoding";
import type { LatticeMessageMetadata, UIStreamChunk } from "./ui-chunk";
import { UIChunkMapper } from "./ui-chunk-mapper";

/** How many chunks the stream reads ahead of its reader (the query pauses when they wait unread). */
const READ_AHEAD_CHUNKS = 16;

/** Options of {@link toUIMessageStream}. */
export interface UIMessageStreamOptions {
  /**
   * The id of the assistant message the chunks build (sent in the `start` chunk). Give the id of
   * an existing message to continue it (an approval's resend). @default a random UUID
   */
  messageId?: string;
  /** Metadata sent with the `start` chunk (merged into the message's `metadata`). */
  metadata?: LatticeMessageMetadata;
  /**
   * Secrets to remove from streamed text and error texts, besides credential-shaped strings
   * (`sk-ant-…`, `sk-proj-…` and other `sk-…` keys, `AKIA…`, `Bearer …`), which always go. The
   * agent redacts each streamed delta alone: text that may grow into a secret across deltas is
   * held back until the next delta, so one written in two pieces is removed too.
   */
  secrets?: readonly string[];
  /**
   * Tool calls a person denied in the decisions this query resumes with: their error results are
   * sent as `tool-output-denied` (the protocol's denied state) instead of `tool-output-error`.
   */
  deniedToolCallIds?: Iterable<string>;
}

/**
 * Translates a query's messages into UI message chunks, pulled as the consumer reads:
 * `start`; per model turn `start-step` … `finish-step`; text as `text-start`/`text-delta`/`text-end`
 * (deltas only when the agent has `includePartialMessages: true`, else each block whole); thinking
 * as reasoning parts; each tool call as a dynamic tool part (`tool-input-start`/`-delta` while its
 * input streams, `tool-input-available`, then `tool-output-available`, `tool-output-error` or
 * `tool-output-denied`); a subagent call's progress as a `data-subagent` part (id: the call's id);
 * usage as `message-metadata`; a paused call as `tool-approval-request`; the end as `finish` whose
 * metadata holds the result subtype (`end`), usage and cost, after an `error` chunk (redacted) for
 * error ends. Chunks go out when the task that made them ends: deltas of one part that arrive
 * together (a burst parsed from one network read) go out as one delta. The stream reads at most
 * 16 chunks ahead of its reader. Cancelling the stream returns the iterator (a query's generator
 * then ends the query).
 *
 * @example
 * const stream = toUIMessageStream(agent.query("Hello", {}));
 */
export function toUIMessageStream(
  messages: AsyncIterable<SDKMessage<unknown>>,
  options: UIMessageStreamOptions = {},
): ReadableStream<UIStreamChunk> {
  const messageId = options.messageId ?? crypto.randomUUID();
  let iterator: AsyncIterator<SDKMessage<unknown>> | undefined;
  let controller!: ReadableStreamDefaultController<UIStreamChunk>;
  let ended = false;
  let closed = false;
  const batch = new ChunkBatch((chunk) => {
    if (!closed) controller.enqueue(chunk);
  });
  const mapper = new UIChunkMapper(
    {
      idPrefix: messageId.slice(0, 8) + Math.random().toString(36).slice(2, 8),
      secrets: options.secrets ?? [],
      deniedToolCallIds: new Set(options.deniedToolCallIds ?? []),
    },
    (chunk) => {
      if (chunk.type === "finish") ended = true;
      batch.push(chunk);
    },
  );
  return new ReadableStream<UIStreamChunk>(
    {
      start(streamController) {
        controller = streamController;
        const start: UIStreamChunk = { type: "start", messageId };
        if (options.metadata !== undefined) start.messageMetadata = options.metadata;
        controller.enqueue(start);
      },
      async pull() {
        iterator ??= messages[Symbol.asyncIterator]();
        try {
          // Read on while the reader wants more than is queued and batched (a joined delta counts once).
          while (!ended) {
            const next = await iterator.next();
            if (next.done) break;
            mapper.map(next.value);
            if ((controller.desiredSize ?? 0) - batch.size <= 0) return;
          }
          // After the result: let the query finish its own way (it releases the conversation).
          while (ended && !(await iterator.next()).done) {}
        } catch (error) {
          if (!ended) mapper.fail(error);
        }
        if (!ended) batch.push({ type: "finish", finishReason: "other" });
        batch.close();
        closed = true;
        controller.close();
      },
      async cancel() {
        closed = true;
        batch.discard();
        await iterator?.return?.();
      },
    },
    { highWaterMark: READ_AHEAD_CHUNKS },
  );
}

/** Options of {@link toUIMessageStreamResponse}: the stream's, and the response's status and headers. */
export interface UIMessageStreamResponseOptions extends UIMessageStreamOptions {
  /** @default 200 */
  status?: number;
  /** Extra headers (the protocol's own are always set). */
  headers?: Record<string, string>;
}

/**
 * The UI message stream as a `Response`: server-sent events (`data: <chunk JSON>`, then
 * `data: [DONE]`) with the protocol's headers (`x-vercel-ai-ui-message-stream: v1`). Return it
 * from any Web-standard handler (Next.js route, Hono, Bun, Deno, a worker).
 *
 * @example
 * export async function POST(request: Request) {
 *   const { text } = await request.json();
 *   return toUIMessageStreamResponse(agent.query(text));
 * }
 */
export function toUIMessageStreamResponse(
  messages: AsyncIterable<SDKMessage<unknown>>,
  options: UIMessageStreamResponseOptions = {},
): Response {
  const { status = 200, headers = {}, ...streamOptions } = options;
  return new Response(encodeChunks(toUIMessageStream(messages, streamOptions)), {
    status,
    headers: { ...headers, ...UI_MESSAGE_STREAM_HEADERS },
  });
}
