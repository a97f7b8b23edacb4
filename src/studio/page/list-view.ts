/**
 * The conversation list: filters (text, model, status), most recent first, paged.
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

/** Renders the list into `main`. */
export async function showList(main: HTMLElement, filter: Record<string, string>): Promise<void> {
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

function itemRow(item: ConversationSummary): HTMLElement {
  const link = el("a", { href: `#/c/${item.source}/${encodeURIComponent(item.conversationId)}` });
  link.append(
    el("strong", { text: item.title || "(no prompt)" }),
    el("span", { class: "id", text: item.conversationId }),
  );
  const tr = el("tr", { "data-conversation": item.conversationId, "data-source": String(item.source) });
  const total = (text: string) => (item.partial ? "counting…" : text);
  tr.append(
    el("td", {}, link),
    el(
      "td",
      {},
      el("span", { class: `status ${item.status}`, text: item.status, title: `by ${item.statusBasis}` }),
    ),
    el("td", { text: item.models.join(", ") }),
    el("td", { text: total(String(item.turns)) }),
    el("td", { text: total(dollars(item.costUsd)) }),
    el("td", { text: total(duration(item.recordedMs)) }),
    el("td", { text: new Date(item.updatedAt).toLocaleString() }),
  );
  return tr;
}

function row(cell: "th" | "td", texts: string[]): HTMLElement {
  return el("tr", {}, ...texts.map((text) => el(cell, { text })));
}
