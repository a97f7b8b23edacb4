/**
 * A run as the judge reads it: the prompts, the agent's text, each tool call with its input and
 * (shortened) result, the final answer, and the workspace's files when the case has expectations on them.
 * @module
 */
import type { EvalRun } from "../types";

const RESULT_CHARS = 1_500;

/** The run's conversation as plain text. */
export function transcriptOf(run: EvalRun): string {
  const lines: string[] = [];
  for (const message of run.messages) {
    if (typeof message.content === "string") {
      lines.push(`${message.role === "user" ? "User" : "Assistant"}: ${message.content}`);
      continue;
    }
    for (const block of message.content) {
      if (block.type === "text")
        lines.push(`${message.role === "user" ? "User" : "Assistant"}: ${block.text}`);
      else if (block.type === "tool_use")
        lines.push(`Tool call ${block.name}: ${JSON.stringify(block.input)}`);
      else if (block.type === "tool_result")
        lines.push(`Tool result${block.is_error ? " (error)" : ""}: ${shorten(resultText(block.content))}`);
    }
  }
  lines.push(`Final answer: ${run.output}`);
  return lines.join("\n");
}

function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: { type?: string; text?: string }) =>
      part.type === "text" ? (part.text ?? "") : `[${part.type}]`,
    )
    .join("\n");
}

function shorten(text: string): string {
  return text.length > RESULT_CHARS
    ? `${text.slice(0, RESULT_CHARS)}… (${text.length - RESULT_CHARS} more characters)`
    : text;
}
