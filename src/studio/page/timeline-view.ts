/**
 * The timeline's entries as elements: prompts (with their checkpoint ids), model turns (latency,
 * stop reason, tokens, cost, retries and fallback, context edits and tool searches; thinking collapsed), tool calls (input, output or error, duration; a
 * subagent's own conversation nested when its store is known), pauses, guardrail verdicts.
 * @module
 */
import type { AssistantModelMessage } from "../../messages/types";
import { api, query } from "./api";
import { asText, count, dollars, duration, el } from "./dom";
import { proseOf, resultText, type TimelineItem, type ToolCallView, timelineOf } from "./turns";

/** What the timeline needs besides its items. */
export interface TimelineContext {
  source: number;
  conversationId: string;
  /** Subagent conversations by the `tool_use` id that started them. */
  children: Record<string, string>;
  canAct: boolean;
  onForked(newId: string): void;
}

/** The timeline of `items`. */
export function timelineElement(items: readonly TimelineItem[], context: TimelineContext): HTMLElement {
  const list = el("ol", { class: "timeline", "data-testid": "timeline" });
  for (const item of items)
    list.append(
      el("li", { class: `item ${item.kind}`, "data-index": String(item.index) }, itemElement(item, context)),
    );
  return list;
}

function itemElement(item: TimelineItem, context: TimelineContext): HTMLElement {
  switch (item.kind) {
    case "prompt":
      return el(
        "div",
        {},
        el("span", { class: "label", text: "Prompt" }),
        item.checkpointId
          ? el("span", { class: "muted checkpoint", text: ` checkpoint ${item.checkpointId}` })
          : null,
        el("pre", { class: "text", text: item.text }),
      );
    case "pause": {
      const waiting: string[] = [];
      if (item.pending.length > 0)
        waiting.push(`approval of ${item.pending.map((call) => call.name).join(", ")}`);
      // The questions' own text is in the pending panel above; here, who asked.
      if (item.inputs.length > 0)
        waiting.push(
          `answers to ${item.inputs.length} question(s) of ${[...new Set(item.inputs.map((input) => input.server))].join(", ")}`,
        );
      return el(
        "div",
        {},
        el("span", { class: "label", text: "Paused" }),
        el("span", { text: `waiting for ${waiting.join(" and ")}` }),
      );
    }
    case "note":
      return el("div", { class: "muted", text: item.text });
    case "compaction":
      return el(
        "details",
        { class: "compaction" },
        el("summary", { text: "Compaction: the turns before were replaced by a summary" }),
        el("pre", { class: "text", text: item.text }),
      );
    case "turn":
      return turnElement(item, context);
    case "handoff":
      return el(
        "div",
        { class: "handoff", "data-testid": "handoff" },
        el("span", { class: "label", text: "Handoff" }),
        el("span", { text: `${item.from} → ${item.to}: ${item.to} answers from here on` }),
      );
    case "guardrail": {
      const { record } = item;
      const said = record.message ? `: ${record.message}` : "";
      return el(
        "div",
        { class: `guardrail ${record.verdict}`, "data-testid": "guardrail" },
        el("span", { class: "label", text: `Guardrail ${record.verdict}` }),
        el("span", { text: `${record.name} (${record.stage})${said}` }),
        item.withdrawn
          ? el("span", { class: "muted", text: " · turn withdrawn: never sent to the model again" })
          : null,
      );
    }
  }
}

function turnElement(item: Extract<TimelineItem, { kind: "turn" }>, context: TimelineContext): HTMLElement {
  const { message } = item;
  const box = el(
    "div",
    { class: "turn" },
    el("div", { class: "facts" }, ...facts(message, item.number, item.toolMs)),
  );
  if (item.events.length > 0)
    box.append(
      el(
        "ul",
        { class: "events", "data-testid": "turn-events" },
        ...item.events.map((text) => el("li", { text })),
      ),
    );
  for (const block of proseOf(message)) {
    if (block.type === "text") box.append(el("pre", { class: "text", text: block.text }));
    else if (block.type === "thinking")
      box.append(
        el(
          "details",
          { class: "thinking" },
          el("summary", { text: "Thinking" }),
          el("pre", { text: block.thinking }),
        ),
      );
    else if (block.type === "compaction")
      // The provider's server compaction: the summary that stands for everything before it.
      box.append(
        el(
          "details",
          { class: "thinking" },
          el("summary", { text: "Earlier conversation compacted by the provider" }),
          el("pre", { text: block.content ?? "(the compaction failed: no summary)" }),
        ),
      );
    else
      box.append(
        el("details", { class: "thinking" }, el("summary", { text: "Thinking (redacted by the provider)" })),
      );
  }
  for (const view of item.calls) box.append(callElement(view, context));
  if (context.canAct && item.calls.length === 0) box.append(forkButton(item.index, context));
  return box;
}

