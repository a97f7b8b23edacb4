/**
 * What a prompt adds to history, checked against it: a prompt may answer the calls the history
 * left without results (tool_result blocks), and only those; the calls it does not answer are
 * answered with an error result in the same message — the API wants every call of a message
 * answered in the very next one.
 * @module
 */
import { InvalidOptionError } from "../errors";
import { closeDanglingToolUses, unansweredCall } from "../history/dangling";
import type { ContentBlock, ModelMessage, ToolResultBlock, ToolUseBlock } from "../messages/types";

/**
 * The messages the prompt `content` adds after `history`: its user message, after the answers to
 * the calls left dangling (in it, when the prompt answers some of them itself).
 * @throws InvalidOptionError when the prompt answers a call that is not awaiting its result, or one twice
 */
export function promptMessages(
  history: readonly ModelMessage[],
  content: string | ContentBlock[],
): ModelMessage[] {
  const unanswered = closeDanglingToolUses(history, unansweredCall);
  const given = typeof content === "string" ? [] : content.filter(isToolResult);
  if (given.length === 0)
    return unanswered ? [unanswered, { role: "user", content }] : [{ role: "user", content }];
  const awaited = danglingCalls(history);
  const seen = new Set<string>();
  for (const result of given) {
    if (!awaited.has(result.tool_use_id)) {
      throw new InvalidOptionError(
        `The prompt holds a tool_result for ${result.tool_use_id}, which is no tool call of the history awaiting its result: the Messages API would refuse it.`,
      );
    }
    if (seen.has(result.tool_use_id))
      throw new InvalidOptionError(`The prompt answers the tool call ${result.tool_use_id} twice.`);
    seen.add(result.tool_use_id);
  }
  const blocks = content as ContentBlock[];
  const others = ((unanswered?.content ?? []) as ToolResultBlock[]).filter(
    (result) => !seen.has(result.tool_use_id),
  );
  // Results first (the API's rule), the calls the prompt left unanswered answered too.
  return [
    { role: "user", content: [...others, ...given, ...blocks.filter((block) => !isToolResult(block))] },
  ];
}

function isToolResult(block: ContentBlock): block is ToolResultBlock {
  return block.type === "tool_result";
}

/** The calls of the last message when it is an assistant message with calls. */
function danglingCalls(history: readonly ModelMessage[]): Map<string, ToolUseBlock> {
  const last = history[history.length - 1];
  const calls = new Map<string, ToolUseBlock>();
  if (last?.role !== "assistant") return calls;
  for (const block of last.content) if (block.type === "tool_use") calls.set(block.id, block);
  return calls;
}
