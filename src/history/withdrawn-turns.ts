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
 * Tells cheaply whether a history holds withdrawn messages: it looks only at the messages added
 * since it last looked, and again at all of them when the history was replaced.
 */
export class WithdrawnTracker {
  private seen: readonly ModelMessage[] | undefined;
  private looked = 0;
  private found = false;

  /** Whether `messages` holds a withdrawn message. */
  holds(messages: readonly ModelMessage[]): boolean {
    if (messages !== this.seen || messages.length < this.looked) {
      this.seen = messages;
      this.looked = 0;
      this.found = false;
    }
    if (!this.found)
      for (let index = this.looked; index < messages.length; index++)
        if (isWithdrawn(messages[index]!)) {
          this.found = true;
          break;
        }
    this.looked = messages.length;
    return this.found;
  }

  /** A message was marked in place: look again. */
  reset(): void {
    this.seen = undefined;
  }
}
