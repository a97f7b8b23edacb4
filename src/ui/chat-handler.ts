/**
 * `createChatHandler`: a Web-standard chat endpoint for `useChat`. It owns the conversation: each
 * request names a conversation, brings only its new user message (or approval responses), and runs
 * on the server's history of that conversation. Routes, under the path it is mounted at (`api`):
 * - `POST {api}` — a message (`submit-message`), approval responses, or `regenerate-message`;
 *   answers the run as a UI message stream;
 * - `GET {api}/{chatId}/stream` — reconnect (useChat's `resume`): the live run from its `start`,
 *   or 204 when nothing runs;
 * - `POST {api}/{chatId}/stop` — interrupt the live run now (204);
 * - `GET {api}/{chatId}/messages` — the conversation as UI messages, for a page's initial state.
 * @module
 */

import { type Agent, DEFAULT_RUN_CLAIM_TTL_MS, type ModelMessage } from "../index";
import { type ChatErrorContext, chatErrorReporter } from "./chat-error-report";
import { ChatRequestError, errorResponse } from "./chat-errors";
import {
  type ChatHandlerOptions,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_MESSAGE_CHARS,
  DEFAULT_RECONNECT_GRACE_MS,
} from "./chat-handler-options";
import { type ChatAction, isConversationId, readChatRequest } from "./chat-request";
import { ChatRun } from "./chat-run";
import { type ChatRunLease, type ChatRunLock, createMemoryRunLock } from "./chat-run-lock";
import { type KeptClaim, keepClaim } from "./claim-keeper";
import { historyToUIMessages, type UIMessageShape } from "./history-to-ui";
import { messageToChunks } from "./message-to-chunks";
import { readJsonBody } from "./read-body";
import { RequestGuard } from "./request-guard";
import { planRun } from "./run-plan";
import { encodeChunks, UI_MESSAGE_STREAM_HEADERS } from "./sse-encoding";
import { toUIMessageStream } from "./to-ui-message-stream";
import type { UIStreamChunk } from "./ui-chunk";

/** The handler `createChatHandler` returns: a `(request) => Promise<Response>`, and its shutdown. */
export interface ChatHandler {
  (request: Request): Promise<Response>;
  /** Interrupts every live run and waits for them to end. */
  close(): Promise<void>;
}

/** A run just started, and what the history route shows while it runs. */
interface StartedRun {
  run: ChatRun;
  /** The Agent running it: the history route reads this one (a new Agent would load and repair the running tail). */
  agent: Agent<unknown>;
  /** The history length before the run, and the user message it answers. */
  before: number;
  /** Whether the run continues the last answer of that history (an approval's resume). */
  continues: boolean;
  userText: string | undefined;
}

/** A live run. */
interface LiveRun extends StartedRun {
  /** Settles once the run ended (its claim and lease released, its last chunk sent) and `onRunEnd` returned. */
  ended: Promise<void>;
}

const ROUTE = /\/([^/]+)\/(stream|stop|messages)\/?$/;

/**
 * Creates the chat endpoint. Mount it at a path of your server (Next.js `app/api/chat/[[...path]]/route.ts`,
 * Hono `app.all("/api/chat/*", (c) => handler(c.req.raw))`, or `toNodeHandler(handler)` for node:http).
 *
 * @example
 * const handler = createChatHandler({
 *   agent: ({ conversationId }) => createAgent({ model, historyStore: storeFor(conversationId), includePartialMessages: true }),
 * });
 */
export function createChatHandler(options: ChatHandlerOptions): ChatHandler {
  const service = new ChatService(options);
  return Object.assign((request: Request) => service.handle(request), { close: () => service.close() });
}

/** The endpoint's state (its live runs) and routes. */
class ChatService {
  private readonly runs = new Map<string, LiveRun>();
  private readonly maxMessageChars: number;
  private readonly maxBodyBytes: number;
  private readonly graceMs: number;
  private readonly lock: ChatRunLock;
  private readonly secrets: string[];
  private readonly claimTtlMs: number;
  private readonly guard: RequestGuard;
  private readonly reportError: (thrown: unknown, context: ChatErrorContext) => void;

  constructor(private readonly options: ChatHandlerOptions) {
    this.guard = new RequestGuard(options.allowedOrigins, options.allowedContentTypes);
    this.maxMessageChars = options.maxMessageChars ?? DEFAULT_MAX_MESSAGE_CHARS;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.graceMs = options.reconnectGraceMs ?? DEFAULT_RECONNECT_GRACE_MS;
    this.lock = options.lock ?? createMemoryRunLock();
    this.secrets = options.secrets ?? [];
    this.claimTtlMs = options.runClaimTtlMs ?? DEFAULT_RUN_CLAIM_TTL_MS;
    this.reportError = chatErrorReporter(options.onError, this.secrets);
  }

