/**
 * Where compaction cuts a history: the messages before the cut are summarised, the ones from the cut
 * on are kept verbatim, and the cut never separates a tool call from its result.
 * @module
 */
import type { ModelMessage } from "../messages/types";

/**
 * The index where the kept tail of `messages` starts; everything before it is to be summarised.
 *
 * The cut starts at `messages.length - keepRecentMessages` and moves earlier until it is safe:
 * - no `tool_result` in the kept part answers a `tool_use` in the summarised part (so no call in
 *   the summarised part is answered in the kept part), and
 * - the kept part does not start with a user message carrying `tool_result` blocks.
 *
 * `keepRecentMessages = 0` summarises everything (the kept part is empty). Returns `undefined` when
 * no safe cut leaves at least one message to summarise — compaction is then skipped — which
 * includes `keepRecentMessages >= messages.length`.
 *
 * Runs in time linear in the number of messages: the tool call ids are collected once, then the
 * candidate cuts are walked from the end of the history backwards.
 *
 * @throws RangeError when `keepRecentMessages` is not a non-negative integer.
 */
export function findCompactionCut(
  messages: readonly ModelMessage[],
  keepRecentMessages: number,
): number | undefined {
  if (!Number.isInteger(keepRecentMessages) || keepRecentMessages < 0) {
    throw new RangeError(`keepRecentMessages must be a non-negative integer, got ${keepRecentMessages}`);
  }
  const target = messages.length - keepRecentMessages;
  if (target < 1) return undefined;
  const toolUseIds = collectToolUseIds(messages);
  // Ids of tool_results in the kept part whose tool_use has not entered the kept part yet.
  const resultsMissingTheirCall = new Set<string>();
  for (let cut = messages.length; cut >= 1; cut -= 1) {
    const firstKept = messages[cut];
    if (firstKept !== undefined) moveIntoKeptPart(firstKept, toolUseIds, resultsMissingTheirCall);
    const safe = resultsMissingTheirCall.size === 0 && !carriesToolResults(firstKept);
    if (cut <= target && safe) return cut;
  }
  return undefined;
}

function collectToolUseIds(messages: readonly ModelMessage[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) {
    if (message.role !== "assistant") continue;
    for (const block of message.content) if (block.type === "tool_use") ids.add(block.id);
  }
  return ids;
}

/**
 * Updates the open results as `message` joins the front of the kept part. A result whose call
 * exists nowhere in the history cannot be separated from it, so it never holds the cut back.
 */
function moveIntoKeptPart(
  message: ModelMessage,
  toolUseIds: ReadonlySet<string>,
  resultsMissingTheirCall: Set<string>,
): void {
  if (typeof message.content === "string") return;
  for (const block of message.content) {
    if (block.type === "tool_result" && toolUseIds.has(block.tool_use_id)) {
      resultsMissingTheirCall.add(block.tool_use_id);
    }
  }
  for (const block of message.content) {
    if (block.type === "tool_use") resultsMissingTheirCall.delete(block.id);
  }
}

function carriesToolResults(message: ModelMessage | undefined): boolean {
  if (message === undefined || message.role !== "user" || typeof message.content === "string") return false;
  return message.content.some((block) => block.type === "tool_result");
}
