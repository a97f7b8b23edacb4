/**
 * What a handoff's specialist sees of the conversation in its requests (`defineHandoff`'s
 * `history`): `"full"` — everything; `"none"` — the prompt that led to the handoff and what
 * followed it; `"summary"` — the same, opened by a plain-text transcript of what came before; or a
 * function of the messages. Stored history is never changed: this shapes one request's copy. Pure.
 * @module
 */
import { renderTranscript } from "../compaction/transcript";
import { latestHandoffTo } from "../history/handoff-record";
import type { ContentBlock, ModelMessage, UserModelMessage } from "../messages/types";
import type { HandoffHistoryForm } from "./state/loop-config";

export type { HandoffHistoryForm };

/** The longest transcript a `"summary"` request opens with, in characters. */
export const HANDOFF_SUMMARY_MAX_CHARS = 20_000;

/**
 * The messages a request of `agent` carries, by `form`, from `messages` (history as it would be
 * sent otherwise). With `"none"` and `"summary"`, the conversation before the latest handoff to
 * `agent` becomes one user message — the prompt that led to it (its tool results left out), after
 * the transcript with `"summary"` — followed by every message after the handoff: the request opens
 * with a user turn and no tool result is left without its call. Without a handoff to `agent` in
 * `messages` (the root agent), every form but a function sends them as they are. A function is
 * handed a deep copy, so nothing it does reaches history.
 */
export function filterHandoffHistory(
  messages: ModelMessage[],
  form: HandoffHistoryForm,
  agent: string,
): ModelMessage[] {
  if (typeof form === "function") return form(structuredClone(messages));
  if (form === "full") return messages;
  const at = latestHandoffTo(messages, agent);
  if (at < 0) return messages;
  const before = messages.slice(0, at + 1);
  const prompt = promptBefore(messages, at);
  const opening: ContentBlock[] =
    form === "summary"
      ? [{ type: "text", text: summaryOf(before) }, ...prompt]
      : prompt.length > 0
        ? prompt
        : [{ type: "text", text: "The conversation was handed over to you." }];
  const after = messages.slice(at + 1);
  const first = after[0];
  if (first?.role === "user") {
    const blocks: ContentBlock[] =
      typeof first.content === "string" ? [{ type: "text", text: first.content }] : first.content;
    return [{ role: "user", content: [...opening, ...blocks] }, ...after.slice(1)];
  }
  return [{ role: "user", content: opening }, ...after];
}

/** The content of the latest user prompt before index `at` (tool results left out), as blocks. */
function promptBefore(messages: readonly ModelMessage[], at: number): ContentBlock[] {
  for (let index = at; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== "user") continue;
    const blocks = contentBlocks(message).filter((block) => block.type !== "tool_result");
    if (blocks.length > 0) return blocks;
  }
  return [];
}

function contentBlocks(message: UserModelMessage): ContentBlock[] {
  return typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
}

function summaryOf(before: readonly ModelMessage[]): string {
  const transcript = renderTranscript(before, { maxChars: HANDOFF_SUMMARY_MAX_CHARS });
  return `The conversation was handed over to you. What was said before the handoff:\n\n${transcript}\n\nThe latest request:`;
}