  async handle(request: Request): Promise<Response> {
    try {
      // Before anything else: a page of another site sends cookies along (see request-guard.ts).
      this.guard.checkSite(request);
      const match = ROUTE.exec(new URL(request.url).pathname);
      if (match) return await this.route(request, decodeChatId(match[1]!), match[2]!);
      if (request.method !== "POST") throw new ChatRequestError(405, "method_not_allowed", "Use POST");
      this.guard.checkBody(request, "json");
      return await this.chat(request);
    } catch (error) {
      if (error instanceof ChatRequestError) return errorResponse(error);
      // Not the client's fault; its text may hold anything (a connection string …): not sent.
      this.reportError(error, { stage: "request" });
      return errorResponse(
        new ChatRequestError(500, "internal_error", "The server failed to handle the request"),
      );
    }
  }

  async close(): Promise<void> {
    const live = [...this.runs.values()];
    for (const entry of live) entry.run.stop();
    await Promise.all(live.map((entry) => entry.ended));
  }

  private async authorize(request: Request, conversationId: string): Promise<void> {
    const verdict = this.options.authorize ? await this.options.authorize(request, conversationId) : true;
    if (verdict === true) return;
    const status = verdict === false ? 403 : verdict.status;
    const message =
      (verdict === false ? undefined : verdict.message) ??
      (status === 401 ? "Not authenticated" : "Not allowed");
    throw new ChatRequestError(status, status === 401 ? "unauthenticated" : "forbidden", message);
  }

  private async chat(request: Request): Promise<Response> {
    const body = await readJsonBody(request, this.maxBodyBytes);
    const { conversationId, action } = readChatRequest(body, this.maxMessageChars);
    await this.authorize(request, conversationId);
    const previous = this.runs.get(conversationId);
    if (previous) {
      // Read by a page (another tab …) and not being stopped: busy. Otherwise (stopped, or its reader
      // left) the new message supersedes it once it has ended and let go of its claim.
      if (!previous.run.isDone && previous.run.attached && !previous.run.stopping) throw busy();
      previous.run.stop();
      await previous.ended;
    }
    const lease = await this.lock.acquire(conversationId);
    if (lease === undefined) throw busy();
    let live: LiveRun;
    try {
      live = await this.start(request, conversationId, action, lease);
    } catch (error) {
      await lease
        .release()
        .catch((thrown: unknown) => this.reportError(thrown, { stage: "lease_release", conversationId }));
      throw error;
    }
    this.runs.set(conversationId, live);
    return streamResponse(live.run);
  }

  /**
   * Builds the conversation's Agent, claims the conversation through its store (409 when another
   * process runs it) and starts the run; the claim and the lease are released when it ends, before
   * its last chunk goes out.
   */
  private async start(
    request: Request,
    conversationId: string,
    action: ChatAction,
    lease: ChatRunLease,
  ): Promise<LiveRun> {
    const agent = await this.options.agent({ conversationId, request });
    let live: LiveRun | undefined;
    const claim = await keepClaim(agent, this.claimTtlMs, () => live?.run.stop());
    if (claim === undefined) {
      await this.runEnded(conversationId, agent);
      throw busy();
    }
    const letGo = () => this.letGo(conversationId, { lease, claim }, () => live);
    let started: StartedRun;
    try {
      started = await this.startRun(agent, conversationId, action, letGo);
    } catch (error) {
      await claim.release().catch(() => {}); // unreleased, it expires after its time to live
      await this.runEnded(conversationId, agent);
      throw error;
    }
    // Never rejects: nothing may be left for an unhandled rejection to end the process with.
    const ended = started.run.done
      .catch((error: unknown) => this.reportError(error, { stage: "request", conversationId }))
      .then(() => this.runEnded(conversationId, agent));
    live = { ...started, ended };
    return live;
  }

  /** Plans the action and starts the query as a live run, which calls `letGo` before its last chunk. */
  private async startRun(
    agent: Agent<unknown>,
    conversationId: string,
    action: ChatAction,
    letGo: () => Promise<void>,
  ): Promise<StartedRun> {
    const history = await agent.getHistory();
    const plan = await planRun(agent, action);
    const rebuild =
      action.kind === "approvals"
        ? rebuildAnswer(history, action.approvals)
        : action.kind === "inputs"
          ? rebuildAnswer(history, {})
          : undefined;
    const chunks = toUIMessageStream(agent.query(plan.input), {
      messageId: plan.messageId,
      metadata: { conversationId },
      secrets: this.secrets,
      deniedToolCallIds: plan.denied,
    });
    const run = new ChatRun({
      chunks,
      interrupt: () => agent.interrupt(),
      graceMs: this.graceMs,
      beforeLastChunk: letGo,
      ...(rebuild ? { rebuild } : {}),
    });
    return { run, agent, before: history.length, userText: plan.userText, continues: rebuild !== undefined };
  }

