/**
 * A window of history as the timeline shows it: prompts, model turns with their tool calls (each
 * joined with its result and duration from the next message), pauses, and the numbers the charts
 * draw. Pure: no DOM.
 * @module
 */
import type {
  AssistantModelMessage,
  ContentBlock,
  GuardrailRecord,
  ModelMessage,
  ToolResultBlock,
  ToolSearchToolResultBlock,
  ToolUseBlock,
} from "../../messages/types";

/** One tool call with what came of it. */
export interface ToolCallView {
  call: ToolUseBlock;
  result?: ToolResultBlock;
  durationMs?: number;
  /** The steps the call recorded (`ToolContext.step`), in order. */
  steps?: Array<{ name: string; result?: unknown }>;
  /** After a crash: run again with its steps replayed, or waiting to be (`interrupted`). */
  recovery?: "rerun" | "interrupted";
}

/** One entry of the timeline. */
export type TimelineItem =
  | { kind: "prompt"; index: number; text: string; createdAt?: string; checkpointId?: string }
  | { kind: "compaction"; index: number; text: string }
  /** A guardrail's verdict about the message at `index`; `withdrawn`: its turn is never sent again. */
  | { kind: "guardrail"; index: number; record: GuardrailRecord; withdrawn: boolean }
  | {
      kind: "turn";
      index: number;
      number: number;
      message: AssistantModelMessage;
      calls: ToolCallView[];
      toolMs: number;
      /** What happened around the turn besides its content: context edits, tool searches. */
      events: string[];
    }
  /** A pause: the calls waiting for approval, and the questions MCP servers asked that wait for answers. */
  | {
      kind: "pause";
      index: number;
      pending: Array<{ tool_use_id: string; name: string }>;
      inputs: Array<{ id: string; server: string; message: string }>;
    }
  /** A handoff recorded with the message at `index` (`meta.handoff`): `to` answers from then on. */
  | { kind: "handoff"; index: number; from: string; to: string }
  | { kind: "note"; index: number; text: string };

/**
 * How the summary that replaces compacted history begins (`wrapSummary` in src/compaction/prompt.ts;
 * repeated here: the page imports no SDK code, and a test holds the two together).
 */
export const COMPACTION_NOTE = "The earlier part of this conversation was compacted just now";

/** The timeline of `messages`, whose first one is message `from` of the conversation. */
export function timelineOf(messages: readonly ModelMessage[], from: number): TimelineItem[] {
  const items: TimelineItem[] = [];
  let turn = 0;
  messages.forEach((message, offset) => {
    const index = from + offset;
    timelineEntries(items, messages, message, offset, index, () => ++turn);
    const record = message.meta?.guardrail;
    if (record)
      items.push({ kind: "guardrail", index, record, withdrawn: message.meta?.withdrawn !== undefined });
    const handoff = message.meta?.handoff;
    if (handoff) items.push({ kind: "handoff", index, from: handoff.from, to: handoff.to });
  });
  return items;
}

/** The items of one message. */
function timelineEntries(
  items: TimelineItem[],
  messages: readonly ModelMessage[],
  message: ModelMessage,
  offset: number,
  index: number,
  nextTurn: () => number,
): void {
  if (message.role === "assistant") {
    const next = messages[offset + 1];
    const calls = toolCallsOf(message, next);
    const toolMs = calls.reduce((sum, view) => sum + (view.durationMs ?? 0), 0);
    items.push({
      kind: "turn",
      index,
      number: nextTurn(),
      message,
      calls,
      toolMs,
      events: eventsOf(message),
    });
    return;
  }
  const marker = message as {
    pending_approvals?: Array<{ tool_use_id: string; name: string }>;
    pending_inputs?: Array<{ id: string; server: string; message: string }>;
  };
  if (Array.isArray(marker.pending_approvals)) {
    const inputs = Array.isArray(marker.pending_inputs) ? marker.pending_inputs : [];
    items.push({ kind: "pause", index, pending: marker.pending_approvals, inputs });
    return;
  }
  if (typeof message.content === "string") {
    if (message.content.startsWith(COMPACTION_NOTE))
      items.push({ kind: "compaction", index, text: message.content });
    else items.push(promptItem(index, message.content, message));
    return;
  }
  const text = message.content
    .filter((block) => block.type === "text")
    .map((block) => (block as { text: string }).text);
  const results = message.content.filter((block) => block.type === "tool_result");
  const previous = messages[offset - 1];
  // Results of the previous turn's calls are shown with the calls; others (the first message of the window) as a note.
  if (results.length > 0 && previous?.role !== "assistant")
    items.push({ kind: "note", index, text: `${results.length} tool result(s) of an earlier turn` });
  if (text.length > 0) items.push(promptItem(index, text.join("\n"), message));
}

