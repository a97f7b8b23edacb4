/**
 * The wire of the built-in client: `POST {baseURL}/v1/messages` over `fetch`, with the headers the
 * Messages API reads, a time limit for the response headers when the request has no deadline of
 * its own, and a non-2xx answer turned into an error shaped like the API's (status, headers, body).
 * No SDK is involved: the client needs `fetch`, `URL`, `AbortController` and web streams only.
 * @module
 */
import type { RequestScope } from "./anthropic-request-failure";

/** A `fetch` implementation (the global one, a proxy's, an instrumented one). */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** The `anthropic-version` header the client sends (what `@anthropic-ai/sdk` 1.14 sends). */
export const ANTHROPIC_API_VERSION = "2026-10-21";

/**
 * How long a request without a deadline of its own (`timeoutMs`) waits for the response headers:
 * 10 minutes, as the Anthropic SDKs do. The body then streams for as long as it takes.
 */
export const RESPONSE_HEADERS_TIMEOUT_MS = 600_000;

/** Where and how the client sends its requests. */
export interface HttpTransport {
  /** The messages URL: the base URL's path with `/v1/messages` appended, its query kept. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly fetch: FetchLike;
}

/** A non-2xx response, shaped like the SDK's `APIError` so that errors read it the same way. */
export class HttpStatusError extends Error {
  override readonly name = "HttpStatusError";
  constructor(
    readonly status: number,
    readonly headers: Headers,
    /** The parsed JSON body; `undefined` when the body is not JSON. */
    readonly error: unknown,
    /** The body's text (an HTML page, a plain message), for a body that is not the API's error. */
    message: string,
    readonly requestID: string | undefined,
  ) {
    super(message);
  }
}

/** The messages URL of `baseURL`: `https://host/prefix?q` → `https://host/prefix/v1/messages?q`. */
export function messagesUrlOf(baseURL: string): string {
  const url = new URL(baseURL);
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/v1/messages`;
  return url.toString();
}

/**
 * The request headers: JSON in, the API version, the credentials (an API key as `x-api-key` and as
 * a bearer token, since compatible endpoints read one or the other; an auth token as a bearer token
 * only; nothing without either), then `extra` (a `null` value removes a header). Names are lower
 * case, so a header given in any capitalisation replaces the client's own.
 */
export function requestHeadersOf(
  credentials: { apiKey?: string; authToken?: string },
  extra: Readonly<Record<string, string | null | undefined>> | undefined,
): Record<string, string> {
  const headers: Record<string, string> = {
    accept: "application/json",
    "content-type": "application/json",
    "anthropic-version": ANTHROPIC_API_VERSION,
  };
  if (credentials.apiKey) {
    headers["x-api-key"] = credentials.apiKey;
    headers.authorization = `Bearer ${credentials.apiKey}`;
  } else if (credentials.authToken) {
    headers.authorization = `Bearer ${credentials.authToken}`;
  }
  for (const [name, value] of Object.entries(extra ?? {})) {
    const key = name.toLowerCase();
    if (value === null) delete headers[key];
    else if (value !== undefined) headers[key] = value;
  }
  return headers;
}

/**
 * Sends one request and returns its response once the headers are in. A non-2xx status is thrown
 * as an {@link HttpStatusError} with the body read; without a deadline the headers must arrive
 * within {@link RESPONSE_HEADERS_TIMEOUT_MS}, or the request fails (retryably) as timed out.
 * `beta` is added to the `anthropic-beta` header.
 */
export async function postMessages(
  transport: HttpTransport,
  body: string,
  scope: RequestScope,
  beta?: string,
): Promise<Response> {
  const timer = scope.hasDeadline
    ? undefined
    : setTimeout(() => scope.abort(headersTimeoutError()), RESPONSE_HEADERS_TIMEOUT_MS);
  let response: Response;
  try {
    response = await transport.fetch(transport.url, {
      method: "POST",
      headers: beta ? withBeta(transport.headers, beta) : transport.headers,
      body,
      signal: scope.signal,
    });
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
  if (!response.ok) throw await statusErrorOf(response);
  return response;
}

/** `headers` with `beta` added to its `anthropic-beta` list (kept once). */
export function withBeta(headers: Readonly<Record<string, string>>, beta: string): Record<string, string> {
  const betas = (headers["anthropic-beta"] ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  if (!betas.includes(beta)) betas.push(beta);
  return { ...headers, "anthropic-beta": betas.join(",") };
}

/** The failure of a request whose response headers did not arrive in time. */
function headersTimeoutError(): Error {
  return Object.assign(
    new Error(`request timed out: no response within ${RESPONSE_HEADERS_TIMEOUT_MS / 1000} s`),
    { name: "ResponseHeadersTimeoutError", code: "UND_ERR_HEADERS_TIMEOUT" },
  );
}

async function statusErrorOf(response: Response): Promise<HttpStatusError> {
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  const message = text.trim() ? text.trim() : `status code ${response.status} (no body)`;
  const requestId = response.headers.get("request-id") ?? undefined;
  return new HttpStatusError(response.status, response.headers, parsed, message, requestId);
}
