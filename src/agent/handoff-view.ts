/**
 * What a specialist's requests carry of history (`defineHandoff({ history })`), for the agent
 * answering now: the latest handoff to it (recorded in history, `meta.handoff`) names the transfer
 * call its view starts from; `"summary"` opens with a plain-text transcript of what came before
 * (no model call). The shaping itself, and its well-formedness, is `filterHandoffHistory`'s.
 * @module
 */
import { renderTranscript } from "../compaction/transcript";
import { latestHandoffTo } from "../history/handoff-record";
import { filterHandoffHistory, messagesBeforeHandoff, TRANSFER_TOOL_PREFIX } from "../loop/handoff-history";
import type { HandoffHistoryForm } from "../loop/state/loop-config";
import type { ModelMessage } from "../messages/types";

/** The longest transcript a `"summary"` request opens with, in characters. */
export const HANDOFF_SUMMARY_MAX_CHARS = 20_000;

/** The view of `agent`'s requests for `form`; undefined for `"full"` (history as it is). */
export function handoffHistoryView(
  agent: string,
  form: HandoffHistoryForm | undefined,
): ((messages: ModelMessage[]) => ModelMessage[]) | undefined {
  if (form === undefined || form === "full") return undefined;
  return (messages) => {
    const at = latestHandoffTo(messages, agent);
    // Not (yet) handed to: a named form leaves the requests as they are.
    if (at < 0 && typeof form !== "function") return messages;
    const transferCallId = at >= 0 ? transferCallOf(messages, at) : undefined;
    const summary =
      form === "summary" ? summaryOf(messagesBeforeHandoff(messages, { transferCallId })) : undefined;
    return filterHandoffHistory(messages, form, { transferCallId, summary, handoff: agent });
  };
}

/** The id of the transfer call whose result the message at `at` holds (the handoff it records). */
function transferCallOf(messages: readonly ModelMessage[], at: number): string | undefined {
  const results = messages[at]!;
  const call = messages[at - 1];
  if (results.role !== "user" || typeof results.content === "string" || call?.role !== "assistant")
    return undefined;
  const answered = new Set(
    results.content.flatMap((block) => (block.type === "tool_result" ? [block.tool_use_id] : [])),
  );
  for (const block of call.content)
    if (block.type === "tool_use" && block.name.startsWith(TRANSFER_TOOL_PREFIX) && answered.has(block.id))
      return block.id;
  return undefined;
}

function summaryOf(before: readonly ModelMessage[]): string | undefined {
  if (before.length === 0) return undefined;
  const transcript = renderTranscript(before, { maxChars: HANDOFF_SUMMARY_MAX_CHARS });
  return `The conversation was handed over to you. What was said before the handoff:\n\n${transcript}\n\nThe latest request:`;
}
