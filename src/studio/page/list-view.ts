/**
 * The conversation list: filters (text, model, status), most recent first, paged. Its rows' runs
 * are kept live: the page asks every {@link RUNNING_POLL_MS} what holds the conversations it shows
 * (`/api/running`, one cheap read per row: a claim file, row or key), and a row whose run started
 * or ended gets its summary anew.
 * @module
 */
import type { ConversationSummary } from "../summary";
import { api, query } from "./api";
import { dollars, duration, el } from "./dom";

interface Page {
  total: number;
  items: ConversationSummary[];
  next: number | null;
}

const PAGE_SIZE = 50;
/** How often the list asks whether runs started or ended on the rows it shows. */
const RUNNING_POLL_MS = 1_000;
/** The most rows whose runs are kept live (the API's limit per request). */
const LIVE_ROWS = 200;

/** Renders the list into `main`, keeping its rows' runs live until `signal` aborts. */
export async function showList(
  main: HTMLElement,
  filter: Record<string, string>,
  signal: AbortSignal,
): Promise<void> {
  const text = el("input", {
    type: "search",
    placeholder: "Search prompts and ids",
    name: "text",
    value: filter.text ?? "",
  });
  const model = el("input", {
    type: "search",
    placeholder: "Model",
    name: "model",
    value: filter.model ?? "",
  });
  const status = el("select", { name: "status" });
  for (const value of ["", "finished", "failed", "paused", "running"])
    status.append(el("option", { value, text: value === "" ? "any status" : value }));
  status.value = filter.status ?? "";
  const form = el(
    "form",
    { class: "filters" },
    text,
    model,
    status,
    el("button", { type: "submit", text: "Filter" }),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    location.hash = `#/${query({ text: text.value, model: model.value, status: status.value })}`;
  });
  const table = el("table", { class: "list", "data-testid": "conversation-list" });
  table.append(
    el("thead", {}, row("th", ["Conversation", "Status", "Model", "Turns", "Cost", "Time", "Updated"])),
  );
  const body = el("tbody");
  table.append(body);
  const more = el("button", { class: "more", text: "More" });
  const info = el("p", { class: "muted" });
  main.replaceChildren(form, info, table, more);
  let offset = 0;
  const load = async () => {
    more.disabled = true;
    const page = await api<Page>(`/api/conversations${query({ ...filter, offset, limit: PAGE_SIZE })}`);
    info.textContent = `${page.total.toLocaleString("en-US")} conversations`;
    for (const item of page.items) body.append(itemRow(item));
    void countPartial(body, page.items);
    offset = page.next ?? offset;
    more.hidden = page.next === null;
    more.disabled = false;
  };
  more.addEventListener("click", () => void load());
  await load();
  void keepRunsLive(body, signal);
}

/**
 * Polls what holds the shown rows' conversations; a row whose answer changed (a run claimed it, or
 * its claim ended) is summarised anew — its status then says running by what, or how it ended.
 */
async function keepRunsLive(body: HTMLElement, signal: AbortSignal): Promise<void> {
  while (!signal.aborted) {
    await new Promise((resolve) => setTimeout(resolve, RUNNING_POLL_MS));
    if (signal.aborted || !body.isConnected) return;
    const rows = [...body.children].slice(0, LIVE_ROWS) as HTMLElement[];
    if (rows.length === 0) continue;
    const keys = rows.map((row) => `${row.dataset.source}/${row.dataset.conversation}`);
    const params = new URLSearchParams(keys.map((key) => ["c", key]));
    const answer = await api<{ running: Record<string, string | null> }>(`/api/running?${params}`).catch(
      () => undefined,
    );
    if (!answer || signal.aborted) continue;
    for (const [index, row] of rows.entries()) {
      const running = answer.running[keys[index]!] ?? "";
      if ((row.dataset.running ?? "") === running || !row.isConnected) continue;
      const whole = await api<ConversationSummary>(
        `/api/summary${query({ source: row.dataset.source, id: row.dataset.conversation })}`,
      ).catch(() => undefined);
      if (whole && row.isConnected) row.replaceWith(itemRow(whole, running));
    }
  }
}

/** Rows listed before their totals were counted (long conversations) get them, one at a time. */
async function countPartial(body: HTMLElement, items: readonly ConversationSummary[]): Promise<void> {
  for (const item of items) {
    if (!item.partial) continue;
    const whole = await api<ConversationSummary>(
      `/api/summary${query({ source: item.source, id: item.conversationId })}`,
    ).catch(() => undefined);
    const row = [...body.children].find(
      (candidate) =>
        candidate.getAttribute("data-conversation") === item.conversationId &&
        candidate.getAttribute("data-source") === String(item.source),
    );
    if (whole && row?.isConnected) row.replaceWith(itemRow(whole));
  }
}

/**
 * One row. `running` is what holds it as the last poll saw (a row is made from a summary, which
 * knows it too); `""` when nothing does.
 */
function itemRow(item: ConversationSummary, running = runningOf(item)): HTMLElement {
  const link = el("a", { href: `#/c/${item.source}/${encodeURIComponent(item.conversationId)}` });
  link.append(
    el("strong", { text: item.title || "(no prompt)" }),
    el("span", { class: "id", text: item.conversationId }),
  );
  const tr = el("tr", {
    "data-conversation": item.conversationId,
    "data-source": String(item.source),
    "data-running": running,
  });
  const total = (text: string) => (item.partial ? "counting…" : text);
  tr.append(
    el("td", {}, link),
    el(
      "td",
      {},
      el("span", { class: `status ${item.status}`, text: item.status, title: `by ${item.statusBasis}` }),
      waitingNote(item),
    ),
    el("td", { text: item.models.join(", ") }),
    el("td", { text: total(String(item.turns)) }),
    el("td", { text: total(dollars(item.costUsd)) }),
    el("td", { text: total(duration(item.recordedMs)) }),
    el("td", { text: new Date(item.updatedAt).toLocaleString() }),
  );
  return tr;
}

/** What a paused conversation waits for: `2 approvals · 1 question`; nothing for another. */
function waitingNote(item: ConversationSummary): HTMLElement | null {
  if (!item.waiting) return null;
  const { approvals, inputs } = item.waiting;
  const parts: string[] = [];
  if (approvals > 0) parts.push(`${approvals} ${approvals === 1 ? "approval" : "approvals"}`);
  if (inputs > 0) parts.push(`${inputs} ${inputs === 1 ? "question" : "questions"}`);
  if (parts.length === 0) return null;
  const note = el("span", { class: "waiting", "data-testid": "waiting", text: parts.join(" · ") });
  if (inputs > 0) note.classList.add("input");
  return note;
}

function row(cell: "th" | "td", texts: string[]): HTMLElement {
  return el("tr", {}, ...texts.map((text) => el(cell, { text })));
}

/** What holds the conversation, as its summary says (`""`: nothing known to). */
function runningOf(item: ConversationSummary): string {
  return item.status === "running" && RUN_HOLDERS.includes(item.statusBasis) ? item.statusBasis : "";
}

/** The bases of a running status that name what holds the run (not a guess from a recent write). */
const RUN_HOLDERS: readonly string[] = ["studio", "run claim", "isRunning"];
