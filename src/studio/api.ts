/**
 * The studio's JSON API, behind the request guard:
 * - `GET  /api/info` — the sources and whether the studio may act;
 * - `GET  /api/conversations?offset&limit&text&model&status` — a page of the list;
 * - `GET  /api/conversation?source&id&from&limit` — a window of one conversation's messages (the
 *   newest without `from`), its summary, pending approvals (`pending`), MCP servers' pending
 *   questions (`pendingInputs`) and known subagent children;
 * - `GET  /api/summary?source&id` — the summary of the whole conversation (a long one is read whole
 *   here, once per version, not for the window);
 * - `GET  /api/version?source&id` — what the page polls to see new turns (and a run's start and
 *   end: the version names what holds the conversation, e.g. a run claim);
 * - `GET  /api/running?c=<source>/<id>&c=…` — for the rows a list shows (at most
 *   {@link MAX_RUNNING_CHECKS}), what holds each now (`"run claim"`, `"studio"`, `"isRunning"`) or
 *   `null`: what the list polls to show runs start and end;
 * - `POST /api/approvals?source&id` `{ decisions }`, `POST /api/answers?source&id`
 *   `{ decisions?, inputs? }` (a pause's calls and questions, resumed together) and
 *   `POST /api/fork?source&id` `{ at, newId? }` — only with `createAgent`.
 *
 * Every answer leaves with credential-shaped text redacted (`sk-ant-…`, `Bearer …`), as everywhere.
 * @module
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { type ModelMessage, readHistoryWindow } from "../index";
import { redactValue } from "../shared/redact-value";
import { type StudioActions, StudioConflictError, StudioRequestError } from "./actions";
import type { Catalog, RunningCheck } from "./catalog";
import { isSafeConversationId, MAX_CONVERSATION_ID_LENGTH } from "./conversation-id";
import { answerEvalApi } from "./eval-api";
import { readAnswers, readDecisions, readFork, readJsonObject } from "./request-body";
import { type ConversationEntry, type StudioSource, UnknownConversationError } from "./source";
import { type RunningBasis, summarize, summarizeWindows, withRunning } from "./summary";

/** An answer: a status and a JSON body. */
export interface ApiAnswer {
  status: number;
  body: unknown;
}

/** The largest window of messages one request returns. */
export const MAX_WINDOW = 500;
/** The most conversations one `/api/running` request asks about. */
export const MAX_RUNNING_CHECKS = 200;

/** What the API works on. */
export interface ApiContext {
  sources: readonly StudioSource[];
  catalog: Catalog;
  /** Whether a run holds a conversation now (this studio's resume, or the `isRunning` option). */
  running: RunningCheck;
  actions: StudioActions | undefined;
}

/** Answers one API request; errors become 4xx/5xx answers whose text holds no stored data. */
export async function answerApi(context: ApiContext, request: IncomingMessage, url: URL): Promise<ApiAnswer> {
  try {
    const answer = await route(context, request, url);
    // Everything that leaves (messages, summaries' titles, pending inputs) with credential-shaped text redacted.
    return { status: answer.status, body: redactValue(answer.body, []) };
  } catch (error) {
    if (error instanceof UnknownConversationError) return { status: 404, body: { error: error.message } };
    if (error instanceof StudioConflictError) return { status: 409, body: { error: error.message } };
    if (error instanceof StudioRequestError) return { status: 400, body: { error: error.message } };
    const name = error instanceof Error ? error.name : "Error";
    if (name === "ConversationConflictError" || name === "ConcurrentQueryError")
      return { status: 409, body: { error: "The conversation is busy in another run; try again." } };
    return { status: 500, body: { error: `The studio could not answer (${name}).` } };
  }
}

