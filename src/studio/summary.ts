/**
 * A conversation in one line of the list: its title (the first prompt), model, status, turns,
 * tokens and cost — computed from its messages and the `meta` recorded beside them.
 * @module
 */
import type { ContentBlock, ModelMessage } from "../messages/types";

/** Where a conversation stands (see {@link statusOf} for what each means). */
export type ConversationStatus = "finished" | "failed" | "paused" | "running";

/**
 * What a status was told by: the pause marker history ends in; an answer ending it; a run this
 * studio is making (a resume after approval); a live run claim in the store (taken by a run of any
 * process through `claimRun()`, e.g. `createChatHandler`'s); the `isRunning` option of
 * `startStudio` (a fleet's lease, an agent of the host process); a write in the last minute; or
 * none of these.
 */
export type StatusBasis =
  | "pause marker"
  | "answer"
  | "studio"
  | "run claim"
  | "isRunning"
  | "recent write"
  | "no answer";

/** What told that a run holds a conversation now. */
export type RunningBasis = "studio" | "run claim" | "isRunning";

/** A conversation as the list shows it. */
export interface ConversationSummary {
  conversationId: string;
  /** Index of its source in the studio's sources. */
  source: number;
  updatedAt: string;
  messageCount: number;
  title: string;
  models: string[];
  status: ConversationStatus;
  /** What {@link ConversationSummary.status} was told by. */
  statusBasis: StatusBasis;
  /**
   * With status `paused`: what the pause waits for — tool calls to approve or deny, and questions
   * MCP servers asked (elicitation) to answer.
   */
  waiting?: { approvals: number; inputs: number };
  /**
   * The totals (turns, tokens, cost, time) are not counted yet: a long conversation is listed from
   * its first and newest messages, and counted whole afterwards (`/api/summary`).
   */
  partial?: boolean;
  turns: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costUsd: number;
  /** Model time plus tool time, where recorded (ms). */
  recordedMs: number;
}

/** How long after its last write an unfinished conversation still counts as running. */
export const RUNNING_WINDOW_MS = 60_000;

/** The conversation as listed, and whether a run is known to hold it now. */
export interface SummaryEntry {
  conversationId: string;
  source: number;
  updatedAt: Date;
  /** A run holds it (this studio's resume, a run claim, or `isRunning` said so); `undefined`: nobody could tell. */
  running?: RunningBasis;
}

/**
 * `summary` (counted earlier) with what is known now of a run: a conversation a run holds shows as
 * running, unless its history ends in a pause (as {@link statusOf} decides).
 */
export function withRunning(
  summary: ConversationSummary,
  running: RunningBasis | undefined,
): ConversationSummary {
  if (running === undefined || summary.status === "paused") return summary;
  return { ...summary, status: "running", statusBasis: running };
}

/** Summarises a conversation from all of its `messages`. */
export function summarize(
  messages: readonly ModelMessage[],
  entry: SummaryEntry,
  now: number,
): ConversationSummary {
  const summary = emptySummary(entry, messages.length, statusOf(messages, entry, now));
  addWaiting(summary, messages);
  for (const message of messages) addMessage(summary, message);
  return summary;
}

/**
 * Summarises a long conversation from its first messages (`head`: the title) and its newest
 * (`tail`: models and status), totals left to a whole count ({@link ConversationSummary.partial}).
 */
export function summarizeWindows(
  head: readonly ModelMessage[],
  tail: { messages: readonly ModelMessage[]; from: number; total: number },
  entry: SummaryEntry,
  now: number,
): ConversationSummary {
  if (tail.from === 0) return summarize(tail.messages, entry, now);
  const summary = emptySummary(entry, tail.total, statusOf(tail.messages, entry, now));
  addWaiting(summary, tail.messages);
  summary.partial = true;
  summary.title = titleOf(head);
  for (const message of tail.messages)
    if (message.role === "assistant" && message.model && !summary.models.includes(message.model))
      summary.models.push(message.model);
  return summary;
}

