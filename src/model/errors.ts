/**
 * Classifying what a model client threw: {@link toProviderError} turns any failure into a
 * {@link ProviderError} (transient or not, with the provider's hints and no secrets), and
 * {@link isAbortError} recognises a cancellation. {@link isPromptTooLongError}, which recognises a
 * context-window overflow, lives in `prompt-too-long.ts` and is exported from here too.
 * @module
 */
import { ProviderError, TimeoutError } from "../errors";
import { containsSecret, redact } from "../shared/redact";
import { type NetworkFailure, readNetworkFailure } from "./network-failure";
import {
  isRecord,
  readBodyCodes,
  readDetail,
  readErrorType,
  readHeaders,
  readRequestId,
  readRetryAfterMs,
  readStatus,
} from "./provider-error-fields";

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
  /**
   * The endpoint the request went to, as `host:port` (no credentials), for a network failure's
   * message: `"<endpointLabel> at <endpoint>: connection refused (ECONNREFUSED)"`.
   */
  endpoint?: string;
  /** How a network failure's message names the service at `endpoint`. @default "Model provider" */
  endpointLabel?: string;
}

/** HTTP statuses that mean "try again later". */
const TRANSIENT_STATUSES = new Set([408, 409, 429, 529]);

/** Provider error types that mean "try again later". */
const TRANSIENT_ERROR_TYPES = new Set(["overloaded_error", "rate_limit_error", "api_error", "timeout_error"]);

/** Names of the Anthropic SDKs' error classes (any copy of any version): their errors are API-shaped. */
const SDK_ERROR_NAMES = new Set(["AnthropicError", "APIError"]);

/**
 * Turns anything a model client threw into a {@link ProviderError}.
 *
 * Transient (`retryable: true`), unless the error states its own boolean `retryable` (or
 * `nonRetryable: true`): a numeric `status` of 408, 409, 429, any 5xx (529 included); an
 * error type (`type`, `error.type` or `error.error.type`) of `overloaded_error`, `rate_limit_error`,
 * `api_error` or `timeout_error`; a network failure a retry can help with (connection reset or
 * refused, socket closed, a temporary DNS failure, the SDK's `APIConnectionError`). A network
 * failure a retry cannot help with is not: an unknown host (DNS "not found"), a port `fetch`
 * refuses, a malformed URL, a TLS certificate problem. Everything else, and our own timeouts and
 * aborts, is not either. The `retry-after-ms` / `retry-after` hint and the request id are kept.
 * With `options.endpoint`, a network failure's message names the endpoint and the cause
 * (`"Model provider at 127.0.0.1:8080: connection refused (ECONNREFUSED)"`).
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
  const network = isOwnCancellation(error) ? undefined : readNetworkFailure(error);
  const retryable =
    explicitRetryable(error) ??
    (!isOwnCancellation(error) &&
      (isTransientStatus(status) ||
        (errorType !== undefined && TRANSIENT_ERROR_TYPES.has(errorType)) ||
        network?.transient === true));
  const label = options.label ?? (isApiShaped(error) ? "Anthropic API" : "Model provider");
  const message =
    network && options.endpoint && status === undefined
      ? describeNetworkFailure(
          network,
          options.endpointLabel ?? "Model provider",
          options.endpoint,
          requestId,
        )
      : describeFailure({
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
 * Whether a request failed before any response arrived: the connection could not be opened, was
 * refused or dropped before the response headers, or timed out waiting for them. Such a request got
 * no answer — no status, no request id, no content — which a query's count of answered turns and
 * the command line's summary ("no response") can tell from a provider that answered with an error.
 * A failure whose cause was dropped (it held a secret, e.g. a URL with credentials) counts as one
 * when it carries nothing of a response either.
 */
export function isNoResponseFailure(error: unknown): boolean {
  if (!(error instanceof ProviderError)) return false;
  if (error.status !== undefined || error.requestId !== undefined || error.partial) return false;
  if (error.errorType !== undefined) return false;
  return error.cause === undefined || readNetworkFailure(error.cause) !== undefined;
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

/** An SDK error, or an object carrying the Messages API error body. */
function isApiShaped(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  if ("requestID" in error || isSdkError(error)) return true;
  const body = (error as { error?: unknown }).error;
  return isRecord(body) && (body.type === "error" || isRecord(body.error));
}

/** An instance of an Anthropic SDK error class, recognised by the names along its prototype chain. */
function isSdkError(error: object): boolean {
  for (
    let proto = Object.getPrototypeOf(error);
    proto && proto !== Error.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    const name = (proto as { constructor?: { name?: unknown } }).constructor?.name;
    if (typeof name === "string" && SDK_ERROR_NAMES.has(name)) return true;
  }
  return false;
}

/** `"Model provider at 127.0.0.1:8080: connection refused (ECONNREFUSED)"`. */
function describeNetworkFailure(
  failure: NetworkFailure,
  label: string,
  endpoint: string,
  requestId: string | undefined,
): string {
  const code = failure.code ? ` (${failure.code})` : "";
  return `${label} at ${endpoint}: ${failure.cause}${code}${requestId ? ` (request-id ${requestId})` : ""}`;
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
