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

import { ChatRequestError, errorResponse } from "./chat-errors";
import {
  type ChatHandlerOptions,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_MESSAGE_CHARS,
  DEFAULT_RECONNECT_GRACE_MS,
} from "./chat-handler-options";
import { isConversationId, readChatRequest } from "./chat-request";
import { ChatRun } from "./chat-run";
import { createMemoryRunLock } from "./chat-run-lock";
import { historyToUIMessages, type UIMessageShape } from "./history-to-ui";
import { readJsonBody } from "./read-body";
import { planRun } from "./run-plan";
import { encodeChunks, UI_MESSAGE_STREAM_HEADERS } from "./sse-encoding";
import { toUIMessageStream } from "./to-ui-message-stream";

/** The handler `createChatHandler` returns: a `(request) => Promise<Response>`, and its shutdown. */
export interface ChatHandler {
  (request: Request): Promise<Response>;
  /** Interrupts every live run and waits for them to end. */
  close(): Promise<void>;
}

/** A live run and what the history route shows while it runs. */
interface LiveRun {
  run: ChatRun;
  /** Settles once the run ended and its lease is released. */
  ended: Promise<void>;
  /** The history length before the run, and the user message it answers. */
  before: number;
  userText: string | undefined;
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
  const settings = {
    maxMessageChars: options.maxMessageChars ?? DEFAULT_MAX_MESSAGE_CHARS,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    graceMs: options.reconnectGraceMs ?? DEFAULT_RECONNECT_GRACE_MS,
    lock: options.lock ?? createMemoryRunLock(),
    secrets: options.secrets ?? [],
  };
  const runs = new Map<string, LiveRun>();

  async function authorize(request: Request, conversationId: string): Promise<void> {
    const verdict = options.authorize ? await options.authorize(request, conversationId) : true;
    if (verdict === true) return;
    const status = verdict === false ? 403 : verdict.status;
    const message =
      (verdict === false ? undefined : verdict.message) ??
      (status === 401 ? "Not authenticated" : "Not allowed");
    throw new ChatRequestError(status, status === 401 ? "unauthenticated" : "forbidden", message);
  }

  async function chat(request: Request): Promise<Response> {
    const { conversationId, action } = readChatRequest(
      await readJsonBody(request, settings.maxBodyBytes),
      settings.maxMessageChars,
    );
    await authorize(request, conversationId);
    const previous = runs.get(conversationId);
    if (previous && !previous.run.isDone) {
      if (previous.run.attached) throw busy();
      previous.run.stop(); // nobody reads it (stopped or left): the new message supersedes it
      await previous.ended;
    }
    const lease = await settings.lock.acquire(conversationId);
    if (lease === undefined) throw busy();
    let agent: Awaited<ReturnType<ChatHandlerOptions["agent"]>>;
    let live: LiveRun;
    try {
      agent = await options.agent({ conversationId, request });
      const before = (await agent.getHistory()).length;
      const plan = await planRun(agent, action);
      const chunks = toUIMessageStream(agent.query(plan.input), {
        messageId: plan.messageId,
        metadata: { conversationId },
        secrets: settings.secrets,
        deniedToolCallIds: plan.denied,
      });
      const run = new ChatRun({ chunks, interrupt: () => agent.interrupt(), graceMs: settings.graceMs });
      live = { run, ended: Promise.resolve(), before, userText: plan.userText };
    } catch (error) {
      await lease.release();
      throw error;
    }
    live.ended = live.run.done.then(async () => {
      if (runs.get(conversationId) === live) runs.delete(conversationId);
      await lease.release();
      await options.onRunEnd?.({ conversationId, agent });
    });
    runs.set(conversationId, live);
    return streamResponse(live.run);
  }

  async function route(request: Request, conversationId: string, verb: string): Promise<Response> {
    if (!isConversationId(conversationId))
      throw new ChatRequestError(400, "invalid_conversation_id", "Bad chat id");
    const method = verb === "stop" ? "POST" : "GET";
    if (request.method !== method) throw new ChatRequestError(405, "method_not_allowed", `Use ${method}`);
    await authorize(request, conversationId);
    const live = runs.get(conversationId);
    const running = live !== undefined && !live.run.isDone;
    if (verb === "stream") return running ? streamResponse(live.run) : new Response(null, { status: 204 });
    if (verb === "stop") {
      if (running) live.run.stop();
      return new Response(null, { status: 204 });
    }
    const agent = await options.agent({ conversationId, request });
    let history = await agent.getHistory();
    let messages: UIMessageShape[];
    if (running) {
      history = history.slice(0, live.before);
      messages = historyToUIMessages(history);
      if (live.userText !== undefined) {
        messages.push({
          id: `h${live.before}`,
          role: "user",
          parts: [{ type: "text", text: live.userText }],
        });
      }
    } else {
      messages = historyToUIMessages(history, { idle: true });
    }
    return Response.json({ messages, running }, { headers: { "cache-control": "no-store" } });
  }

  const handler = async (request: Request): Promise<Response> => {
    try {
      const match = ROUTE.exec(new URL(request.url).pathname);
      if (match) return await route(request, decodeURIComponent(match[1]!), match[2]!);
      if (request.method !== "POST") throw new ChatRequestError(405, "method_not_allowed", "Use POST");
      return await chat(request);
    } catch (error) {
      if (error instanceof ChatRequestError) return errorResponse(error);
      // Not the client's fault; its text may hold anything (a connection string …): not sent.
      return errorResponse(
        new ChatRequestError(500, "internal_error", "The server failed to handle the request"),
      );
    }
  };
  return Object.assign(handler, {
    async close() {
      const live = [...runs.values()];
      for (const entry of live) entry.run.stop();
      await Promise.all(live.map((entry) => entry.ended));
    },
  });
}

function busy(): ChatRequestError {
  return new ChatRequestError(409, "conversation_busy", "A run is already going on in this conversation");
}

function streamResponse(run: ChatRun): Response {
  return new Response(encodeChunks(run.listen()), { headers: { ...UI_MESSAGE_STREAM_HEADERS } });
}
