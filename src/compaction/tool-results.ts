/**
 * Condensing one oversized tool result before it enters history: its size, the summarising
 * request, and the text that takes its place.
 * @module
 */
import type { ImageBlock, ModelMessage, TextBlock, ToolResultBlock } from "../messages/types";
import { inputAsJson } from "./transcript";
import { capForBudget, DEFAULT_SUMMARY_INPUT_MAX_CHARS, truncateMiddle } from "./truncate";

/** Options of {@link buildToolResultSummaryMessages}. */
export interface ToolResultSummaryOptions {
  /**
   * Budget of the tool input and output texts in the request, in characters; beyond it the
   * longest texts are shortened in the middle (the model is told how much was left out).
   * @default DEFAULT_SUMMARY_INPUT_MAX_CHARS (300000)
   */
  maxChars?: number;
}

/**
 * The size of a tool result in characters of text: the string's length, or the summed lengths of
 * its text blocks. Images count for nothing, since a text summary cannot make them smaller.
 */
export function toolResultChars(content: ToolResultBlock["content"]): number {
  if (typeof content === "string") return content.length;
  let total = 0;
  for (const block of content) if (block.type === "text") total += block.text.length;
  return total;
}

/**
 * The messages of the request that condenses one tool result: one user message stating the tool's
 * name and input, then its output between `<tool_output>` tags (text and images as they are), then
 * `prompt` verbatim as a text block of its own.
 */
export function buildToolResultSummaryMessages(
  toolName: string,
  input: unknown,
  content: ToolResultBlock["content"],
  prompt: string,
  options: ToolResultSummaryOptions = {},
): ModelMessage[] {
  const output: Array<TextBlock | ImageBlock> =
    typeof content === "string" ? [{ type: "text", text: content }] : [...content];
  const inputJson = inputAsJson(input);
  const textLengths = [
    inputJson.length,
    ...output.flatMap((block) => (block.type === "text" ? [block.text.length] : [])),
  ];
  const cap = capForBudget(textLengths, options.maxChars ?? DEFAULT_SUMMARY_INPUT_MAX_CHARS);
  const header = `The tool ${toolName} was called with this input:\n${truncateMiddle(inputJson, cap)}\n\nIts output follows.\n<tool_output>`;
  return [
    {
      role: "user",
      content: [
        { type: "text", text: header },
        ...output.map((block) =>
          block.type === "text" ? { ...block, text: truncateMiddle(block.text, cap) } : block,
        ),
        { type: "text", text: "</tool_output>" },
        { type: "text", text: prompt },
      ],
    },
  ];
}

/**
 * The text that replaces an oversized tool result in history: a note that the original output was
 * `originalChars` characters long and has been summarised, followed by the summary.
 */
export function formatCompactedToolResult(summary: string, originalChars: number): string {
  return (
    `[The original output of this tool call was ${originalChars} characters long and has been summarised ` +
    "to save context; the full text is no longer available. Call the tool again, with a narrower request " +
    "where possible, if the exact text is needed.]\n\n" +
    summary
  );
}
