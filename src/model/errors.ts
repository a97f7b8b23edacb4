/**
 * Classifying what a model client threw: {@link toProviderError} turns any failure into a
 * {@link ProviderError} (transient or not, with the provider's hints and no secrets),
 * {@link isPromptTooLongError} recognises a context-window overflow in the wordings of the common
 * Anthropic-compatible providers, and {@link isAbortError} recognises a cancellation.
 * @module
 */
import { AnthropicError } from "@anthropic-ai/sdk";
import { ProviderError, TimeoutError } from "../errors";
import { containsSecret, redact } from "../shared/redact";

export { redact } from "../shared/redact";

/** Options of {@link toProviderError}. */
export interface ToProviderErrorOptions {
  /** Strings (API keys, tokens) that must never appear in the error. Anything shaped like `sk-ant-…` is always removed. */
  secrets?: string[];
  /** Whether the response had already produced content before failing. @default false */
  partial?: boolean;
  /** How the message names the failing side. @default "Anthropic API" for SDK and API-shaped errors, else "Model provider" */
  label?: string;
  /** The request id when the error itself does not carry one (e.g. a stream cut after its headers). */
  requestId?: string;
}

/** HTTP statuses that mean "try again later". */
const TRANSIENT_STATUSES = new Set([408, 409, 429, 529]);

/** Provider error types that mean "try again later". */
const TRANSIENT_ERROR_TYPES = new Set(["overloaded_error", "rate_limit_error", "api_error", "timeout_error"]);

/** Socket-level failure codes worth a retry. `ENOTFOUND` is absent on purpose: a wrong host is a configuration error. */
const TRANSIENT_NETWORK_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EAI_AGAIN",
  "ENETDOWN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);

/** Network failure codes that are configuration mistakes, never retried. */
const PERMANENT_NETWORK_CODES = new Set([
  "ENOTFOUND",
  "ERR_INVALID_URL",
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "CERT_HAS_EXPIRED",
]);

/** Messages of fetch implementations for a connection that failed or was cut. */
const NETWORK_FAILURE_MESSAGE = /^(fetch failed|terminated|socket hang up|other side closed|network error)/i;

/** SDK classes (by name, so that any copy of the SDK is recognised) that mean the connection failed. */
const SDK_CONNECTION_ERROR_NAMES = new Set(["APIConnectionError", "APIConnectionTimeoutError"]);

/**
 * Turns anything a model client threw into a {@link ProviderError}.
 *
 * Transient (`retryable: true`), unless the error states its own boolean `retryable` (or
 * `nonRetryable: true`): a numeric `status` of 408, 409, 429, any 5xx (529 included); an
 * error type (`type`, `error.type` or `error.error.type`) of `overloaded_error`, `rate_limit_error`,
 * `api_error` or `timeout_error`; a network failure (connection reset or refused, socket closed,
 * DNS retry, the SDK's `APIConnectionError`). Everything else, and our own timeouts and aborts, is
 * not. The `retry-after-ms` / `retry-after` hint and the request id are kept.
 *
 * The message never contains a secret: every string in `options.secrets` and anything shaped like an
 * Anthropic key is replaced, and the original error is kept as `cause` only when it holds none.
 *
 * @example
 * const failure = toProviderError(error, { secrets: [apiKey] });
 * if (failure.retryable) await sleep(failure.retryAfterMs ?? backoff);
 */
export function toProviderError(error: unknown, options: ToProviderErrorOptions = {}): ProviderError {
  const secrets = (options.secrets ?? []).filter(
    (secret) => typeof secret === "string" && secret.length >= 4,
  );
  if (error instanceof ProviderError) return withoutSecrets(error, secrets, options.partial);

  const status = readStatus(error);
  const errorType = readErrorType(error);
  const headers = readHeaders(error);
  const requestId = readRequestId(error, headers) ?? options.requestId;
  const network = networkFailureKind(error);
  const retryable =
    explicitRetryable(error) ??
    (!isOwnCancellation(error) &&
      (isTransientStatus(status) ||
        (errorType !== undefined && TRANSIENT_ERROR_TYPES.has(errorType)) ||
        network === "transient"));
  const label = options.label ?? (isApiShaped(error) ? "Anthropic API" : "Model provider");
  const message = describeFailure({
    label,
    status,
    errorType,
    requestId,
    network: network !== undefined,
    // Redacted before an HTML page is cut to its start, so that no secret is cut in two.
    detail: redact(readDetail(error), secrets),
    codes: readBodyCodes(error).filter((code) => code !== errorType),
  });
  return new ProviderError(redact(message, secrets), {
    status,
    errorType: redactField(errorType, secrets),
    requestId: redactField(requestId, secrets),
    retryable,
    retryAfterMs: readRetryAfterMs(error, headers),
    partial: options.partial ?? false,
    cause: containsSecret(error, secrets) ? undefined : error,
  });
}

