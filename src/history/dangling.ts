/**
 * Keeping history valid when a query stops between a tool call and its result.
 * @module
 */
import type { ModelMessage, ToolResultBlock } from "../messages/types";

/**
 * When the last message is an assistant message with tool calls, the user message that answers
 * each call with an error result (the calls were stopped or never run); otherwise `undefined`.
 */
export function closeDanglingToolUses(history: readonly ModelMessage[]): ModelMessage | undefined {
  const last = history[history.length - 1];
  if (last?.role !== "assistant") return undefined;
  const results: ToolResultBlock[] = [];
  for (const block of last.content) {
    if (block.type !== "tool_use") continue;
    results.push({
      type: "tool_result",
      tool_use_id: block.id,
      is_error: true,
      content: `The call to "${block.name}" did not complete: the query was stopped before its result was recorded.`,
    });
  }
  return results.length > 0 ? { role: "user", content: results } : undefined;
}