async function route(context: ApiContext, request: IncomingMessage, url: URL): Promise<ApiAnswer> {
  const get = request.method === "GET";
  const post = request.method === "POST";
  const params = url.searchParams;
  // Eval runs (agent-lattice eval's results databases): eval-api.ts.
  if (url.pathname === "/api/evals" || url.pathname === "/api/eval-run")
    return get
      ? answerEvalApi(context.sources, url)
      : { status: 405, body: { error: "Method not allowed." } };
  switch (url.pathname) {
    case "/api/info":
      if (!get) break;
      return {
        status: 200,
        body: {
          sources: context.sources.map((source) => source.label),
          canAct: context.actions !== undefined,
        },
      };
    case "/api/conversations":
      if (!get) break;
      return {
        status: 200,
        body: await context.catalog.page(
          intParam(params, "offset", 0),
          Math.min(intParam(params, "limit", 50), 200),
          {
            text: params.get("text") || undefined,
            model: params.get("model") || undefined,
            status: params.get("status") || undefined,
          },
        ),
      };
    case "/api/conversation":
      if (!get) break;
      return { status: 200, body: await conversationWindow(context, params) };
    case "/api/summary":
      if (!get) break;
      return { status: 200, body: await wholeSummary(context, params) };
    case "/api/version": {
      if (!get) break;
      const { source, id, index } = target(context, params);
      const [version, running] = await Promise.all([source.version(id), context.running(index, id)]);
      return { status: 200, body: { version: liveVersion(version, running) ?? null } };
    }
    case "/api/running":
      if (!get) break;
      return { status: 200, body: { running: await runningOf(context, params.getAll("c")) } };
    case "/api/approvals":
    case "/api/answers":
    case "/api/fork":
      if (!post) break;
      if (!context.actions)
        return { status: 404, body: { error: "This studio only reads (no createAgent)." } };
      return act(context.actions, context, url.pathname, params, request);
    default:
      return { status: 404, body: { error: "No such endpoint." } };
  }
  return { status: 405, body: { error: "Method not allowed." } };
}

async function act(
  actions: StudioActions,
  context: ApiContext,
  path: string,
  params: URLSearchParams,
  request: IncomingMessage,
): Promise<ApiAnswer> {
  const { source, id } = target(context, params);
  // Only a conversation this source holds is handed to createAgent (or copied).
  if ((await source.version(id)) === undefined) throw new UnknownConversationError(id);
  const body = await readJsonObject(request);
  if (path === "/api/approvals") {
    const decisions = readDecisions(body);
    return { status: 200, body: await actions.decide(id, decisions) };
  }
  if (path === "/api/answers") return { status: 200, body: await actions.answer(id, readAnswers(body)) };
  const fork = readFork(body);
  const newId =
    fork.newId ?? `${id.slice(0, MAX_CONVERSATION_ID_LENGTH - 12)}-fork-${randomBytes(3).toString("hex")}`;
  if (!isSafeConversationId(newId))
    throw new StudioRequestError(
      `A new id is 1-${MAX_CONVERSATION_ID_LENGTH} characters, no control characters, not a path that leaves the store.`,
    );
  return { status: 200, body: await actions.fork(source, id, fork.at, newId) };
}

/**
 * A window of one conversation (through the store's `loadRange`, or a load cut to it), with what
 * the page shows beside it: the summary — whole when the window holds the whole conversation or it
 * was counted already, else partial (the page asks `/api/summary`) — pending calls, subagents.
 */
async function conversationWindow(context: ApiContext, params: URLSearchParams) {
  const { source, id, index } = target(context, params);
  const limit = Math.min(intParam(params, "limit", 200), MAX_WINDOW);
  const from = params.has("from") ? intParam(params, "from", 0) : undefined;
  const store = source.open(id);
  // The version is read before the messages, so what is sent is at least that version: a write
  // between the two shows as a newer version at the page's next poll, never as none.
  const version = await source.version(id);
  if (version === undefined) throw new UnknownConversationError(id);
  const [entries, window] = await Promise.all([source.list(), readHistoryWindow(store, { from, limit })]);
  const listed = listedAt(entries, id, index, version);
  const running = await context.running(index, id);
  const cached = context.catalog.cached(listed);
  const summary =
    window.from === 0 && window.messages.length === window.total
      ? summarize(window.messages, { ...listed, running }, Date.now())
      : ((cached && withRunning(cached, running)) ??
        summarizeWindows(
          (await readHistoryWindow(store, { from: 0, limit: 20 })).messages,
          window,
          { ...listed, running },
          Date.now(),
        ));
  const atEnd = window.from + window.messages.length === window.total;
  return {
    conversationId: id,
    source: index,
    version: liveVersion(version, running),
    total: window.total,
    from: window.from,
    messages: window.messages,
    summary,
    pending: atEnd ? pendingOf(window.messages) : [],
    pendingInputs: atEnd ? pendingInputsOf(window.messages) : [],
    children: childrenOf(
      window.messages,
      entries.map((candidate) => candidate.conversationId),
    ),
  };
}

