/**
 * Reading a streamed response of the Messages API: server-sent events handed to `onEvent` as they
 * arrive and assembled into the message, with the body handled the way proxies and odd endpoints
 * need (a JSON answer instead, a mislabelled or foreign body, a body left open after `message_stop`).
 * @module
 */
import type { ModelStreamEvent } from "../messages/stream-event";
import type { AssistantModelMessage } from "../messages/types";
import {
  isJsonResponse,
  messageFromJsonBody,
  notAMessageError,
  readJsonBody,
  snippet,
} from "./anthropic-json-response";
import type { RequestScope } from "./anthropic-request-failure";
import { StreamedMessageAssembler } from "./anthropic-stream";
import type { ModelRequest } from "./client";
import { toProviderError } from "./errors";
import { streamEndedEarlyError } from "./network-failure";
import { type ServerSentEvent, SseDecoder } from "./sse-decoder";

/**
 * Follows the events of one streamed response, whichever transport delivers them: hands each to
 * `onEvent`, stops at a cancellation, fails at an `error` event, assembles the message.
 */
export class StreamedResponse {
  private readonly assembler: StreamedMessageAssembler;

  constructor(
    private readonly request: ModelRequest,
    private readonly scope: RequestScope,
  ) {
    this.assembler = new StreamedMessageAssembler(scope.source);
  }

  /** Takes one event; `true` when reading should stop (the message is complete, or cancelled). */
  accept(event: ModelStreamEvent): boolean {
    this.request.onEvent?.(event);
    if (this.scope.signal.aborted) return true;
    if (event.type === "error") {
      throw toProviderError(
        { ...event, requestID: this.scope.progress.requestId },
        { partial: this.assembler.hasContent, label: `${this.scope.source} stream` },
      );
    }
    this.assembler.apply(event);
    this.scope.progress.hasContent = this.assembler.hasContent;
    return event.type === "message_stop";
  }

  /**
   * The assembled message, once reading has stopped. Cancelled: the signal's reason; a stream that
   * ended before the message did: a retryable failure.
   */
  finish(): AssistantModelMessage {
    this.scope.signal.throwIfAborted();
    if (!this.assembler.isComplete) throw streamEndedEarlyError();
    return this.assembler.toMessage();
  }
}

/**
 * Reads a streamed HTTP response: every raw event to `onEvent` as it arrives, the message
 * assembled. An endpoint that answers with one JSON body is read as that message (or that error);
 * a body not labelled as an event stream is still read as one (some endpoints mislabel theirs),
 * keeping its start in case it turns out to be something else entirely (an HTML page).
 */
export async function readStreamedMessage(
  response: Response,
  request: ModelRequest,
  scope: RequestScope,
  secrets: readonly string[],
): Promise<AssistantModelMessage> {
  const requestId = response.headers.get("request-id") ?? undefined;
  scope.progress.requestId = requestId;
  if (isJsonResponse(response)) {
    return messageFromJsonBody(
      await readJsonBody(response, requestId, secrets, scope.source),
      requestId,
      secrets,
      scope.source,
    );
  }
  const labelled = isEventStream(response);
  const streamed = new StreamedResponse(request, scope);
  const body = new BodyReader(response.body, !labelled);
  let frames = 0;
  try {
    reading: while (!body.done) {
      for (const frame of await body.nextEvents()) {
        frames++;
        const event = parseEventData(frame.data, secrets, scope.source);
        if (!event || !streamed.accept(event)) continue;
        // The message is whole: a body left open after it (a proxy's doing) must not hold it.
        if (event.type === "message_stop") await body.endsSoon();
        break reading;
      }
    }
  } finally {
    body.release();
  }
  scope.signal.throwIfAborted();
  if (!labelled && frames === 0) {
    throw notAMessageError(
      "neither an event stream nor JSON",
      response,
      { start: body.start, requestId },
      secrets,
      scope.source,
    );
  }
  return streamed.finish();
}

/**
 * How long the body may stay open after `message_stop` before it is cancelled. The message is whole
 * by then, so a body a proxy leaves open must not hold the answer; but the end of the body usually
 * follows in the next packet, and reading it keeps the connection reusable (cancelling a body
 * mid-way closes its connection: a new TCP and TLS handshake for the next turn).
 */
const BODY_END_GRACE_MS = 250;

/** The events of a response body, chunk by chunk; cancels what is left unread on `release()`. */
class BodyReader {
  done: boolean;
  /** The first few hundred characters, when asked to keep them. */
  start = "";
  private readonly reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  private readonly text = new TextDecoder();
  private readonly events = new SseDecoder();

  constructor(
    body: ReadableStream<Uint8Array> | null,
    private readonly keepStart: boolean,
  ) {
    this.reader = body?.getReader();
    this.done = this.reader === undefined;
  }

  /** The events the next chunk completes (those the end of the body completes, at the end). */
  async nextEvents(): Promise<ServerSentEvent[]> {
    const chunk = await this.reader!.read();
    if (chunk.done) {
      this.done = true;
      const rest = this.events.push(this.text.decode());
      return rest.concat(this.events.end());
    }
    const text = this.text.decode(chunk.value, { stream: true });
    if (this.keepStart && this.start.length < 400) this.start += text;
    return this.events.push(text);
  }

  /**
   * Waits up to {@link BODY_END_GRACE_MS} for the body to end, ignoring what it sends meanwhile;
   * when it does not, `release()` cancels it (a read may be left pending: the cancel ends it).
   */
  async endsSoon(): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, BODY_END_GRACE_MS);
    });
    const drained = (async () => {
      for (let chunk = await this.reader!.read(); !chunk.done; chunk = await this.reader!.read()) {}
      this.done = true;
    })().catch(() => undefined);
    try {
      await Promise.race([drained, grace]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Cancels the body when it was not read to its end (this releases the connection). */
  release(): void {
    if (!this.done) this.reader?.cancel().catch(() => undefined);
  }
}

/**
 * One server-sent event's JSON payload; `undefined` for keep-alive noise (`[DONE]`, empty data).
 * `source` names the service in the error for an event that is not JSON.
 */
export function parseEventData(
  data: string,
  secrets: readonly string[],
  source: string,
): ModelStreamEvent | undefined {
  if (!data || data === "[DONE]") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    throw toProviderError(
      { message: `the stream sent an event that is not JSON (${snippet(data, secrets)})` },
      { label: `${source} stream` },
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
