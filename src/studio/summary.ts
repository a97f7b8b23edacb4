/**
 * A conversation in one line of the list: its title (the first prompt), model, status, turns,
 * tokens and cost — computed from its messages and the `meta` recorded beside them.
 * @module
 */
import type { ContentBlock, ModelMessage } from "../messages/types";

/** Where a conversation stands, as far as its history tells. */
export type ConversationStatus = "finished" | "failed" | "paused" | "running";

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

/**
 * Summarises `messages`. Status: `paused` when history ends in a pause for approval, `finished`
 * when it ends in an answer (an assistant turn without tool calls), `running` when it ends anywhere
 * else and was written in the last minute, `failed` otherwise (it stopped without an answer: an
 * error ended the query, or its process did).
 */
export function summarize(
  messages: readonly ModelMessage[],
  entry: { conversationId: string; source: number; updatedAt: Date },
  now: number,
): ConversationSummary {
  const summary: ConversationSummary = {
    conversationId: entry.conversationId,
    source: entry.source,
    updatedAt: entry.updatedAt.toISOString(),
    messageCount: messages.length,
    title: "",
    models: [],
    status: statusOf(messages, now - entry.updatedAt.getTime()),
    turns: 0,
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    costUsd: 0,
    recordedMs: 0,
  };
  for (const message of messages) {
    if (message.role === "user") {
      if (!summary.title) summary.title = promptText(message.content).slice(0, 200);
      for (const ms of Object.values(message.meta?.tool_durations_ms ?? {})) summary.recordedMs += ms;
      continue;
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
  return summary;
}

function statusOf(messages: readonly ModelMessage[], sinceWriteMs: number): ConversationStatus {
  const last = messages.at(-1);
  if (last && Array.isArray((last as { pending_approvals?: unknown }).pending_approvals)) return "paused";
  if (last?.role === "assistant" && !last.content.some((block) => block.type === "tool_use"))
    return "finished";
  return sinceWriteMs <= RUNNING_WINDOW_MS ? "running" : "failed";
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