function promptItem(index: number, text: string, message: ModelMessage): TimelineItem {
  return {
    kind: "prompt",
    index,
    text,
    createdAt: message.meta?.created_at,
    checkpointId: message.meta?.checkpoint_id,
  };
}

/**
 * The events a turn's record holds: context edits the provider applied to its request
 * (`meta.context_management`), and the provider's tool searches in it (`server_tool_use` with its
 * `tool_search_tool_result`: the query and the tools found, or the error).
 */
export function eventsOf(message: AssistantModelMessage): string[] {
  const events: string[] = [];
  for (const edit of message.meta?.context_management?.applied_edits ?? []) {
    const what =
      edit.type === "clear_tool_uses_20250919"
        ? `${edit.cleared_tool_uses} tool use(s)`
        : `${edit.cleared_thinking_turns} thinking turn(s)`;
    events.push(`Context edit: cleared ${what}, ${edit.cleared_input_tokens} input tokens freed`);
  }
  const results = new Map<string, ToolSearchToolResultBlock>();
  for (const block of message.content)
    if (block.type === "tool_search_tool_result") results.set(block.tool_use_id, block);
  for (const block of message.content) {
    if (block.type !== "server_tool_use") continue;
    const found = results.get(block.id)?.content;
    const outcome =
      found === undefined
        ? "no result recorded"
        : found.type === "tool_search_tool_result_error"
          ? `error ${found.error_code}`
          : `found ${found.tool_references.map((reference) => reference.tool_name).join(", ") || "nothing"}`;
    events.push(`Tool search (${block.name}) ${JSON.stringify(block.input)}: ${outcome}`);
  }
  return events;
}

function toolCallsOf(message: AssistantModelMessage, next: ModelMessage | undefined): ToolCallView[] {
  const results = new Map<string, ToolResultBlock>();
  if (next?.role === "user" && Array.isArray(next.content)) {
    for (const block of next.content) if (block.type === "tool_result") results.set(block.tool_use_id, block);
  }
  const durations = next?.meta?.tool_durations_ms ?? {};
  const steps = next?.meta?.tool_steps ?? {};
  const rerun = new Set(next?.meta?.rerun_calls ?? []);
  const interrupted = new Set((next?.meta?.interrupted_calls ?? []).map((call) => call.tool_use_id));
  return message.content
    .filter((block): block is ToolUseBlock => block.type === "tool_use")
    .map((call) => ({
      call,
      result: results.get(call.id),
      durationMs: durations[call.id],
      steps: steps[call.id],
      recovery: rerun.has(call.id) ? "rerun" : interrupted.has(call.id) ? "interrupted" : undefined,
    }));
}

/** The text of a tool result's content. */
export function resultText(content: ToolResultBlock["content"]): string {
  if (typeof content === "string") return content;
  return content.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("\n");
}

/** The blocks of a turn the timeline shows as text, thinking or the provider's compaction summary. */
export function proseOf(message: AssistantModelMessage): ContentBlock[] {
  return message.content.filter(
    (block) =>
      block.type === "text" ||
      block.type === "thinking" ||
      block.type === "redacted_thinking" ||
      block.type === "compaction",
  );
}

/** Per-turn series for the charts: x = turn number. */
export interface ChartSeries {
  turn: number[];
  input: number[];
  cacheRead: number[];
  cacheWrite: number[];
  cumulativeCost: number[];
  modelMs: number[];
  toolMs: number[];
}

/** The charts' series over the turns of `items`. */
export function seriesOf(items: readonly TimelineItem[]): ChartSeries {
  const series: ChartSeries = {
    turn: [],
    input: [],
    cacheRead: [],
    cacheWrite: [],
    cumulativeCost: [],
    modelMs: [],
    toolMs: [],
  };
  let cost = 0;
  for (const item of items) {
    if (item.kind !== "turn") continue;
    const usage = item.message.usage;
    const meta = item.message.meta;
    cost += meta?.cost_usd ?? 0;
    series.turn.push(item.number);
    series.input.push(usage?.input_tokens ?? 0);
    series.cacheRead.push(usage?.cache_read_input_tokens ?? 0);
    series.cacheWrite.push(usage?.cache_creation_input_tokens ?? 0);
    series.cumulativeCost.push(cost);
    series.modelMs.push(meta?.latency_ms ?? 0);
    series.toolMs.push(item.toolMs);
  }
  return series;
}
