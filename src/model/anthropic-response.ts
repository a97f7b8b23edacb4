/**
 * The response half of the built-in Anthropic client: a Messages API response (JSON, or the
 * pieces of a stream) becomes an {@link AssistantModelMessage}.
 * @module
 */
import { readUsage, toUsage } from "../messages/reported-usage";
import type { AssistantModelMessage, ContentBlock } from "../messages/types";
import { readAppliedEdits } from "./context-management";
import { readCompactionUsage } from "./server-compaction";

/** The fields of a Messages API response the client reads. */
export interface AnthropicResponseBody {
  id?: unknown;
  model?: unknown;
  content?: unknown;
  stop_reason?: unknown;
  stop_sequence?: unknown;
  usage?: unknown;
  context_management?: unknown;
}

/** Converts a non-streaming response body into the assistant message the loop records. */
export function toAssistantMessage(response: AnthropicResponseBody): AssistantModelMessage {
  const content = Array.isArray(response.content)
    ? response.content.map((block) => toContentBlock(block))
    : [];
  const message: AssistantModelMessage = {
    role: "assistant",
    content,
    stop_reason: typeof response.stop_reason === "string" ? response.stop_reason : null,
  };
  const stopSequence = readStopSequence(response.stop_sequence);
  if (stopSequence !== undefined) message.stop_sequence = stopSequence;
  const usage = readUsage(response.usage);
  if (usage) message.usage = toUsage(usage);
  if (typeof response.id === "string" && response.id) message.providerResponseId = response.id;
  if (typeof response.model === "string" && response.model) message.model = response.model;
  const applied = readAppliedEdits(response.context_management);
  if (applied) message.meta = { context_management: { applied_edits: applied } };
  const compactionUsage = readCompactionUsage(response.usage);
  if (compactionUsage) message.meta = { ...message.meta, compaction_usage: compactionUsage };
  return message;
}

/** The stop sequence a response reports as matched: a non-empty string, else `undefined` (none matched). */
export function readStopSequence(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

/**
 * Keeps the fields of a content block that belong in history: `text` (+ non-empty `citations`),
 * `tool_use` (`id`, `name`, `input`), `thinking` (+ `signature`), `redacted_thinking` (`data`).
 * Other block types (server tools, server compaction's `compaction` …) are kept whole, since the
 * API wants them back verbatim.
 */
export function toContentBlock(block: unknown): ContentBlock {
  const source = (typeof block === "object" && block !== null ? block : {}) as Record<string, unknown>;
  switch (source.type) {
    case "text": {
      const text = { type: "text", text: typeof source.text === "string" ? source.text : "" } as ContentBlock;
      if (Array.isArray(source.citations) && source.citations.length > 0) {
        (text as Record<string, unknown>).citations = source.citations;
      }
      return text;
    }
    case "tool_use":
      return {
        type: "tool_use",
        id: String(source.id ?? ""),
        name: String(source.name ?? ""),
        input: source.input ?? {},
      };
    case "thinking":
      return {
        type: "thinking",
        thinking: typeof source.thinking === "string" ? source.thinking : "",
        signature: typeof source.signature === "string" ? source.signature : "",
      };
    case "redacted_thinking":
      return { type: "redacted_thinking", data: typeof source.data === "string" ? source.data : "" };
    default:
      return { ...source } as ContentBlock;
  }
}
