/**
 * One conversation: its totals, what its pause waits for (`pending-view.ts`: approvals and MCP
 * servers' questions, answered there when the studio may act),
 * charts, and the timeline — the newest window first loaded, earlier ones on demand — kept live
 * by polling the conversation's version.
 * @module
 */
import type { ModelMessage } from "../../messages/types";
import type { ConversationSummary } from "../summary";
import { api, query } from "./api";
import { chartsOf } from "./charts";
import { count, dollars, duration, el } from "./dom";
import { type PendingCall, type PendingQuestion, pendingPanel } from "./pending-view";
import { timelineElement } from "./timeline-view";
import { seriesOf, timelineOf } from "./turns";

/** A window of a conversation as the API returns it. */
export interface ConversationWindow {
  conversationId: string;
  source: number;
  version: string;
  total: number;
  from: number;
  messages: ModelMessage[];
  summary: ConversationSummary;
  pending: PendingCall[];
  /** The questions MCP servers asked that the pause waits on. */
  pendingInputs: PendingQuestion[];
  children: Record<string, string>;
}

/** How often the page asks whether the conversation changed. */
const POLL_MS = 500;
const WINDOW = 200;

/** Fetches a window of a conversation. */
export function fetchWindow(
  source: number,
  id: string,
  from?: number,
  limit = WINDOW,
): Promise<ConversationWindow> {
  return api<ConversationWindow>(`/api/conversation${query({ source, id, from, limit })}`);
}

/** Renders a conversation into `main` and keeps it live until `signal` aborts. */
export async function showConversation(
  main: HTMLElement,
  source: number,
  id: string,
  acting: Promise<boolean>,
  signal: AbortSignal,
): Promise<void> {
  const [first, canAct] = await Promise.all([fetchWindow(source, id), acting]);
  let view = first;
  let earlier: ModelMessage[] = [];
  // A long conversation's window comes with a partial summary: the whole one is asked once per version.
  let whole: { version: string; summary: ConversationSummary } | undefined;
  const countWhole = async () => {
    const version = view.version;
    if (!view.summary.partial || whole?.version === version) return;
    whole = { version, summary: view.summary };
    const summary = await api<ConversationSummary>(`/api/summary${query({ source, id })}`).catch(
      () => undefined,
    );
    if (summary === undefined) {
      // Not counted (a dropped connection, a store busy): asked again at the next poll.
      if (whole?.version === version) whole = undefined;
    } else if (view.version === version && !signal.aborted) {
      whole = { version, summary };
      render();
    }
  };
  const render = () => {
    const messages = [...earlier, ...view.messages];
    const from = view.from - earlier.length;
    const items = timelineOf(messages, from);
    const older = el("button", { class: "more", text: `Load earlier (${from} more)` });
    older.hidden = from === 0;
    older.addEventListener("click", () => void loadEarlier(from));
    main.replaceChildren(
      header(view.summary.partial && whole?.version === view.version ? whole.summary : view.summary),
      pendingPanel(view, canAct, () => void refresh()),
      chartsOf(seriesOf(items)),
      older,
      timelineElement(items, { source, children: view.children, canAct, conversationId: id, onForked }),
    );
  };
  // One load of earlier messages at a time, each added once: a second click (or a click on the
  // button a poll re-rendered) while one loads would add the same messages twice.
  let loadingEarlier = false;
  const loadEarlier = async (from: number) => {
    if (loadingEarlier) return;
    loadingEarlier = true;
    try {
      const start = Math.max(0, from - WINDOW);
      const page = await fetchWindow(source, id, start, from - start);
      if (view.from - earlier.length === from) earlier = [...page.messages, ...earlier];
      render();
    } finally {
      loadingEarlier = false;
    }
  };
  const onForked = (newId: string) => {
    location.hash = `#/c/${source}/${encodeURIComponent(newId)}`;
  };
  const refresh = async () => {
    const loadedFrom = view.from;
    view = await fetchWindow(source, id, loadedFrom, WINDOW + Math.max(0, view.total - loadedFrom));
    render();
  };
  render();
  void countWhole();
  while (!signal.aborted) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    if (signal.aborted) break;
    const { version } = await api<{ version: string | null }>(`/api/version${query({ source, id })}`).catch(
      () => ({
        version: view.version,
      }),
    );
    if (version !== null && version !== view.version) await refresh().catch(() => {});
    void countWhole();
  }
}

function header(summary: ConversationSummary): HTMLElement {
  const totals = el("dl", { class: "totals", "data-testid": "totals" });
  const add = (term: string, value: string) =>
    totals.append(el("dt", { text: term }), el("dd", { text: value }));
  add("Status", `${summary.status} (${summary.statusBasis})`);
  add("Model", summary.models.join(", ") || "–");
  // Totals of a long conversation not counted yet: shown as such, filled in when counted.
  const total = (text: string) => (summary.partial ? "counting…" : text);
  add("Turns", total(String(summary.turns)));
  add("Input tokens", total(count(summary.inputTokens)));
  add(
    "Cache read / written",
    total(`${count(summary.cacheReadTokens)} / ${count(summary.cacheWriteTokens)}`),
  );
  add("Output tokens", total(count(summary.outputTokens)));
  add("Cost", total(dollars(summary.costUsd)));
  add("Recorded time", total(duration(summary.recordedMs)));
  return el(
    "section",
    { class: "header" },
    el("h1", { text: summary.title || summary.conversationId }),
    el("p", { class: "id", text: summary.conversationId }),
    totals,
  );
}