/**
 * Whether `error` is an API error saying the prompt no longer fits the model's context window
 * (so compacting the history and retrying can help). Recognises the wordings of Anthropic
 * ("prompt is too long: 210000 tokens > 200000 maximum"), DeepSeek and OpenAI-style endpoints
 * ("maximum context length is … tokens", `context_length_exceeded`), Moonshot/Kimi ("exceeded model
 * token limit"), Zhipu GLM ("Prompt exceeds max length", code 1261), MiniMax ("context window
 * exceeds limit"), and generic ones ("input is too long", "too many tokens"). Rate-limit errors that
 * talk about tokens per minute are not overflows.
 */
export function isPromptTooLongError(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const status = readStatus(error);
  if (status !== undefined && status !== 400 && status !== 413 && status !== 422) return false;
  const errorType = readErrorType(error);
  if (errorType === "rate_limit_error") return false;
  const text = collectErrorText(error);
  if (RATE_LIMIT_WORDING.test(text)) return false;
  if (PROMPT_TOO_LONG_CODES.some((code) => readErrorCodes(error).includes(code))) return true;
  return PROMPT_TOO_LONG_WORDINGS.some((pattern) => pattern.test(text));
}

/**
 * Whether `error` is a cancellation rather than a failure: a DOMException or Node `AbortError`,
 * the SDK's `APIUserAbortError`, or our own `AbortError`.
 */
export function isAbortError(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { name, code } = error as { name?: unknown; code?: unknown };
  return name === "AbortError" || name === "APIUserAbortError" || code === "ABORT_ERR";
}

