/**
 * Reading a streamed response of the Messages API: server-sent events handed to `onEvent` as they
 * arrive and assembled into the message, with the body handled the way proxies and odd endpoints
 * need (a JSON answer instead, a mislabelled or foreign body, a body left open after `message_stop`).
 * @module
 */
import type Anthropic from "@anthropic-ai/sdk";
import { Stream } from "@anthropic-ai/sdk/core/streaming";
import { ProviderError } from "../errors";
import type { AssistantModelMessage } from "../messages/types";
import {
  isJsonResponse,
  messageFromJsonBody,
  notAMessageError,
  readJsonBody,
  snippet,
} from "./anthropic-json-response";
import type { AnthropicRequestBody } from "./anthropic-request";
import type { RequestProgress, SdkRequestOptions } from "./anthropic-request-failure";
import { StreamedMessageAssembler } from "./anthropic-stream";
import type { ModelRequest, ModelStreamEvent } from "./client";
import { toProviderError } from "./errors";

/**
 * Streams the response, handing every raw event to `onEvent` as it arrives and assembling the
 * message. An `error` event, or a stream that ends before the message does, is a ProviderError.
 */
export async function createStreamedMessage(
  sdk: Anthropic,
  body: AnthropicRequestBody,
  requestOptions: SdkRequestOptions,
  request: ModelRequest,
  progress: RequestProgress,
  secrets: readonly string[],
): Promise<AssistantModelMessage> {
  const response = await sdk.messages.create({ ...body, stream: true }, requestOptions).asResponse();
  const requestId = response.headers.get("request-id") ?? undefined;
  progress.requestId = requestId;
  // An endpoint that cannot stream may answer with one JSON body anyway (a message, or an error).
  if (isJsonResponse(response)) {
    return messageFromJsonBody(await readJsonBody(response, requestId, secrets), requestId, secrets);
  }
  // A body not labelled as an event stream is still read as one (some endpoints mislabel theirs),
  // keeping its start in case it turns out to be something else entirely (an HTML page).
  const networkBody = abandonableBody(response);
  const tap = isEventStream(response) ? undefined : keepBodyStart(networkBody.response);
  const assembler = new StreamedMessageAssembler();
  const events = Stream.rawEvents(tap?.response ?? networkBody.response)[Symbol.asyncIterator]();
  let frames = 0;
  try {
    for (let next = await events.next(); !next.done; next = await events.next()) {
      frames++;
      const event = parseEventData(next.value.data, secrets);
      if (!event) continue;
      request.onEvent?.(event);
      if (requestOptions.signal.aborted) break;
      if (event.type === "error") {
        throw toProviderError(
          { ...event, requestID: requestId },
          { partial: assembler.hasContent, label: "Anthropic API stream" },
        );
      }
      assembler.apply(event);
      progress.hasContent = assembler.hasContent;
      if (event.type === "message_stop") {
        // The message is whole: a body left open after it (a proxy's doing) must not hold it.
        if (!(await bodyEndsSoon(events))) networkBody.abandon();
        break;
      }
    }
  } finally {
    await events.return?.(undefined).catch(() => undefined);
  }
  requestOptions.signal.throwIfAborted();
  if (tap && frames === 0) {
    throw notAMessageError("neither an event stream nor JSON", response, tap.start(), requestId, secrets);
  }
  if (!assembler.isComplete) {
    throw new ProviderError(
      `Anthropic API stream connection error: the stream ended before the message was complete${requestId ? ` (request-id ${requestId})` : ""}`,
      { requestId, retryable: true, partial: assembler.hasContent },
    );
  }
  return assembler.toMessage();
}

/** One server-sent event's JSON payload; `undefined` for keep-alive noise (`[DONE]`, empty data). */
function parseEventData(data: string, secrets: readonly string[]): ModelStreamEvent | undefined {
  if (!data || data === "[DONE]") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    throw toProviderError(
      { message: `the stream sent an event that is not JSON (${snippet(data, secrets)})` },
      { label: "Anthropic API stream" },
    );
  }
  if (
    typeof parsed !== "object" ||
    parsed === null ||
    typeof (parsed as { type?: unknown }).type !== "string"
  ) {
    return undefined;
  }
  return parsed as ModelStreamEvent;
}

function isEventStream(response: Response): boolean {
  return /^text\/event-stream\b/i.test(response.headers.get("content-type") ?? "");
}

/** The response with its body passed through a tap that keeps the first few hundred characters. */
function keepBodyStart(response: Response): { response: Response; start(): string } {
  const decoder = new TextDecoder();
  let start = "";
  const tapped = response.body?.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (start.length < 400) start += decoder.decode(chunk, { stream: true });
        controller.enqueue(chunk);
      },
    }),
  );
  const copy = new Response(tapped ?? null, { status: response.status, headers: response.headers });
  return { response: copy, start: () => start };
}

/**
 * How long the body may stay open after `message_stop` before it is cancelled. The message is whole
 * by then, so a body a proxy leaves open must not hold the answer; but the end of the body usually
 * follows in the next packet, and reading it keeps the connection reusable (cancelling a body
 * mid-way closes its connection: a new TCP and TLS handshake for the next turn).
 */
const BODY_END_GRACE_MS = 250;

/**
 * Whether the event stream ends within {@link BODY_END_GRACE_MS}; what it sends meanwhile is
 * ignored. When it does not, a read is left pending: {@link abandonableBody}'s `abandon` ends it.
 */
async function bodyEndsSoon(events: AsyncIterator<unknown>): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const grace = new Promise<false>((resolve) => {
    timer = setTimeout(resolve, BODY_END_GRACE_MS, false);
  });
  const drained = (async () => {
    for (let next = await events.next(); !next.done; next = await events.next()) {}
    return true;
  })().catch(() => true);
  try {
    return await Promise.race([drained, grace]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The response with a body that can be abandoned while a read of it is pending: `abandon()`
 * cancels the network body (releasing the connection) and ends the copy's pending read as the end
 * of the stream. The SDK's reader holds the lock on the body it reads, so this is the one handle
 * left for it.
 */
function abandonableBody(response: Response): { response: Response; abandon(): void } {
  const source = response.body;
  if (!source) return { response, abandon: () => undefined };
  const reader = source.getReader();
  const copy = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunk = await reader.read();
      if (chunk.done) controller.close();
      else controller.enqueue(chunk.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return {
    response: new Response(copy, { status: response.status, headers: response.headers }),
    abandon: () => {
      reader.cancel().catch(() => undefined);
    },
  };
}