/**
 * A conversation's version as the page sees it: the store's, and what holds it now — so the page
 * polling it sees a run start and end (a claim taken, released or expired) even before a write.
 */
function liveVersion(version: string | undefined, running: RunningBasis | undefined): string | undefined {
  return version === undefined || running === undefined ? version : `${version}:${running}`;
}

/** What holds each of the conversations `wanted` (`<source>/<id>`) now; `null`: nothing known. */
async function runningOf(context: ApiContext, wanted: readonly string[]) {
  if (wanted.length > MAX_RUNNING_CHECKS)
    throw new StudioRequestError(`Ask about at most ${MAX_RUNNING_CHECKS} conversations at once.`);
  const answers: Record<string, RunningBasis | null> = {};
  await Promise.all(
    wanted.map(async (key) => {
      const match = /^(\d+)\/(.+)$/s.exec(key);
      const index = Number(match?.[1]);
      if (!match || context.sources[index] === undefined)
        throw new StudioRequestError("Name conversations as c=<source>/<id>.");
      if (!isSafeConversationId(match[2]!)) throw new UnknownConversationError(match[2]!);
      answers[key] = (await context.running(index, match[2]!)) ?? null;
    }),
  );
  return answers;
}

/** The summary of all of a conversation (read whole, once per version). */
async function wholeSummary(context: ApiContext, params: URLSearchParams) {
  const { source, id, index } = target(context, params);
  const version = await source.version(id);
  if (version === undefined) throw new UnknownConversationError(id);
  const summary = await context.catalog.wholeSummary(listedAt(await source.list(), id, index, version));
  if (summary === undefined) throw new UnknownConversationError(id);
  return summary;
}

/**
 * The conversation as listed, keyed by `version` — read from the store just now, before its
 * messages — rather than by the listing alone: a listing is reused for a second and a write need
 * not change a file's time, so a count cached under the listing's key could outlive the messages
 * it counted (the page, polling the version, would never ask again). Not in a listing made a
 * moment before it was written (a fork just made): written now.
 */
function listedAt(entries: readonly ConversationEntry[], id: string, index: number, version: string) {
  const entry = entries.find((candidate) => candidate.conversationId === id);
  return { conversationId: id, updatedAt: entry?.updatedAt ?? new Date(), ...entry, version, source: index };
}

/** The calls waiting for a decision, when history ends in a pause. */
function pendingOf(messages: readonly ModelMessage[]): unknown[] {
  const last = messages.at(-1) as { pending_approvals?: unknown } | undefined;
  return Array.isArray(last?.pending_approvals) ? last.pending_approvals : [];
}

/** The questions MCP servers asked that wait for an answer, when history ends in a pause. */
function pendingInputsOf(messages: readonly ModelMessage[]): unknown[] {
  const last = messages.at(-1) as { pending_approvals?: unknown; pending_inputs?: unknown } | undefined;
  return Array.isArray(last?.pending_approvals) && Array.isArray(last.pending_inputs)
    ? last.pending_inputs
    : [];
}

/**
 * Subagent calls whose child kept its history in the same source: a conversation whose id is the
 * call's `tool_use` id, or ends with it after a separator (`:`, `/`, `-`, `_`, `.`).
 */
function childrenOf(window: readonly ModelMessage[], ids: readonly string[]): Record<string, string> {
  const children: Record<string, string> = {};
  for (const message of window) {
    if (message.role !== "assistant") continue;
    for (const block of message.content) {
      if (block.type !== "tool_use") continue;
      const child = ids.find(
        (id) => id === block.id || (id.endsWith(block.id) && /[:/_.-]$/.test(id.slice(0, -block.id.length))),
      );
      if (child !== undefined) children[block.id] = child;
    }
  }
  return children;
}

function target(context: ApiContext, params: URLSearchParams) {
  const index = intParam(params, "source", 0);
  const source = context.sources[index];
  const id = params.get("id");
  if (!source || !id) throw new StudioRequestError("Name a conversation: ?source=<n>&id=<id>.");
  // The one id check, before a store is opened or createAgent called: no path out of the store.
  if (!isSafeConversationId(id)) throw new UnknownConversationError(id);
  return { source, id, index };
}

function intParam(params: URLSearchParams, name: string, fallback: number): number {
  const value = Number(params.get(name) ?? Number.NaN);
  return Number.isInteger(value) && value >= 0 ? value : fallback;
}
