/**
 * Turns a guardrail withdrew stay in stored history (what happened, for the studio and an audit)
 * and are never sent to the model again: a request's messages are history without them. Their
 * messages carry `meta.withdrawn`.
 * @module
 */
import type { ContentBlock, ModelMessage } from "../messages/types";

/** Whether a message belongs to a withdrawn turn. */
export function isWithdrawn(message: ModelMessage): boolean {
  return message.meta?.withdrawn !== undefined;
}

/**
 * `messages` as a request sends them: without the messages of withdrawn turns (but, with
 * `keepLastUnchecked`, the prompt the running query's parallel input guardrails check now). The first
 * withdrawn message after a kept assistant message with calls keeps its `tool_result` blocks (a
 * prompt that answered those calls): every call stays answered, the history well-formed. Returns
 * `messages` itself when nothing is withdrawn.
 */
export function withoutWithdrawnTurns(
  messages: readonly ModelMessage[],
  keepLastUnchecked = false,
): ModelMessage[] {
  if (!messages.some(isWithdrawn)) return messages as ModelMessage[];
  const kept: ModelMessage[] = [];
  let previousKept = true;
  const sent = keepLastUnchecked ? lastUnchecked(messages) : -1;
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    if (!isWithdrawn(message) || index === sent) {
      kept.push(message);
      previousKept = true;
      continue;
    }
    if (previousKept && message.role === "user" && typeof message.content !== "string") {
      const results = message.content.filter((block: ContentBlock) => block.type === "tool_result");
      if (results.length > 0) kept.push({ role: "user", content: results });
    }
    previousKept = false;
  }
  return kept;
}

/** The index of the last message marked `unchecked`, or -1. */
function lastUnchecked(messages: readonly ModelMessage[]): number {
  for (let index = messages.length - 1; index >= 0; index--)
    if (messages[index]!.meta?.withdrawn === "unchecked") return index;
  return -1;
}

/**
 * Tells cheaply whether a history holds withdrawn messages: it looks only at the messages added or
 * replaced since it last looked. A rewrite (`replace`, `replaceTail`) keeps the unchanged messages
 * as the same objects: walking back from the end while they differ finds what changed, so a rewrite
 * of the last messages costs a look at those only, not at the whole history.
 */
export class WithdrawnTracker {
  private seen: readonly ModelMessage[] = [];
  /** The messages of `seen` looked at, and the last of them (a history appended to in place). */
  private looked = 0;
  /** The index of the first withdrawn message, or -1. */
  private first = -1;

  /** Whether `messages` holds a withdrawn message. */
  holds(messages: readonly ModelMessage[]): boolean {
    let from = Math.min(this.looked, messages.length);
    if (messages !== this.seen) {
      const seen = this.seen;
      while (from > 0 && messages[from - 1] !== seen[from - 1]) from--;
      // The first withdrawn message is in the unchanged part, or it is to be found again.
      if (this.first >= from) this.first = -1;
      this.seen = messages;
    }
    if (this.first < 0)
      for (let index = from; index < messages.length; index++)
        if (isWithdrawn(messages[index]!)) {
          this.first = index;
          break;
        }
    this.looked = messages.length;
    return this.first >= 0;
  }
}
