/**
 * The tool calls of a conversation, read from its history as stored: every `tool_use` block of the
 * assistant messages, in order. A subagent counts as the one call the parent made to it (its own
 * calls live in the child's history, not the parent's); `submit_output` counts like any tool.
 * @module
 */
import type { ModelMessage } from "../index";

/** The `{ name, input }` of every tool call in `messages`, in the order the model made them. */
export function toolCallsOf(messages: readonly ModelMessage[]): Array<{ name: string; input: unknown }> {
  const calls: Array<{ name: string; input: unknown }> = [];
  for (const message of messages) {
    if (message.role !== "assistant") continue;
    for (const block of message.content)
      if (block.type === "tool_use") calls.push({ name: block.name, input: block.input });
  }
  return calls;
}
