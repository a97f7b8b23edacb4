/**
 * Options of `createChatHandler`, with their defaults.
 * @module
 */
import type { Agent } from "../index";
import type { ChatErrorListener } from "./chat-error-report";
import type { ChatRunLock } from "./chat-run-lock";

/** The longest user message accepted, in characters. */
export const DEFAULT_MAX_MESSAGE_CHARS = 32_000;
/** The largest request body accepted (useChat sends the whole conversation), in bytes. */
export const DEFAULT_MAX_BODY_BYTES = 2_000_000;
/** How long a run goes on with nobody reading it before it is interrupted, in milliseconds. */
export const DEFAULT_RECONNECT_GRACE_MS = 5_000;

/** A refusal `authorize` may return instead of `false` (which answers 403). */
export interface ChatRefusal {
  status: 401 | 403;
  message?: string;
}

/** Options of `createChatHandler`. */
export interface ChatHandlerOptions {
  /**
   * The Agent of a conversation, built by the app over its own history store: the history lives
   * on the server and the handler runs each request on it. Called for every request that needs the
   * conversation (a cached Agent per conversation, or a new one over a durable store, both work).
   */
  agent: (context: { conversationId: string; request: Request }) => Agent<unknown> | Promise<Agent<unknown>>;
  /**
   * Decides whether `request` may use `conversationId`, before anything else happens: `false`
   * answers 403, a {@link ChatRefusal} its own status (401 for "who are you?"). @default allow all
   */
  authorize?: (
    request: Request,
    conversationId: string,
  ) => boolean | ChatRefusal | Promise<boolean | ChatRefusal>;
  /**
   * Origins (`https://app.example.com`) besides the request's own host that may use the endpoint.
   * By default a request from another site — an `Origin` that is not the request's own host, or
   * `Sec-Fetch-Site: cross-site` — answers 403 `cross_site_request` before anything else: a page
   * of another site could otherwise start runs (a `no-cors` `text/plain` POST needs no preflight)
   * or stop them, with the user's cookies. List your page's origin when it is served from another
   * host than the endpoint, or the public origin when a proxy rewrites `Host`; `"*"` lets every
   * origin in — then `authorize` must not trust credentials a browser attaches by itself (see
   * docs/en/web.md). Answering CORS preflights and headers stays the app's job. @default []
   */
  allowedOrigins?: readonly string[];
  /**
   * The media types a POST body is accepted as; another answers 415 `unsupported_media_type`
   * (`useChat` sends JSON; the stop route may have no body). A type listed here is still parsed
   * as JSON. @default ["application/json"]
   */
  allowedContentTypes?: readonly string[];
  /** The longest new user message, in characters (longer: 413 `message_too_large`). @default 32_000 */
  maxMessageChars?: number;
  /** The largest request body, in bytes (larger: 413 `body_too_large`). @default 2_000_000 */
  maxBodyBytes?: number;
  /**
   * The stop-versus-reload rule: when the last reader of a run goes away (useChat's `stop()` or a
   * page reload — the server cannot tell them apart), the run goes on this long so that a reconnect
   * can attach to it; with none it is interrupted. The page's stop button may also call
   * `POST {api}/{chatId}/stop`, which interrupts at once. @default 5_000
   */
  reconnectGraceMs?: number;
  /**
   * An extra lock taken before each run (see {@link ChatRunLock}), for stores that cannot claim a
   * run across processes (a custom store without `claimRun`). The JSONL, SQLite, PostgreSQL and
   * Redis stores need none: each run also claims its conversation through the Agent's store
   * (`Agent.claimRun()`), so a second process answers 409 while the first runs. @default a lock
   * for this process
   */
  lock?: ChatRunLock;
  /**
   * How long the store's claim on a running conversation holds without renewal (it is renewed
   * every third of this while the run goes on): after a crash, the conversation is busy this long
   * at most. @default 30_000
   */
  runClaimTtlMs?: number;
  /**
   * Secrets to keep out of the streamed text and error texts, besides credential-shaped strings
   * (which always go): list the agent's own (its API key …) so a key written across two streamed
   * deltas is caught too.
   */
  secrets?: string[];
  /**
   * Called after each run, with its Agent (close an Agent you made for this request here); also
   * when a run could not start after its Agent was made (409 from the store's claim, a refused plan).
   */
  onRunEnd?: (context: { conversationId: string; agent: Agent<unknown> }) => void | Promise<void>;
  /**
   * Receives the errors no client can be told about: the internal error behind a 500 (the client
   * gets a generic text), a lease whose `release()` threw (the run still ends, its last chunk goes
   * out, `onRunEnd` is called), an `onRunEnd` that threw. The error is a new `Error` with the
   * original's message and stack, secrets and credential-shaped strings redacted; `context.stage`
   * says which (`"request"`, `"lease_release"`, `"run_end"`).
   * @default one line on stderr (`console.error`)
   */
  onError?: ChatErrorListener;
}
