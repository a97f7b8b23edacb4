/**
 * Steps 2 and 3 of the loop, after the model call: what an answer (or its absence) changes — the
 * usage and cost, the context size, the result text — and the response entering history, handed
 * over as an `assistant` message.
 * @module
 */
import { isBlankText } from "../messages/blank-text";
import type { Redacted } from "../messages/redact-message";
import type { AssistantModelMessage, MessageMeta, ToolUseBlock } from "../messages/types";
import type { PromiseOrValue } from "../shared/maybe-async";
import type { Outcome } from "./decide-next";
import { type ModelCallTiming, type ModelOutcome, unfinishedOf } from "./model-outcome";
import { recordUsage } from "./record-usage";
import type { LoopContext } from "./state/loop-context";
import type { QueryState } from "./state/query-state";

/**
 * Takes in what a main model call returned: a response's usage is counted (an `unknown_pricing`
 * notice may follow); a request cut off while streaming leaves its text.
 */
export function takeReply<T>(loop: LoopContext<T>, query: QueryState, reply: ModelOutcome): Outcome<T> {
  if (reply.kind !== "response") {
    const text = unfinishedOf(reply)?.text;
    if (text) query.takeUnfinishedText(text);
    return { kind: "unanswered", failure: reply };
  }
  query.answeredText = textOf(reply.message);
  recordUsage(loop.conversation, query, reply.model, reply.message.usage, query.channel.emit);
  const response = withTurnMeta(withoutBlankText(reply.message), reply.timing, query.ledger.lastCostUsd);
  query.stopReason = response.stop_reason ?? null;
  query.stopSequence = response.stop_sequence;
  return { kind: "answered", response };
}

/**
 * Records the response in history and hands it over. The API refuses an empty message anywhere
 * but last (blank text was dropped): recorded once, it would fail every later request of the
 * conversation, so an empty response is not recorded — and not handed over either, but for a
 * refusal (`stop_reason: "refusal"`), which is yielded so its id and model are not lost.
 */
export function recordResponse<T>(
  loop: LoopContext<T>,
  query: QueryState,
  response: AssistantModelMessage,
): PromiseOrValue<Outcome<T>> {
  query.takeText();
  const recorded = { kind: "recorded" as const, response, calls: toolUsesOf(response) };
  if (response.content.length === 0) {
    // A refusal without content is still handed over (its providerResponseId and model), not recorded.
    // Not in history, so not redacted yet: `post` walks it.
    if (response.stop_reason === "refusal") query.channel.post({ type: "assistant", message: response });
    return recorded;
  }
  const history = loop.conversation.history;
  const entry = history.record(response);
  const writing = history.save(entry);
  if (writing) return writing.then(() => handOver(query, entry, recorded));
  return handOver(query, entry, recorded); // no store: no promise, no tick
}

/** Hands the response over as history holds it (redacted), after the failures its write reported. */
function handOver<T>(
  query: QueryState,
  entry: Redacted<AssistantModelMessage>,
  recorded: Outcome<T> & { kind: "recorded" },
): Outcome<T> {
  query.channel.handOver({ type: "assistant", message: entry });
  return recorded;
}

/**
 * The response as history may hold it: without blank text blocks (empty or whitespace only), which
 * the provider refuses when they are sent back. The client's message is not changed.
 */
function withoutBlankText(message: AssistantModelMessage): AssistantModelMessage {
  if (!message.content.some(isBlankText)) return message;
  return { ...message, content: message.content.filter((block) => !isBlankText(block)) };
}

/**
 * The response with what the turn was beside it ({@link MessageMeta}: times, latency, cost,
 * retries, fallback) — recorded, never sent. A new object: the client's message is not changed.
 */
function withTurnMeta(
  message: AssistantModelMessage,
  timing: ModelCallTiming | undefined,
  costUsd: number,
): AssistantModelMessage {
  const meta: MessageMeta = { ...message.meta };
  if (timing) {
    meta.started_at = new Date(timing.startedAt).toISOString();
    meta.ended_at = new Date(timing.endedAt).toISOString();
    meta.latency_ms = timing.endedAt - timing.startedAt;
    if (timing.retries > 0) meta.retries = timing.retries;
    if (timing.fallbackFrom !== undefined) meta.fallback_from = timing.fallbackFrom;
  }
  meta.cost_usd = costUsd;
  return { ...message, meta };
}

/** The text blocks of `message` joined, whitespace-only ones included. */
function textOf(message: AssistantModelMessage): string {
  let text = "";
  for (const block of message.content) if (block.type === "text") text += block.text;
  return text;
}

function toolUsesOf(message: AssistantModelMessage): ToolUseBlock[] {
  const calls: ToolUseBlock[] = [];
  for (const block of message.content) if (block.type === "tool_use") calls.push(block);
  return calls;
}
