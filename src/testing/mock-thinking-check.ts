/**
 * The mock server's check of thinking blocks sent back, as the Messages API makes it: with
 * thinking on, the last assistant turn that called tools must come back with the thinking and
 * redacted-thinking blocks of the response that made those calls — the same blocks, byte for byte,
 * in the same places.
 * @module
 */
import type { ContentBlock } from "../messages/types";
import { canonicalJson } from "./mock-prompt-cache";

/** A thinking block of a response, by its place in the content and its exact content. */
interface SentThinking {
  index: number;
  key: string;
}

const EXTENDED_THINKING_DOCS = "https://docs.claude.com/en/docs/build-with-claude/extended-thinking";

/**
 * Remembers the thinking blocks of every response the server sent (by the ids of the tool calls
 * beside them, and by signature) and checks requests against them.
 */
export class ThinkingLedger {
  private readonly byToolUseId = new Map<string, SentThinking[]>();
  private readonly issued = new Set<string>();

  /** Records a response's content as sent. */
  record(content: readonly ContentBlock[]): void {
    const thinking: SentThinking[] = [];
    content.forEach((block, index) => {
      const key = thinkingKey(block);
      if (key === undefined) return;
      thinking.push({ index, key });
      this.issued.add(credentialOf(block));
    });
    for (const block of content) {
      if (block.type === "tool_use") this.byToolUseId.set(block.id, thinking);
    }
  }

  /**
   * The API's error message for a request that sends back the last tool-calling assistant turn
   * with its thinking dropped, altered (text or signature) or moved, when the request has thinking
   * on (`enabled` or `adaptive`); `undefined` when the request passes — or that turn did not come
   * from this server (nothing to compare with).
   */
  check(body: any): string | undefined {
    const mode = body?.thinking?.type;
    if (mode !== "enabled" && mode !== "adaptive") return undefined;
    const messages: unknown[] = Array.isArray(body?.messages) ? body.messages : [];
    const at = lastToolTurn(messages);
    if (at === undefined) return undefined;
    const content = (messages[at] as { content: unknown[] }).content;
    const sent = sentFor(this.byToolUseId, content);
    if (sent === undefined) return undefined;
    const received: SentThinking[] = [];
    for (const [index, block] of content.entries()) {
      const key = thinkingKey(block);
      if (key === undefined) continue;
      if (!this.issued.has(credentialOf(block))) return invalidCredential(at, index, block);
      received.push({ index, key });
    }
    if (sent.length > 0 && received.length === 0) return missingThinking(at, content);
    const length = Math.max(sent.length, received.length);
    for (let position = 0; position < length; position++) {
      const expected = sent[position];
      const actual = received[position];
      if (expected?.key === actual?.key && expected?.index === actual?.index) continue;
      const index = actual?.index ?? expected?.index ?? 0;
      return `messages.${at}.content.${index}: \`thinking\` or \`redacted_thinking\` blocks in the latest assistant message cannot be modified. These blocks must remain as they were in the original response.`;
    }
    return undefined;
  }
}

/** The index of the last assistant message holding a tool call. */
function lastToolTurn(messages: unknown[]): number | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as { role?: unknown; content?: unknown } | undefined;
    if (message?.role !== "assistant" || !Array.isArray(message.content)) continue;
    if (message.content.some((block) => (block as { type?: unknown })?.type === "tool_use")) return index;
  }
  return undefined;
}

/** The thinking the server sent with the tool calls of `content`, found by their ids. */
function sentFor(byToolUseId: Map<string, SentThinking[]>, content: unknown[]): SentThinking[] | undefined {
  for (const block of content) {
    const { type, id } = (block ?? {}) as { type?: unknown; id?: unknown };
    if (type === "tool_use" && typeof id === "string" && byToolUseId.has(id)) return byToolUseId.get(id);
  }
  return undefined;
}

/** The exact content of a thinking or redacted-thinking block (`undefined` for other blocks). */
function thinkingKey(block: unknown): string | undefined {
  const { type, thinking, signature, data } = (block ?? {}) as Record<string, unknown>;
  if (type === "thinking") return canonicalJson({ type, thinking, signature });
  if (type === "redacted_thinking") return canonicalJson({ type, data });
  return undefined;
}

/** What vouches for a block: its signature, or a redacted block's encrypted data. */
function credentialOf(block: unknown): string {
  const { type, signature, data } = (block ?? {}) as Record<string, unknown>;
  return type === "redacted_thinking" ? `data:${String(data)}` : `signature:${String(signature)}`;
}

function invalidCredential(at: number, index: number, block: unknown): string {
  return (block as { type?: unknown }).type === "redacted_thinking"
    ? `messages.${at}.content.${index}: Invalid \`data\` in \`redacted_thinking\` block`
    : `messages.${at}.content.${index}: Invalid \`signature\` in \`thinking\` block`;
}

function missingThinking(at: number, content: unknown[]): string {
  const found = String((content[0] as { type?: unknown } | undefined)?.type ?? "nothing");
  return `messages.${at}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${found}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at ${EXTENDED_THINKING_DOCS}`;
}