function emptySummary(
  entry: SummaryEntry,
  messageCount: number,
  [status, statusBasis]: [ConversationStatus, StatusBasis],
): ConversationSummary {
  return {
    conversationId: entry.conversationId,
    source: entry.source,
    updatedAt: entry.updatedAt.toISOString(),
    messageCount,
    title: "",
    models: [],
    status,
    statusBasis,
    turns: 0,
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    costUsd: 0,
    recordedMs: 0,
  };
}

/** Counts what the pause that ends `messages` waits for into a paused summary. */
function addWaiting(summary: ConversationSummary, messages: readonly ModelMessage[]): void {
  if (summary.status !== "paused") return;
  const marker = messages.at(-1) as { pending_approvals?: unknown; pending_inputs?: unknown };
  const count = (list: unknown) => (Array.isArray(list) ? list.length : 0);
  summary.waiting = { approvals: count(marker.pending_approvals), inputs: count(marker.pending_inputs) };
}

/** The first prompt's text, cut to 200 characters. */
function titleOf(messages: readonly ModelMessage[]): string {
  for (const message of messages) {
    if (message.role !== "user") continue;
    const text = promptText(message.content);
    if (text) return text.slice(0, 200);
  }
  return "";
}

/** Counts one message into the summary's title and totals. */
function addMessage(summary: ConversationSummary, message: ModelMessage): void {
  if (message.role === "user") {
    if (!summary.title) summary.title = promptText(message.content).slice(0, 200);
    for (const ms of Object.values(message.meta?.tool_durations_ms ?? {})) summary.recordedMs += ms;
    return;
  }
  summary.turns++;
  if (message.model && !summary.models.includes(message.model)) summary.models.push(message.model);
  const usage = message.usage;
  summary.inputTokens += usage?.input_tokens ?? 0;
  summary.outputTokens += usage?.output_tokens ?? 0;
  summary.cacheReadTokens += usage?.cache_read_input_tokens ?? 0;
  summary.cacheWriteTokens += usage?.cache_creation_input_tokens ?? 0;
  summary.costUsd += message.meta?.cost_usd ?? 0;
  summary.recordedMs += message.meta?.latency_ms ?? 0;
}

/**
 * Where a conversation ending in `messages` stands. `paused`: history ends in the pause marker (a
 * pause for approval or for answers to MCP servers' questions). `running`: a run holds it now — this studio's own
 * resume, a live run claim in the store, or the `isRunning` option said so — or, when nobody can tell, it ends without an answer
 * and was written in the last minute. `finished`: it ends in an answer (an assistant turn without
 * tool calls) and no run holds it. `failed`: it ends without an answer (a prompt or tool results
 * never answered, calls never run), nothing holds it and it has not been written for a minute: an
 * error ended its query, or its process died.
 */
export function statusOf(
  messages: readonly ModelMessage[],
  entry: SummaryEntry,
  now: number,
): [ConversationStatus, StatusBasis] {
  const last = messages.at(-1);
  if (last && Array.isArray((last as { pending_approvals?: unknown }).pending_approvals))
    return ["paused", "pause marker"];
  if (entry.running) return ["running", entry.running];
  if (last?.role === "assistant" && !last.content.some((block) => block.type === "tool_use"))
    return ["finished", "answer"];
  return now - entry.updatedAt.getTime() <= RUNNING_WINDOW_MS
    ? ["running", "recent write"]
    : ["failed", "no answer"];
}

/** The text of a prompt: its string, or its text blocks; tool results are not a prompt. */
export function promptText(content: string | ContentBlock[]): string {
  if (typeof content === "string") return content;
  let text = "";
  for (const block of content) if (block.type === "text") text += (text ? " " : "") + block.text;
  return text;
}

/** Whether `summary` passes the list's filters (text in the id or title, a model, a status). */
export function matches(
  summary: ConversationSummary,
  filter: { text?: string; model?: string; status?: string },
): boolean {
  if (filter.status && summary.status !== filter.status) return false;
  if (filter.model && !summary.models.some((model) => model.includes(filter.model!))) return false;
  if (filter.text) {
    const needle = filter.text.toLowerCase();
    if (
      !summary.title.toLowerCase().includes(needle) &&
      !summary.conversationId.toLowerCase().includes(needle)
    )
      return false;
  }
  return true;
}
