/**
 * One conversation: its totals, pending approvals (with approve / deny when the studio may act),
 * charts, and the timeline — the newest window first loaded, earlier ones on demand — kept live
 * by polling the conversation's version.
 * @module
 */
import type { ModelMessage } from "../../messages/types";
import type { ConversationSummary } from "../summary";
import { api, query } from "./api";
import { chartsOf } from "./charts";
import { count, dollars, duration, el } from "./dom";
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
  pending: Array<{ tool_use_id: string; name: string; input: unknown; message?: string }>;
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

function pendingPanel(view: ConversationWindow, canAct: boolean, after: () => void): HTMLElement | string {
  if (view.pending.length === 0) return "";
  const panel = el(
    "section",
    { class: "pending", "data-testid": "pending" },
    el("h2", { text: "Waiting for approval" }),
  );
  const decisions: Record<string, { approved: boolean; message?: string }> = {};
  // The outcome goes to the page's notice line, which outlives this panel (re-rendered once resumed).
  const status = document.getElementById("notice") ?? el("p");
  const submit = async () => {
    status.textContent = "Resuming…";
    try {
      const result = await api<{ subtype: string }>(
        `/api/approvals${query({ source: view.source, id: view.conversationId })}`,
        { decisions },
      );
      status.textContent = `Resumed: ${result.subtype}`;
    } catch (error) {
      status.textContent = (error as Error).message;
    }
    after();
  };
  for (const call of view.pending) {
    const item = el(
      "div",
      { class: "pending-call" },
      el("strong", { text: call.name }),
      el("pre", { text: JSON.stringify(call.input, null, 2) }),
    );
    if (call.message) item.append(el("p", { text: call.message }));
    if (canAct) {
      const reason = el("input", {
        type: "text",
        placeholder: "Reason (for a denial)",
        name: `reason-${call.tool_use_id}`,
      });
      const approve = el("button", { class: "approve", text: "Approve" });
      const deny = el("button", { class: "deny", text: "Deny" });
      const decide = (approved: boolean) => {
        decisions[call.tool_use_id] = approved
          ? { approved }
          : { approved, message: reason.value || undefined };
        approve.disabled = deny.disabled = true;
        if (view.pending.every((pending) => decisions[pending.tool_use_id])) void submit();
      };
      approve.addEventListener("click", () => decide(true));
      deny.addEventListener("click", () => decide(false));
      item.append(el("div", { class: "actions" }, approve, reason, deny));
    }
    panel.append(item);
  }
  return panel;
}
