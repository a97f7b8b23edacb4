/**
 * Applying the `redact` verdicts of a stage: every text the content holds — a string, the text of
 * text blocks and tool results, each string of a tool call's input — passed through each redaction
 * in the agent's order. New values; what was given is not changed.
 * @module
 */
import type { ContentBlock } from "../messages/types";
import type { Redaction } from "./run-guardrails";

/** `text` through every redaction. */
export function redactText(text: string, redactions: readonly Redaction[]): string {
  let out = text;
  for (const { redact } of redactions) out = redact(out);
  return out;
}

/** A prompt's or a message's content with its texts redacted. */
export function redactContent<C extends string | readonly ContentBlock[]>(
  content: C,
  redactions: readonly Redaction[],
): C {
  if (typeof content === "string") return redactText(content, redactions) as C;
  return (content as readonly ContentBlock[]).map((block) => redactBlock(block, redactions)) as unknown as C;
}

function redactBlock(block: ContentBlock, redactions: readonly Redaction[]): ContentBlock {
  switch (block.type) {
    case "text":
      return { ...block, text: redactText(block.text, redactions) };
    case "tool_use":
      return { ...block, input: redactValue(block.input, redactions) };
    case "tool_result":
      return {
        ...block,
        content:
          typeof block.content === "string"
            ? redactText(block.content, redactions)
            : block.content.map((part) =>
                part.type === "text" ? { ...part, text: redactText(part.text, redactions) } : part,
              ),
      };
    default:
      return block;
  }
}

/** Every string of a JSON value (a tool call's input) redacted. */
export function redactValue(value: unknown, redactions: readonly Redaction[]): unknown {
  if (typeof value === "string") return redactText(value, redactions);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, redactions));
  if (typeof value === "object" && value !== null) {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[key] = redactValue(item, redactions);
    return copy;
  }
  return value;
}

/** The text a guardrail checks in content: strings and text blocks, joined by a blank line. */
export function textOfContent(content: string | readonly ContentBlock[]): string {
  if (typeof content === "string") return content;
  const texts: string[] = [];
  for (const block of content) {
    if (block.type === "text") texts.push(block.text);
    else if (block.type === "tool_result")
      texts.push(typeof block.content === "string" ? block.content : textOfContent(block.content));
  }
  return texts.join("\n\n");
}
