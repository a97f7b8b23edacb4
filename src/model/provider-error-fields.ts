/**
 * Reading what a model client threw, whatever its shape (an SDK error, a fetch failure, an object
 * carrying the Messages API error body, a plain string): its status, error type and codes, request
 * id, retry hint, message and cause chain. Every reader returns `undefined` (or nothing) for a field
 * that is not there.
 * @module
 */

/** `error`, its `cause`, the cause's cause … (at most 6 links, cycles cut). */
export function causeChain(error: unknown): object[] {
  const chain: object[] = [];
  let link: unknown = error;
  while (typeof link === "object" && link !== null && chain.length < 6 && !chain.includes(link)) {
    chain.push(link);
    link = (link as { cause?: unknown }).cause;
  }
  return chain;
}

/** The HTTP status: `status`, `statusCode` or `response.status`, when it is a valid one (100–599). */
export function readStatus(error: unknown): number | undefined {
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
export function readErrorType(error: unknown): string | undefined {
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
export function readErrorCodes(error: unknown): string[] {
  if (!isRecord(error)) return [];
  const own = typeof error.code === "string" || typeof error.code === "number" ? [String(error.code)] : [];
  return [...own, ...readBodyCodes(error)];
}

/** The provider's error codes from the body (`error.code`, `error.error.code`), e.g. Zhipu's `1261`. */
export function readBodyCodes(error: unknown): string[] {
  if (!isRecord(error)) return [];
  const body = isRecord(error.error) ? error.error : undefined;
  const nested = body && isRecord(body.error) ? body.error : undefined;
  return [body?.code, nested?.code]
    .filter((code) => typeof code === "string" || typeof code === "number")
    .map(String);
}

/** The human-readable part: the API's message when there is one, else the error's message chain. */
export function readDetail(error: unknown): string {
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
export function collectErrorText(error: object): string {
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

/** Looks a response header up by its lower-case name. */
export type HeaderReader = (name: string) => string | undefined;

/** Response headers of the failure: a `Headers`, a plain object, or `response.headers`. */
export function readHeaders(error: unknown): HeaderReader {
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

/** The request id: from the error's fields, its body, or the `request-id` / `x-request-id` headers. */
export function readRequestId(error: unknown, header: HeaderReader): string | undefined {
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
export function readRetryAfterMs(error: unknown, header: HeaderReader): number | undefined {
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

/** A non-null object, read field by field. */
export function isRecord(value: unknown): value is Record<string, any> {
  return typeof value === "object" && value !== null;
}
