/**
 * `createAnthropicClient`: the built-in {@link ModelClient}, over `@anthropic-ai/sdk`, for the
 * Anthropic API and any Anthropic-compatible endpoint (DeepSeek, Moonshot, Zhipu, MiniMax, a local
 * server) through `baseURL`.
 * @module
 */
import Anthropic, { type ClientOptions } from "@anthropic-ai/sdk";
import { Stream } from "@anthropic-ai/sdk/core/streaming";
import { InvalidOptionError, ProviderError, TimeoutError } from "../errors";
import type { AssistantModelMessage } from "../messages/types";
import { redact, urlSecretsOf } from "../shared/redact";
import { linkSignals, MAX_TIMER_MS } from "../shared/signals";
import { type AnthropicRequestBody, toAnthropicRequestBody } from "./anthropic-request";
import { type AnthropicResponseBody, toAssistantMessage } from "./anthropic-response";
import { StreamedMessageAssembler } from "./anthropic-stream";
import type { ModelClient, ModelRequest, ModelStreamEvent } from "./client";
import { endpointOf } from "./endpoint";
import { isAbortError, toProviderError } from "./errors";

/** Options of {@link createAnthropicClient}. */
export interface AnthropicClientOptions {
  /** API key. @default process.env.ANTHROPIC_API_KEY */
  apiKey?: string;
  /** Base URL of an Anthropic-compatible endpoint. @default process.env.ANTHROPIC_BASE_URL, else the Anthropic API */
  baseURL?: string;
  /** Stream responses (server-sent events; `onEvent` sees every raw event). `false` asks for plain JSON. @default true */
  stream?: boolean;
  /**
   * Headers sent with every request. A `null` value removes a header the SDK would send. The values of
   * `x-api-key` and `Authorization` (and its bearer token) are kept out of errors like the API key.
   */
  defaultHeaders?: Record<string, string | null | undefined>;
  /** A `fetch` implementation, passed through to the SDK (proxies, instrumentation, tests). */
  fetch?: ClientOptions["fetch"];
}

/**
 * Creates the built-in Anthropic client.
 *
 * The SDK's own retries are off: the agent loop owns retries. Each request forwards its `signal`
 * and `timeoutMs`; `timeoutMs` bounds the whole response, streamed body included, and ends in a
 * {@link TimeoutError}; without it the SDK's default applies (10 minutes until the response headers
 * arrive; an expiry is a retryable ProviderError), but never its refusal of a non-streaming request
 * with a large `max_tokens`. A cancellation is rethrown as the signal's reason; every other failure
 * becomes a {@link ProviderError} that never contains the API key, nor a credential given through
 * `defaultHeaders` (`x-api-key`, `Authorization`).
 *
 * @throws {InvalidOptionError} when there is no API key and no `baseURL` to a keyless endpoint, or
 * when `baseURL` (or `ANTHROPIC_BASE_URL`) is not a valid URL.
 * @example
 * const client = createAnthropicClient({ apiKey: process.env.DEEPSEEK_API_KEY, baseURL: "https://api.deepseek.com/anthropic" });
 */