/** Wordings of a prompt that exceeds the context window, across providers. */
const PROMPT_TOO_LONG_WORDINGS: RegExp[] = [
  /prompt is too long/i, // Anthropic
  /maximum context length is \d+/i, // OpenAI, DeepSeek, vLLM
  /maximum prompt length is \d+/i, // xAI
  /context[_ ]length[_ ]exceeded/i, // OpenAI code, Ollama, LiteLLM
  /exceeded model token limit/i, // Moonshot / Kimi
  /prompt exceeds max(imum)? length/i, // Zhipu GLM
  /\[code (.*, )?1261\b/, // Zhipu GLM's code, as toProviderError writes it
  /context window exceeds limit/i, // MiniMax
  /exceeds? (the )?(model'?s? )?context (window|length|size)/i, // generic
  /input (is )?too long/i, // Bedrock, Vertex, generic
  /too many (input )?tokens/i, // generic
  /input token count .* exceeds the maximum/i, // Gemini-style gateways
  /request exceeds the available context size/i, // llama.cpp server
];

/** Provider error codes of a prompt that exceeds the context window. */
const PROMPT_TOO_LONG_CODES = ["1261", "context_length_exceeded"];

/** A rate limit counted in tokens is not an overflow. */
const RATE_LIMIT_WORDING = /per minute|rate limit|\bTPM\b|\bTPD\b|tokens per day/i;

function isTransientStatus(status: number | undefined): boolean {
  return status !== undefined && (TRANSIENT_STATUSES.has(status) || (status >= 500 && status <= 599));
}

/** A client's own verdict: a boolean `retryable`, or `nonRetryable: true`. */
function explicitRetryable(error: unknown): boolean | undefined {
  if (!isRecord(error) || isOwnCancellation(error)) return undefined;
  if (error.nonRetryable === true) return false;
  return typeof error.retryable === "boolean" ? error.retryable : undefined;
}

/** Our own deadline or a caller's cancellation: never a provider failure worth retrying. */
function isOwnCancellation(error: unknown): boolean {
  return error instanceof TimeoutError || isAbortError(error);
}

/**
 * A failure to reach the provider or to keep the connection, looked for along the `cause` chain:
 * `"transient"` (worth a retry), `"permanent"` (a configuration mistake such as an unknown host),
 * or `undefined` when it is no network failure.
 */
function networkFailureKind(error: unknown): "transient" | "permanent" | undefined {
  if (isOwnCancellation(error)) return undefined;
  let kind: "transient" | undefined;
  for (const link of causeChain(error)) {
    const { code, name, message } = link as { code?: unknown; name?: unknown; message?: unknown };
    if (typeof code === "string" && PERMANENT_NETWORK_CODES.has(code)) return "permanent";
    if (typeof code === "string" && TRANSIENT_NETWORK_CODES.has(code)) kind = "transient";
    if (typeof name === "string" && SDK_CONNECTION_ERROR_NAMES.has(name)) kind = "transient";
    if (typeof message === "string" && NETWORK_FAILURE_MESSAGE.test(message)) kind = "transient";
  }
  return kind;
}

/** `error`, its `cause`, the cause's cause … (at most 6 links, cycles cut). */
function causeChain(error: unknown): object[] {
  const chain: object[] = [];
  let link: unknown = error;
  while (typeof link === "object" && link !== null && chain.length < 6 && !chain.includes(link)) {
    chain.push(link);
    link = (link as { cause?: unknown }).cause;
  }
  return chain;
}

/** An SDK error, or an object carrying the Messages API error body. */
function isApiShaped(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  if (error instanceof AnthropicError || "requestID" in error) return true;
  const body = (error as { error?: unknown }).error;
  return isRecord(body) && (body.type === "error" || isRecord(body.error));
}

function readStatus(error: unknown): number | undefined {
  if (!isRecord(error)) return undefined;
  for (const candidate of [
    error.status,
    error.statusCode,
    isRecord(error.response) ? error.response.status : undefined,
  ]) {
    if (typeof candidate === "number" && Number.isInteger(candidate) && candidate >= 100 && candidate <= 599)
      return candidate;
  }
  return undefined;
}

/** The provider's error type: from the body (`error.error.type`, `error.type`) or the error's own `type`. */
function readErrorType(error: unknown): string | undefined {
  if (!isRecord(error)) return undefined;
  const body = error.error;
  if (isRecord(body)) {
    if (isRecord(body.error) && typeof body.error.type === "string" && body.error.type)
      return body.error.type;
    if (typeof body.type === "string" && body.type && body.type !== "error") return body.type;
  }
  const ownType = error.type;
  if (typeof ownType === "string" && /_error$/.test(ownType)) return ownType;
  return undefined;
}

/** Error codes from the body (`error.code`, `error.error.code`) and the error itself. */
function readErrorCodes(error: unknown): string[] {
  if (!isRecord(error)) return [];
  const own = typeof error.code === "string" || typeof error.code === "number" ? [String(error.code)] : [];
  return [...own, ...readBodyCodes(error)];
}

/** The provider's error codes from the body (`error.code`, `error.error.code`), e.g. Zhipu's `1261`. */
function readBodyCodes(error: unknown): string[] {
  if (!isRecord(error)) return [];
  const body = isRecord(error.error) ? error.error : undefined;
  const nested = body && isRecord(body.error) ? body.error : undefined;
  return [body?.code, nested?.code]
    .filter((code) => typeof code === "string" || typeof code === "number")
    .map(String);
}

/** The human-readable part: the API's message when there is one, else the error's message chain. */
function readDetail(error: unknown): string {
  if (typeof error === "string") return error;
  if (!isRecord(error)) return String(error);
  const body = isRecord(error.error) ? error.error : undefined;
  const nested = body && isRecord(body.error) ? body.error : undefined;
  for (const candidate of [error.apiMessage, nested?.message, body?.message]) {
    if (typeof candidate === "string" && candidate) return candidate;
  }
  const messages: string[] = [];
  for (const link of causeChain(error)) {
    const { message, code } = link as { message?: unknown; code?: unknown };
    const text = typeof message === "string" ? message.trim().replace(/\.$/, "") : "";
    if (text && !messages.some((seen) => seen.includes(text))) messages.push(text);
    if (typeof code === "string" && !messages.some((seen) => seen.includes(code))) messages.push(`(${code})`);
  }
  return messages.join(": ").replace(/: \(/g, " (") || "unknown error";
}

/** All the text an error carries, for wording checks. */
function collectErrorText(error: object): string {
  const record = error as Record<string, unknown>;
  const body = isRecord(record.error) ? record.error : undefined;
  const nested = body && isRecord(body.error) ? body.error : undefined;
  return [
    record.message,
    record.apiMessage,
    record.type,
    record.code,
    body?.message,
    body?.code,
    nested?.message,
    nested?.type,
    nested?.code,
  ]
    .filter((part) => typeof part === "string" || typeof part === "number")
    .join(" \n ");
}

type HeaderReader = (name: string) => string | undefined;

/** Response headers of the failure: a `Headers`, a plain object, or `response.headers`. */
function readHeaders(error: unknown): HeaderReader {
  if (!isRecord(error)) return () => undefined;
  const source = error.headers ?? (isRecord(error.response) ? error.response.headers : undefined);
  if (isRecord(source) && typeof source.get === "function") {
    const headers = source as { get(name: string): string | null };
    return (name) => headers.get(name) ?? undefined;
  }
  if (isRecord(source)) {
    return (name) => {
      const key = Object.keys(source).find((candidate) => candidate.toLowerCase() === name);
      const value = key === undefined ? undefined : source[key];
      return typeof value === "string"
        ? value
        : Array.isArray(value) && typeof value[0] === "string"
          ? value[0]
          : undefined;
    };
  }
  return () => undefined;
}

function readRequestId(error: unknown, header: HeaderReader): string | undefined {
  const body = isRecord(error) && isRecord(error.error) ? error.error : undefined;
  const candidates = isRecord(error)
    ? [
        error.requestID,
        error.requestId,
        error.request_id,
        body?.request_id,
        header("request-id"),
        header("x-request-id"),
      ]
    : [];
  const found = candidates.find((candidate) => typeof candidate === "string" && candidate.length > 0);
  return found as string | undefined;
}

/** The `hh:mm:ss` every HTTP-date carries (IMF-fixdate, RFC 850, asctime). */
const HTTP_DATE_TIME = /\b\d{2}:\d{2}:\d{2}\b/;

/** `retry-after-ms` (milliseconds), else `retry-after` (seconds or an HTTP date), else a `retryAfterMs` field. */
function readRetryAfterMs(error: unknown, header: HeaderReader): number | undefined {
  const milliseconds = Number.parseFloat(header("retry-after-ms") ?? "");
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return Math.round(milliseconds);
  const retryAfter = header("retry-after")?.trim();
  if (retryAfter) {
    if (/^\d+(\.\d+)?$/.test(retryAfter)) return Math.round(Number.parseFloat(retryAfter) * 1000);
    // Every HTTP-date form has a time of day; `Date.parse` alone reads "-5" as a date in 2001.
    const date = HTTP_DATE_TIME.test(retryAfter) ? Date.parse(retryAfter) : Number.NaN;
    if (!Number.isNaN(date)) return Math.max(0, date - Date.now());
  }
  const field = isRecord(error) ? error.retryAfterMs : undefined;
  return typeof field === "number" && Number.isFinite(field) && field >= 0 ? field : undefined;
}

function describeFailure(parts: {
  label: string;
  status: number | undefined;
  errorType: string | undefined;
  requestId: string | undefined;
  network: boolean;
  detail: string;
  codes: string[];
}): string {
  const head = [
    parts.label,
    parts.status,
    parts.errorType ?? (parts.network ? "connection error" : undefined),
  ]
    .filter((part) => part !== undefined)
    .join(" ");
  let detail = summariseHtmlPage(
    parts.status !== undefined ? parts.detail.replace(new RegExp(`^${parts.status}\\s+`), "") : parts.detail,
  );
  const codes = parts.codes.filter((code) => !detail.includes(code));
  if (codes.length > 0) detail += ` [code ${codes.join(", ")}]`;
  return `${head}: ${detail}${parts.requestId ? ` (request-id ${parts.requestId})` : ""}`;
}

/**
 * An HTML page (a proxy's or a CDN's error page, kilobytes of markup) named by its title, else by
 * its start; any other detail as is.
 */
function summariseHtmlPage(detail: string): string {
  if (!/^\s*<(?:!doctype\s+html|html|head|body)\b/i.test(detail)) return detail;
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(detail)?.[1]?.replace(/\s+/g, " ").trim();
  if (title) return `an HTML page titled "${title.slice(0, 120)}"`;
  return `an HTML page starting "${detail.replace(/\s+/g, " ").trim().slice(0, 80)}…"`;
}

/** A short field of an error (request id, error type) that an endpoint filled from its input. */
function redactField(value: string | undefined, secrets: string[]): string | undefined {
  return value === undefined ? undefined : redact(value, secrets);
}

/** Rebuilds a ProviderError whose message carries a secret; returns it as is otherwise. */
function withoutSecrets(
  error: ProviderError,
  secrets: string[],
  partial: boolean | undefined,
): ProviderError {
  const clean = redact(error.message, secrets);
  const errorType = redactField(error.errorType, secrets);
  const requestId = redactField(error.requestId, secrets);
  if (
    clean === error.message &&
    errorType === error.errorType &&
    requestId === error.requestId &&
    !containsSecret(error.cause, secrets) &&
    (partial === undefined || partial === error.partial)
  ) {
    return error;
  }
  return new ProviderError(clean, {
    status: error.status,
    errorType,
    requestId,
    retryable: error.retryable,
    retryAfterMs: error.retryAfterMs,
    partial: partial ?? error.partial,
    cause: containsSecret(error.cause, secrets) ? undefined : error.cause,
  });
}

function isRecord(value: unknown): value is Record<string, any> {
  return typeof value === "object" && value !== null;
}