  /**
   * Lets go of an ended run's conversation, before its last chunk reaches the client: its claim and
   * lease released, then the run forgotten — so a client that acts on the `finish` chunk at once
   * finds the conversation free in every process. Forgotten only once released: a message arriving
   * meanwhile finds the ended run and waits for `ended`, rather than finding the claim still held (a
   * file store's release takes a few turns of the event loop) and answering 409.
   */
  private async letGo(
    conversationId: string,
    held: { lease: ChatRunLease; claim: KeptClaim },
    live: () => LiveRun | undefined,
  ): Promise<void> {
    try {
      await held.claim.release().catch(() => {}); // unreleased, it expires after its time to live
      await held.lease.release();
    } catch (error) {
      this.reportError(error, { stage: "lease_release", conversationId });
    } finally {
      const ended = live();
      if (ended !== undefined && this.runs.get(conversationId) === ended) this.runs.delete(conversationId);
    }
  }

  /** Calls `onRunEnd`; what it throws is reported, never thrown (a 409 stays a 409). */
  private async runEnded(conversationId: string, agent: Agent<unknown>): Promise<void> {
    try {
      await this.options.onRunEnd?.({ conversationId, agent });
    } catch (error) {
      this.reportError(error, { stage: "run_end", conversationId });
    }
  }

  private async route(request: Request, conversationId: string, verb: string): Promise<Response> {
    if (!isConversationId(conversationId))
      throw new ChatRequestError(400, "invalid_conversation_id", "Bad chat id");
    const method = verb === "stop" ? "POST" : "GET";
    if (request.method !== method) throw new ChatRequestError(405, "method_not_allowed", `Use ${method}`);
    this.guard.checkBody(request, verb === "stop" ? "none-or-json" : "none");
    await this.authorize(request, conversationId);
    const live = this.runs.get(conversationId);
    const running = live !== undefined && !live.run.isDone ? live : undefined;
    if (verb === "stream")
      return running ? streamResponse(running.run, true) : new Response(null, { status: 204 });
    if (verb === "stop") {
      running?.run.stop();
      return new Response(null, { status: 204 });
    }
    // A run that just ended lets go of its claim first: reading meanwhile would find it held.
    if (live !== undefined && running === undefined) await live.ended.catch(() => {});
    return this.messages(request, conversationId, running);
  }

  /**
   * The history of a conversation no run of this process holds, read under a short claim: while
   * another process runs it, loading it here could repair the running tail and break that run.
   */
  private async historyWhenIdle(agent: Agent<unknown>) {
    const claim = await agent.claimRun({ ttlMs: this.claimTtlMs });
    if (claim === undefined) throw busy("A run is going on in this conversation on another server process");
    try {
      return await agent.getHistory();
    } finally {
      await claim.release();
    }
  }

  /** The conversation as UI messages; while a run goes on, up to the message it answers (the stream brings the rest). */
  private async messages(
    request: Request,
    conversationId: string,
    running: LiveRun | undefined,
  ): Promise<Response> {
    const history = running
      ? await running.agent.getHistory()
      : await this.historyWhenIdle(await this.options.agent({ conversationId, request }));
    let messages: UIMessageShape[];
    if (running) {
      messages = historyToUIMessages(history.slice(0, running.before));
      // The answer an approval's resume continues comes whole with the reconnected stream.
      if (running.continues && messages.at(-1)?.role === "assistant") messages.pop();
      if (running.userText !== undefined) {
        messages.push({
          id: `h${running.before}`,
          role: "user",
          parts: [{ type: "text", text: running.userText }],
        });
      }
    } else {
      messages = historyToUIMessages(history, { idle: true });
    }
    return Response.json(
      { messages, running: running !== undefined },
      { headers: { "cache-control": "no-store" } },
    );
  }
}

/** A route's chat id, percent-decoded; a malformed escape (`%E0%A4%A`) is a bad id, not a server failure. */
function decodeChatId(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new ChatRequestError(400, "invalid_conversation_id", "Bad chat id");
  }
}

function busy(message = "A run is already going on in this conversation"): ChatRequestError {
  return new ChatRequestError(409, "conversation_busy", message);
}

/**
 * The last answer of `history` (the paused one) as chunks, its decided calls left running; undefined
 * when the history does not end in an answer.
 */
function rebuildAnswer(history: ModelMessage[], approvals: object): UIStreamChunk[] | undefined {
  const answer = historyToUIMessages(history).at(-1);
  if (answer?.role !== "assistant") return undefined;
  return messageToChunks(answer, new Set(Object.keys(approvals)));
}

function streamResponse(run: ChatRun, reconnect = false): Response {
  return new Response(encodeChunks(run.listen({ reconnect })), { headers: { ...UI_MESSAGE_STREAM_HEADERS } });
}