export function createAnthropicClient(options: AnthropicClientOptions = {}): ModelClient {
  const apiKey = options.apiKey ?? nonEmpty(process.env.ANTHROPIC_API_KEY);
  const baseURL = options.baseURL ?? nonEmpty(process.env.ANTHROPIC_BASE_URL);
  if (!apiKey && !baseURL) {
    throw new InvalidOptionError(
      "No Anthropic API key: pass `apiKey` to createAnthropicClient/createAgent or set ANTHROPIC_API_KEY (or point `baseURL` at a keyless endpoint).",
    );
  }
  if (baseURL !== undefined && !URL.canParse(baseURL)) {
    // Not quoted: a URL that does not parse cannot be searched for the credentials it may hold.
    throw new InvalidOptionError(
      'The base URL (`baseURL` or ANTHROPIC_BASE_URL) is not a valid URL: give the endpoint as an absolute URL, e.g. "https://api.deepseek.com/anthropic".',
    );
  }
  const sdk = new Anthropic({
    apiKey: apiKey ?? null,
    baseURL,
    maxRetries: 0,
    // The SDK sends the key as a bearer token; compatible endpoints that only read `x-api-key`
    // get it there too. Without a key (a local endpoint), no credentials are sent at all.
    defaultHeaders: apiKey
      ? { "x-api-key": apiKey, ...options.defaultHeaders }
      : { Authorization: null, ...options.defaultHeaders },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  // A key in the base URL (`https://user:key@proxy/`, `?key=…`) is as secret as `apiKey`.
  const secrets = [...credentialSecrets(apiKey, options.defaultHeaders), ...urlSecretsOf(baseURL)];
  const stream = options.stream ?? true;

  return {
    endpoint: endpointOf(baseURL),
    createMessage(request) {
      return withFailureMapping(request, secrets, (signal, progress) => {
        const body = toAnthropicRequestBody(request);
        const requestOptions = { signal, maxRetries: 0, timeout: sdkTimeoutMs(sdk, request.timeoutMs) };
        return stream
          ? createStreamedMessage(sdk, body, requestOptions, request, progress, secrets)
          : createJsonMessage(sdk, body, requestOptions, progress, secrets);
      });
    },
  };
}

/** What a failing request had achieved, for the `partial` flag. */
interface RequestProgress {
  hasContent: boolean;
  /** The `request-id` header, once the response has started. */
  requestId?: string;
}

type SdkRequestOptions = { signal: AbortSignal; maxRetries: number; timeout: number };

/**
 * The `timeout` handed to the SDK: the request's deadline, else the SDK's own default (10 minutes,
 * until the response headers arrive): with no deadline of the agent's, the provider client's default
 * applies. Always explicit: without it the SDK refuses every non-streaming request whose
 * `max_tokens` it guesses could take longer than 10 minutes ("Streaming is required…").
 */
function sdkTimeoutMs(sdk: Anthropic, timeoutMs: number | undefined): number {
  return timeoutMs ? Math.min(timeoutMs, MAX_TIMER_MS) : sdk.timeout;
}

async function createJsonMessage(
  sdk: Anthropic,
  body: AnthropicRequestBody,
  requestOptions: SdkRequestOptions,
  progress: RequestProgress,
  secrets: readonly string[],
): Promise<AssistantModelMessage> {
  // The raw response, so the request id is known before the body is read: a body cut mid-way
  // still fails with the id of the request it belonged to.
  const response = await sdk.messages.create({ ...body, stream: false }, requestOptions).asResponse();
  const requestId = response.headers.get("request-id") ?? undefined;
  progress.requestId = requestId;
  return messageFromJsonBody(await readJsonBody(response, requestId, secrets), requestId, secrets);
}

/**
 * The parsed JSON body. A body that is no JSON at all (a proxy's HTML page, a web application
 * behind a wrong `baseURL`) is a non-retryable ProviderError naming the content type and showing
 * the start of the body; a body cut by the network still fails as the connection error it is.
 */
async function readJsonBody(
  response: Response,
  requestId: string | undefined,
  secrets: readonly string[],
): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    throw notAMessageError("not JSON", response, text, requestId, secrets);
  }
}

/** A 200 whose body is not what was asked for: a non-retryable ProviderError saying what came instead. */
function notAMessageError(
  what: string,
  response: Response,
  start: string,
  requestId: string | undefined,
  secrets: readonly string[],
): ProviderError {
  const contentType = response.headers.get("content-type");
  const body = start.trim() ? snippet(start, secrets) : "an empty body";
  return new ProviderError(
    `Anthropic API: the response is ${what} (${contentType ? `content-type ${redact(contentType, secrets)}` : "no content-type"}): ${body}${requestId ? ` (request-id ${requestId})` : ""}`,
    { status: response.status, requestId, retryable: false },
  );
}

