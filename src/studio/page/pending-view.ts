/**
 * What a paused conversation waits for, and — when the studio may act — the means to answer it:
 * tool calls to approve or deny, and questions MCP servers asked (elicitation) to accept, decline
 * or cancel: a form question's fields, a URL question's page (a link only to an http(s) URL; any
 * other URL is shown as text alone). Once every call is decided and every question answered, one
 * request resumes the conversation with all of it (`POST /api/answers`).
 * @module
 */
import { api, query } from "./api";
import { el } from "./dom";
import { type PendingQuestion, type QuestionForm, questionForm } from "./question-form";

export type { PendingQuestion };

/** A tool call waiting for a decision, as the API lists it. */
export interface PendingCall {
  tool_use_id: string;
  name: string;
  input: unknown;
  message?: string;
  /** The subagent whose call this is, when a subagent's own call asks. */
  agent?: string;
  parent_tool_use_id?: string;
}

/** What the panel needs of a conversation's window. */
export interface PendingState {
  conversationId: string;
  source: number;
  pending: PendingCall[];
  pendingInputs: PendingQuestion[];
}

type Decision = { approved: boolean; message?: string };
type Answer = { action: "accept" | "decline" | "cancel"; content?: Record<string, unknown> };

/** The panel of `view`'s pause, or `""` when nothing waits; `after` runs once a resume was asked for. */
export function pendingPanel(view: PendingState, canAct: boolean, after: () => void): HTMLElement | string {
  const inputs = view.pendingInputs ?? [];
  if (view.pending.length === 0 && inputs.length === 0) return "";
  const panel = el("section", { class: "pending", "data-testid": "pending" });
  const decisions: Record<string, Decision> = {};
  const answers: Record<string, Answer> = {};
  // The outcome goes to the page's notice line, which outlives this panel (re-rendered once resumed).
  const status = document.getElementById("notice") ?? el("p");
  const submitWhenComplete = () => {
    const complete =
      view.pending.every((call) => decisions[call.tool_use_id]) && inputs.every((input) => answers[input.id]);
    if (complete) void submit();
  };
  const submit = async () => {
    status.textContent = "Resuming…";
    try {
      const result = await api<{ subtype: string }>(
        `/api/answers${query({ source: view.source, id: view.conversationId })}`,
        { decisions, inputs: answers },
      );
      status.textContent = `Resumed: ${result.subtype}`;
    } catch (error) {
      status.textContent = (error as Error).message;
    }
    after();
  };
  if (view.pending.length > 0) {
    panel.append(el("h2", { text: "Waiting for approval" }));
    for (const call of view.pending)
      panel.append(
        callItem(call, canAct, (decision) => {
          decisions[call.tool_use_id] = decision;
          submitWhenComplete();
        }),
      );
  }
  if (inputs.length > 0) {
    panel.append(el("h2", { text: "Waiting for answers to MCP servers' questions" }));
    for (const input of inputs)
      panel.append(
        questionItem(input, canAct, (answer) => {
          answers[input.id] = answer;
          submitWhenComplete();
        }),
      );
  }
  return panel;
}

function callItem(call: PendingCall, canAct: boolean, decide: (decision: Decision) => void): HTMLElement {
  const item = el(
    "div",
    { class: "pending-call" },
    el("strong", { text: call.name }),
    call.parent_tool_use_id
      ? el("span", { class: "muted", text: ` (inside subagent ${call.agent ?? "?"})` })
      : null,
    el("pre", { text: JSON.stringify(call.input, null, 2) }),
  );
  if (call.message) item.append(el("p", { text: call.message }));
  if (!canAct) return item;
  const reason = el("input", {
    type: "text",
    placeholder: "Reason (for a denial)",
    name: `reason-${call.tool_use_id}`,
  });
  const approve = el("button", { class: "approve", text: "Approve" });
  const deny = el("button", { class: "deny", text: "Deny" });
  const choose = (approved: boolean) => {
    approve.disabled = deny.disabled = true;
    decide(approved ? { approved } : { approved, message: reason.value || undefined });
  };
  approve.addEventListener("click", () => choose(true));
  deny.addEventListener("click", () => choose(false));
  item.append(el("div", { class: "actions" }, approve, reason, deny));
  return item;
}

function questionItem(
  input: PendingQuestion,
  canAct: boolean,
  answer: (answer: Answer) => void,
): HTMLElement {
  const item = el(
    "div",
    { class: "pending-input", "data-testid": "pending-input", "data-input-id": input.id },
    el("strong", { class: "server", text: input.server }),
    el("span", { class: "muted mode", text: input.mode === "url" ? " asks you to open a page" : " asks" }),
    input.parent_tool_use_id
      ? el("span", { class: "muted", text: ` (inside subagent ${input.agent ?? "?"})` })
      : null,
    el("pre", { class: "text question", text: input.message }),
  );
  let form: QuestionForm | undefined;
  if (input.mode === "url") item.append(urlLine(input.url ?? ""));
  else {
    form = questionForm(input);
    item.append(form.element);
  }
  if (!canAct) {
    form?.disable();
    return item;
  }
  const problem = el("p", { class: "error problem" });
  const accept = el("button", { class: "accept", text: "Accept" });
  const decline = el("button", { class: "decline", text: "Decline" });
  const cancel = el("button", { class: "cancel", text: "Cancel" });
  const choose = (action: Answer["action"]) => {
    let chosen: Answer = { action };
    if (action === "accept" && form) {
      const read = form.read();
      if ("problem" in read) {
        problem.textContent = read.problem;
        return;
      }
      chosen = { action, content: read.content };
    }
    problem.textContent = "";
    accept.disabled = decline.disabled = cancel.disabled = true;
    form?.disable();
    answer(chosen);
  };
  accept.addEventListener("click", () => choose("accept"));
  decline.addEventListener("click", () => choose("decline"));
  cancel.addEventListener("click", () => choose("cancel"));
  item.append(el("div", { class: "actions" }, accept, decline, cancel), problem);
  return item;
}

/** A URL question's page: its URL as text, and a link when it is an http(s) URL (never `javascript:`). */
function urlLine(url: string): HTMLElement {
  const line = el("p", { class: "url" }, el("code", { class: "url-text", text: url }));
  const safe = httpUrl(url);
  if (safe)
    line.append(
      " ",
      el("a", {
        href: safe,
        target: "_blank",
        rel: "noopener noreferrer",
        class: "open-url",
        text: "Open the page",
      }),
    );
  else line.append(el("span", { class: "muted", text: " (not an http(s) address: not linked)" }));
  return line;
}

/** `url` as the browser parses it, when its scheme is http or https; else undefined. */
export function httpUrl(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}
