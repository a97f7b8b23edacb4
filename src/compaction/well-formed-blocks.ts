/**
 * The rules of {@link findHistoryProblem} about single blocks and about the provider's own tool
 * calls: which role may hold which kind of block, thinking that keeps its signature, no empty
 * message or blank text, and server-tool calls (`server_tool_use`) kept with their results.
 * @module
 */
import { isBlankText } from "../messages/blank-text";
import type { ContentBlock, ModelMessage } from "../messages/types";

/** Kinds of block only an assistant message may hold (besides the provider's `*_tool_result` blocks). */
const ASSISTANT_ONLY = new Set([
  "tool_use",
  "thinking",
  "redacted_thinking",
  "server_tool_use",
  "mcp_tool_use",
  "compaction",
]);

/**
 * Whether `block` is a call of a tool the provider runs itself (`server_tool_use`, or the MCP
 * connector's `mcp_tool_use`): its result follows it in the assistant's turn.
 */
export function isProviderToolCall(block: { type: string }): block is { type: string; id: string } {
  return block.type === "server_tool_use" || block.type === "mcp_tool_use";
}

/**
 * Whether `block` is the result of a tool the provider ran itself (`tool_search_tool_result`,
 * `web_search_tool_result`, …): it sits in the assistant message beside its `server_tool_use`.
 */
export function isServerToolResult(block: { type: string }): boolean {
  return block.type !== "tool_result" && block.type.endsWith("_tool_result");
}

/** Whether `block` may only appear in an assistant message. */
export function isAssistantOnlyBlock(block: { type: string }): boolean {
  return ASSISTANT_ONLY.has(block.type) || isServerToolResult(block);
}

/**
 * The first block-level problem of message `index`: a block in the wrong role, thinking without
 * its signature, blank text, or no content at all (allowed only for the last message when it is an
 * assistant message — a prefill the API accepts).
 */
export function findBlockProblem(message: ModelMessage, index: number, isLast: boolean): string | undefined {
  const { role, content } = message;
  if (typeof content === "string") {
    return /\S/.test(content) ? undefined : `message ${index} has empty content`;
  }
  if (content.length === 0 && !(isLast && role === "assistant")) return `message ${index} has empty content`;
  for (const [at, block] of content.entries()) {
    if (typeof block.type !== "string") return `message ${index} has a block ${at} without a type`;
    if (role === "user" && isAssistantOnlyBlock(block))
      return `message ${index} is a user message holding a ${block.type} block`;
    if (role === "assistant" && block.type === "tool_result")
      return `message ${index} is an assistant message holding a tool_result`;
    if (isBlankText(block)) return `message ${index} has a blank text block ${at}`;
    if (block.type === "thinking" && typeof block.signature !== "string")
      return `message ${index} has a thinking block ${at} without its signature`;
    if (block.type === "redacted_thinking" && typeof block.data !== "string")
      return `message ${index} has a redacted_thinking block ${at} without its data`;
  }
  return undefined;
}

/**
 * The first problem with the provider's own tool calls: a `server_tool_use` id used twice, a
 * server-tool result whose call is not before it in the same assistant turn (consecutive assistant
 * messages, which the API joins), or a call left without its result in a turn that a user message
 * follows. Only the last turn may end with a call awaiting its result (a `pause_turn` to continue).
 * The MCP connector's `mcp_tool_use` counts as such a call.
 */
export function findServerToolProblem(messages: readonly ModelMessage[]): string | undefined {
  const seen = new Set<string>();
  let open = new Map<string, number>();
  for (const [index, message] of messages.entries()) {
    if (message.role === "user") {
      const [id, at] = open.entries().next().value ?? [];
      if (id !== undefined) return `message ${at} has a server_tool_use ${id} without its result`;
      open = new Map();
      continue;
    }
    for (const block of message.content as ContentBlock[]) {
      if (isProviderToolCall(block)) {
        if (seen.has(block.id)) return `message ${index} repeats the ${block.type} id ${block.id}`;
        seen.add(block.id);
        open.set(block.id, index);
      } else if (isServerToolResult(block)) {
        const id = (block as { tool_use_id?: unknown }).tool_use_id;
        if (typeof id !== "string" || !open.delete(id))
          return `message ${index} has a ${block.type} for ${String(id)}, which no server_tool_use before it in its turn called`;
      }
    }
  }
  return undefined;
}