/** A JSON response body as a message; an API error body or a body that is no message is a failure. */
function messageFromJsonBody(
  parsed: unknown,
  requestId: string | undefined,
  secrets: readonly string[],
): AssistantModelMessage {
  if (isRecord(parsed) && parsed.type === "error") {
    // An endpoint that answers 200 with the Messages API error body: the same failure as the
    // stream's `error` event (an overloaded_error is retried).
    throw toProviderError({ ...parsed, requestID: requestId }, { label: "Anthropic API" });
  }
  if (!isRecord(parsed) || !Array.isArray(parsed.content)) {
    throw new ProviderError(
      `Anthropic API: the response is not a message (no content array): ${snippet(JSON.stringify(parsed) ?? "", secrets)}${requestId ? ` (request-id ${requestId})` : ""}`,
      { requestId, retryable: false },
    );
  }
  return toAssistantMessage(parsed as AnthropicResponseBody);
}

function isJsonResponse(response: Response): boolean {
  return /^application\/(?:[\w.+-]*\+)?json\b/i.test(response.headers.get("content-type") ?? "");
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

/** The start of a response text for an error message: redacted first, so no secret is cut in two. */
function snippet(text: string, secrets: readonly string[]): string {
  return redact(text, secrets).replace(/\s+/g, " ").trim().slice(0, 80);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/**
 * Streams the response, handing every raw event to `onEvent` as it arrives and assembling the
 * message. An `error` event, or a stream that ends before the message does, is a ProviderError.
 */
async function createStreamedMessage(
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

/**
 * Runs one request under the caller's signal and the request deadline, and maps how it failed:
 * the caller's cancellation → its reason, the deadline → {@link TimeoutError}, anything else →
 * ProviderError (with `partial` when content had already streamed).
 */
async function withFailureMapping(
  request: ModelRequest,
  secrets: string[],
  run: (signal: AbortSignal, progress: RequestProgress) => Promise<AssistantModelMessage>,
): Promise<AssistantModelMessage> {
  const deadline = request.timeoutMs ? startDeadline(request.timeoutMs) : undefined;
  // A signal of this request's own, dropped when it ends: the SDK leaves an abort listener on the
  // signal it is given when a response is consumed raw, and the caller's signal lives for the
  // whole query — listeners would pile up on it, one per request.
  const link = linkSignals(request.signal, deadline?.signal);
  const progress: RequestProgress = { hasContent: false };
  try {
    return await run(link.signal, progress);
  } catch (error) {
    if (request.signal.aborted) throw request.signal.reason ?? error;
    if (deadline && (deadline.signal.aborted || isSdkTimeout(error)))
      throw new TimeoutError(deadline.timeoutMs);
    if (isAbortError(error)) throw error;
    throw toProviderError(error, {
      secrets,
      partial: progress.hasContent || undefined,
      label: "Anthropic API",
      requestId: progress.requestId,
    });
  } finally {
    deadline?.clear();
    link.dispose();
  }
}

/** A timer that aborts its signal after `timeoutMs` (at most {@link MAX_TIMER_MS}: a longer one would fire at once). */
function startDeadline(timeoutMs: number): { signal: AbortSignal; timeoutMs: number; clear(): void } {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new TimeoutError(timeoutMs)),
    Math.min(timeoutMs, MAX_TIMER_MS),
  );
  return { signal: controller.signal, timeoutMs, clear: () => clearTimeout(timer) };
}

function isSdkTimeout(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as { name?: unknown }).name === "APIConnectionTimeoutError"
  );
}

/** Header names whose values are credentials. */
const CREDENTIAL_HEADERS = new Set(["x-api-key", "authorization"]);

/**
 * The strings no error may show: the API key, and the credentials given through `defaultHeaders`
 * (`x-api-key`, `authorization` and the token after its scheme, e.g. `Bearer <token>`; header names
 * in any capitalisation).
 */
function credentialSecrets(
  apiKey: string | undefined,
  defaultHeaders: AnthropicClientOptions["defaultHeaders"],
): string[] {
  const secrets = apiKey ? [apiKey] : [];
  for (const [name, value] of Object.entries(defaultHeaders ?? {})) {
    if (typeof value !== "string" || !CREDENTIAL_HEADERS.has(name.toLowerCase())) continue;
    const credential = value.trim();
    if (credential) secrets.push(credential);
    const token = /^[A-Za-z][\w-]*\s+(\S.*)$/.exec(credential)?.[1]?.trim();
    if (name.toLowerCase() === "authorization" && token) secrets.push(token);
  }
  return secrets;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value ? value : undefined;
}
