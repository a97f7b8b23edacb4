/** Short builders and readers of messages and content blocks: tool calls, their results, user turns. */
import type { ModelMessage, ToolResultBlock, ToolUseBlock } from "../../src/index";

/** A user message with text content. */
export function user(text: string): ModelMessage {
  return { role: "user", content: text };
}

/** A tool_use block. */
export function toolUse(id: string, name: string, input: unknown = {}): ToolUseBlock {
  return { type: "tool_use", id, name, input };
}

/** Every tool_result block of a history, in order. */
export function toolResults(history: readonly ModelMessage[]): ToolResultBlock[] {
  const results: ToolResultBlock[] = [];
  for (const message of history) {
    if (message.role !== "user" || typeof message.content === "string") continue;
    for (const block of message.content) if (block.type === "tool_result") results.push(block);
  }
  return results;
}

/** The tool_result answering `toolUseId`; throws when there is none. */
export function resultFor(history: readonly ModelMessage[], toolUseId: string): ToolResultBlock {
  const block = toolResults(history).find((candidate) => candidate.tool_use_id === toolUseId);
  if (!block) throw new Error(`no tool_result for ${toolUseId}`);
  return block;
}

/** Text of a tool result's content; an image part reads as nothing. */
export function resultText(block: ToolResultBlock): string {
  return partsText(block, "");
}

/** Text of a tool result's content; an image part reads as `[image]`. */
export function textOf(block: ToolResultBlock): string {
  return partsText(block, "[image]");
}

function partsText(block: ToolResultBlock, image: string): string {
  return typeof block.content === "string"
    ? block.content
    : block.content.map((part) => (part.type === "text" ? part.text : image)).join("");
}
