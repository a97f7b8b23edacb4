/**
 * Keeping history valid when tool calls will never get a real result: every call is answered with
 * an error tool_result, so no `tool_use` is left without its `tool_result`.
 * @module
 */
import type { ModelMessage, ToolResultBlock, ToolUseBlock } from "../messages/types";

/** The user message answering each call with an error result whose text `describe` gives. */
export function errorResultsFor(
  calls: readonly ToolUseBlock[],
  describe: (call: ToolUseBlock) => string,
): ModelMessage {
  const content: ToolResultBlock[] = calls.map((call) => ({
    type: "tool_result",
    tool_use_id: call.id,
    content: describe(call),
    is_error: true,
  }));
  return { role: "user", content };
}

/**
 * When the last message is an assistant message with tool calls, the user message that answers
 * each call with an error result (the calls were stopped or never run); otherwise `undefined`.
 */
export function closeDanglingToolUses(
  history: readonly ModelMessage[],
  describe: (call: ToolUseBlock) => string = stoppedCall,
): ModelMessage | undefined {
  const last = history[history.length - 1];
  if (last?.role !== "assistant" || typeof last.content === "string") return undefined;
  const calls = last.content.filter((block): block is ToolUseBlock => block.type === "tool_use");
  if (calls.length === 0) return undefined;
  return errorResultsFor(calls, describe);
}

function stoppedCall(call: ToolUseBlock): string {
  return `The call to "${call.name}" did not complete: the query was stopped before its result was recorded.`;
}

/** The text answering a call a new prompt finds without a result (e.g. a history given to `replaceHistory`). */
export function unansweredCall(call: ToolUseBlock): string {
  return `The call to "${call.name}" has no result: the conversation went on without it.`;
}
