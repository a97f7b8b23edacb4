/**
 * Recognising a failure to reach a model endpoint or to keep the connection — what `fetch` (undici),
 * Node's sockets and the Anthropic SDKs throw — and saying what it was in words: "connection
 * refused", "DNS lookup failed", "invalid port" …, with whether a retry can help.
 * @module
 */
import { causeChain } from "./provider-error-fields";

/** A network failure, read from an error's cause chain. */
export interface NetworkFailure {
  /** What happened, in words (`"connection refused"`). */
  cause: string;
  /** The system or library code, when there is one (`ECONNREFUSED`). */
  code?: string;
  /** Whether trying again can help: a refused or reset connection can; an unknown host or a bad port cannot. */
  transient: boolean;
}

/** Socket and fetch codes: what each means and whether a retry can help. */
const CODES: ReadonlyMap<string, { cause: string; transient: boolean }> = new Map([
  ["ECONNREFUSED", { cause: "connection refused", transient: true }],
  ["ECONNRESET", { cause: "connection reset", transient: true }],
  ["ECONNABORTED", { cause: "connection aborted", transient: true }],
  ["EPIPE", { cause: "connection closed while sending", transient: true }],
  ["ETIMEDOUT", { cause: "connection timed out", transient: true }],
  ["EAI_AGAIN", { cause: "DNS lookup failed (temporary failure)", transient: true }],
  ["ENETDOWN", { cause: "network down", transient: true }],
  ["ENETUNREACH", { cause: "network unreachable", transient: true }],
  ["EHOSTUNREACH", { cause: "host unreachable", transient: true }],
  ["UND_ERR_SOCKET", { cause: "connection closed by the server", transient: true }],
  ["UND_ERR_CLOSED", { cause: "connection closed", transient: true }],
  ["UND_ERR_CONNECT_TIMEOUT", { cause: "connection timed out", transient: true }],
  [
    "UND_ERR_HEADERS_TIMEOUT",
    { cause: "request timed out waiting for the response headers", transient: true },
  ],
  ["UND_ERR_BODY_TIMEOUT", { cause: "request timed out reading the response", transient: true }],
  [
    "ERR_STREAM_PREMATURE_CLOSE",
    { cause: "the stream ended before the message was complete", transient: true },
  ],
  ["ENOTFOUND", { cause: "DNS lookup failed (host not found)", transient: false }],
  ["ERR_INVALID_URL", { cause: "malformed URL", transient: false }],
  ["ERR_TLS_CERT_ALTNAME_INVALID", { cause: "TLS certificate does not match the host", transient: false }],
  ["CERT_HAS_EXPIRED", { cause: "TLS certificate expired", transient: false }],
  ["DEPTH_ZERO_SELF_SIGNED_CERT", { cause: "self-signed TLS certificate", transient: false }],
  ["SELF_SIGNED_CERT_IN_CHAIN", { cause: "self-signed TLS certificate in the chain", transient: false }],
  ["UNABLE_TO_VERIFY_LEAF_SIGNATURE", { cause: "TLS certificate cannot be verified", transient: false }],
  ["UNABLE_TO_GET_ISSUER_CERT_LOCALLY", { cause: "TLS certificate cannot be verified", transient: false }],
  [
    "ERR_SSL_WRONG_VERSION_NUMBER",
    { cause: "TLS handshake failed (is the endpoint plain HTTP?)", transient: false },
  ],
]);

/** Messages without a code, as fetch implementations word them. */
const MESSAGES: ReadonlyArray<{ pattern: RegExp; cause: string; transient: boolean }> = [
  // undici refuses the ports of the fetch standard's "bad port" list (1, 9, 6000 …).
  { pattern: /^bad port$/i, cause: "invalid port (fetch refuses to connect to it)", transient: false },
  {
    pattern: /URL that includes credentials/i,
    cause: "the URL includes credentials, which fetch refuses to send (pass them in a header instead)",
    transient: false,
  },
  { pattern: /^invalid url/i, cause: "malformed URL", transient: false },
  {
    pattern: /^(terminated|other side closed|socket hang up)/i,
    cause: "connection closed by the server",
    transient: true,
  },
  {
    pattern: /^(fetch failed|network error|failed to fetch|load failed)/i,
    cause: "network error",
    transient: true,
  },
];

/** SDK classes (by name, so that any copy of an Anthropic SDK is recognised) that mean the connection failed. */
const SDK_CONNECTION_ERROR_NAMES = new Set(["APIConnectionError", "APIConnectionTimeoutError"]);

/**
 * The network failure `error` is, looked for along its cause chain — the most specific link wins
 * (a code over a message, a deeper link over a shallower one) — or `undefined` when it is none.
 * A permanent cause anywhere (an unknown host, a bad port, a TLS certificate) makes it permanent.
 */
export function readNetworkFailure(error: unknown): NetworkFailure | undefined {
  let found: NetworkFailure | undefined;
  let byCode = false;
  let permanent = false;
  for (const link of causeChain(error)) {
    const { code, name, message } = link as { code?: unknown; name?: unknown; message?: unknown };
    const known = typeof code === "string" ? CODES.get(code) : undefined;
    if (known) {
      found = { cause: known.cause, code: code as string, transient: known.transient };
      byCode = true;
    } else if (!byCode && typeof message === "string") {
      const match = MESSAGES.find((candidate) => candidate.pattern.test(message.trim()));
      // A deeper, more specific message ("bad port") wins over the generic "fetch failed".
      if (match && (!found || found.cause === "network error" || !match.transient)) {
        found = { cause: match.cause, transient: match.transient };
      }
    }
    if (!found && typeof name === "string" && SDK_CONNECTION_ERROR_NAMES.has(name)) {
      found =
        name === "APIConnectionTimeoutError"
          ? { cause: "request timed out", transient: true }
          : { cause: "network error", transient: true };
    }
    if (found && !found.transient) permanent = true;
  }
  if (found && permanent) found.transient = false;
  return found;
}

/** The failure of a stream that ended (cleanly) before its message did: retryable, like a cut connection. */
export function streamEndedEarlyError(): Error {
  return Object.assign(new Error("the stream ended before the message was complete"), {
    name: "StreamEndedEarlyError",
    code: "ERR_STREAM_PREMATURE_CLOSE",
  });
}