function facts(message: AssistantModelMessage, number: number, toolMs: number): HTMLElement[] {
  const meta = message.meta ?? {};
  const usage = message.usage;
  const parts: Array<[string, string]> = [
    ["turn", `#${number}`],
    // With handoffs: who answered the turn (`meta.agent`).
    ...(meta.agent ? ([["agent", meta.agent]] as Array<[string, string]>) : []),
    ["model", message.model ?? "–"],
    ["latency", duration(meta.latency_ms)],
    ["tools", duration(toolMs || undefined)],
    ["stop", message.stop_reason ?? "–"],
    ["in", count(usage?.input_tokens)],
    [
      "cache r/w",
      `${count(usage?.cache_read_input_tokens ?? 0)}/${count(usage?.cache_creation_input_tokens ?? 0)}`,
    ],
    ["out", count(usage?.output_tokens)],
    ["cost", dollars(meta.cost_usd)],
  ];
  if (meta.retries) parts.push(["retries", String(meta.retries)]);
  if (meta.fallback_from) parts.push(["fallback from", meta.fallback_from]);
  return parts.map(([name, value]) =>
    el("span", { class: `fact ${name.replace(/\W+/g, "-")}` }, el("small", { text: name }), value),
  );
}

function callElement(view: ToolCallView, context: TimelineContext): HTMLElement {
  const failed = view.result?.is_error === true;
  const box = el("details", { class: `call${failed ? " error" : ""}`, "data-tool": view.call.name });
  box.append(
    el(
      "summary",
      {},
      el("code", { text: view.call.name }),
      el("span", { class: "muted", text: ` ${duration(view.durationMs)}` }),
      failed ? el("span", { class: "status failed", text: "error" }) : null,
      view.recovery ? el("span", { class: "status recovery", text: recoveryText(view.recovery) }) : null,
    ),
    el("h4", { text: "Input" }),
    el("pre", { text: asText(view.call.input) }),
    el("h4", { text: failed ? "Error" : "Output" }),
    el("pre", {
      class: "output",
      text: view.result ? resultText(view.result.content) : "(no result recorded)",
    }),
  );
  if (view.steps?.length) box.append(el("h4", { text: "Steps (recorded once)" }), stepsElement(view.steps));
  const child = context.children[view.call.id];
  if (child !== undefined) box.append(childElement(child, context));
  return box;
}

function recoveryText(recovery: "rerun" | "interrupted"): string {
  return recovery === "rerun"
    ? "run again after a crash, steps replayed"
    : "interrupted: runs again on the next query";
}

/** A call's recorded steps: each name and its JSON result, as text. */
function stepsElement(steps: Array<{ name: string; result?: unknown }>): HTMLElement {
  const list = el("ol", { class: "steps" });
  for (const step of steps)
    list.append(
      el(
        "li",
        {},
        el("code", { text: step.name }),
        " ",
        el("span", { class: "muted", text: stepResultText(step) }),
      ),
    );
  return list;
}

function stepResultText(step: { result?: unknown }): string {
  return "result" in step ? asText(step.result) : "(no result)";
}

/** A subagent's conversation, loaded when opened. */
function childElement(childId: string, context: TimelineContext): HTMLElement {
  const box = el(
    "details",
    { class: "subagent", "data-child": childId },
    el("summary", { text: `Subagent conversation ${childId}` }),
  );
  let loaded = false;
  box.addEventListener("toggle", async () => {
    if (loaded || !box.open) return;
    loaded = true;
    const window = await api<{ messages: never[]; from: number; children: Record<string, string> }>(
      `/api/conversation${query({ source: context.source, id: childId, from: 0, limit: 500 })}`,
    );
    box.append(
      timelineElement(timelineOf(window.messages, window.from), {
        ...context,
        conversationId: childId,
        children: window.children,
        canAct: false,
      }),
    );
  });
  return box;
}

function forkButton(index: number, context: TimelineContext): HTMLElement {
  const button = el("button", { class: "fork", text: "Fork here" });
  button.addEventListener("click", async () => {
    button.disabled = true;
    const forked = await api<{ conversationId: string }>(
      `/api/fork${query({ source: context.source, id: context.conversationId })}`,
      { at: index },
    );
    context.onForked(forked.conversationId);
  });
  return button;
}
