/**
 * The server's history of a conversation as UI messages (the shape `useChat` takes as its initial
 * `messages`): user prompts as user messages, and each answer — its model turns, tool calls and
 * results until the next prompt — as one assistant message, the way the live stream built it.
 * @module
 */
import type { ContentBlock, ModelMessage } from "../index";

/** A part of a UI message (a subset of the AI SDK's `UIMessagePart`). */
export type UIMessagePartShape = { type: string; [key: string]: unknown };

/** A UI message (the AI SDK's `UIMessage` shape). */
export interface UIMessageShape {
  id: string;
  role: "user" | "assistant";
  parts: UIMessagePartShape[];
  metadata?: Record<string, unknown>;
}

/** Options of {@link historyToUIMessages}. */
export interface HistoryToUIOptions {
  /** The id prefix of the messages (each message is `<prefix><index of its first history message>`). @default "h" */
  idPrefix?: string;
  /**
   * Whether no run is live on the conversation: then an answer the history leaves unfinished (the
   * server stopped mid-run) gets `metadata.end = "interrupted"`, so the page shows a clear end.
   */
  idle?: boolean;
}

/** Converts a history into UI messages. */
export function historyToUIMessages(
  history: readonly ModelMessage[],
  options: HistoryToUIOptions = {},
): UIMessageShape[] {
  const prefix = options.idPrefix ?? "h";
  const messages: UIMessageShape[] = [];
  const tools = new Map<string, UIMessagePartShape>();
  let answer: UIMessageShape | undefined;
  history.forEach((message, index) => {
    if (message.role === "assistant") {
      if (answer === undefined) {
        answer = { id: `${prefix}${index}`, role: "assistant", parts: [] };
        messages.push(answer);
      }
      answer.parts.push({ type: "step-start" });
      for (const block of message.content) addBlock(answer, block, tools);
      return;
    }
    const pending = (message as { pending_approvals?: Array<{ tool_use_id: string }> }).pending_approvals;
    if (Array.isArray(pending)) {
      for (const call of pending) {
        const part = tools.get(call.tool_use_id);
        if (part) Object.assign(part, { state: "approval-requested", approval: { id: call.tool_use_id } });
      }
      // The questions waiting for an answer, as the live stream sent them (`data-input` parts).
      const inputs = (message as { pending_inputs?: Array<{ id: string }> }).pending_inputs;
      const waiting = Array.isArray(inputs) ? inputs : [];
      // An MCP server's authorization pauses before any answer: the parts start the answer.
      if (waiting.length > 0 && answer === undefined) {
        answer = { id: `${prefix}${index}`, role: "assistant", parts: [] };
        messages.push(answer);
      }
      for (const input of waiting)
        answer?.parts.push({ type: "data-input", id: input.id, data: structuredClone(input) });
      return;
    }
    const blocks = typeof message.content === "string" ? [] : message.content;
    if (blocks.some((block) => block.type === "tool_result")) {
      for (const block of blocks) if (block.type === "tool_result") addResult(block, tools);
      const handoff = message.meta?.handoff;
      if (handoff && answer)
        answer.parts.push({
          type: "data-handoff",
          id: `handoff-${index}`,
          data: { from: handoff.from, to: handoff.to },
        });
      return;
    }
    const text = typeof message.content === "string" ? message.content : textOf(blocks);
    answer = undefined;
    messages.push({ id: `${prefix}${index}`, role: "user", parts: [{ type: "text", text }] });
  });
  if (options.idle && unfinished(history)) {
    const last = messages.at(-1);
    if (last?.role === "assistant") last.metadata = { end: "interrupted" };
  }
  return messages;
}

function addBlock(answer: UIMessageShape, block: ContentBlock, tools: Map<string, UIMessagePartShape>): void {
  if (block.type === "text") answer.parts.push({ type: "text", text: block.text, state: "done" });
  else if (block.type === "thinking")
    answer.parts.push({ type: "reasoning", text: block.thinking, state: "done" });
  else if (block.type === "tool_use") {
    const part = {
      type: "dynamic-tool",
      toolName: block.name,
      toolCallId: block.id,
      state: "input-available",
      input: block.input,
    };
    tools.set(block.id, part);
    answer.parts.push(part);
  }
}

function addResult(
  block: Extract<ContentBlock, { type: "tool_result" }>,
  tools: Map<string, UIMessagePartShape>,
): void {
  const part = tools.get(block.tool_use_id);
  if (part === undefined) return;
  const text = typeof block.content === "string" ? block.content : textOf(block.content);
  delete part.approval;
  if (block.is_error) Object.assign(part, { state: "output-error", errorText: text });
  else Object.assign(part, { state: "output-available", output: text });
}

function textOf(blocks: readonly ContentBlock[]): string {
  return blocks
    .filter((block): block is Extract<ContentBlock, { type: "text" }> => block.type === "text")
    .map((block) => block.text)
    .join("\n");
}

/** Whether the history ends in the middle of an answer: not with a final response or a pause. */
function unfinished(history: readonly ModelMessage[]): boolean {
  const last = history.at(-1);
  if (last === undefined) return false;
  if (last.role === "user")
    return !Array.isArray((last as { pending_approvals?: unknown }).pending_approvals);
  return last.content.some((block) => block.type === "tool_use");
}
