/**
 * The mock server's server compaction, as the Messages API does it (`compact_20260112` in
 * `context_management.edits`, beta `compact-2026-01-12`): a request whose input is over the
 * trigger is summarised first, the response opens with a `compaction` block and reports the
 * compaction's usage as a `compaction` entry of `usage.iterations` (left out of the top-level
 * usage); a later request that sends the block back is read from that block on. Blocks sent back
 * must be the server's own, byte for byte (the summary is signed). A server without context
 * management knows no `compaction` block at all.
 * @module
 */
import { createHash } from "node:crypto";
import type { CompactionBlock, Usage } from "../messages/types";
import {
  COMPACTION_BETA,
  type CompactEdit,
  MIN_SERVER_COMPACTION_TRIGGER,
} from "../model/context-management";
import { estimatePromptTokens } from "./mock-prompt-cache";

/** A compaction the server ran for one request: the block the response opens with, and its usage. */
export interface MockCompactionRun {
  readonly block: CompactionBlock;
  readonly usage: Usage;
}

/** The compaction blocks one server issued, to check the ones sent back. */
export class MockCompactionLedger {
  private readonly issued = new Map<string, string>();

  /**
   * Why the request's compaction blocks are refused — one this server never issued, or altered;
   * or any, on a server without context management — or `undefined`.
   */
  check(messages: readonly any[], supported: boolean): string | undefined {
    for (const [index, message] of messages.entries()) {
      if (!Array.isArray(message?.content)) continue;
      for (const [place, block] of (message.content as any[]).entries()) {
        if (block?.type !== "compaction") continue;
        const at = `messages.${index}.content.${place}`;
        if (!supported) return `${at}.type: unknown content block type "compaction".`;
        if (block.content === null) continue; // a failed compaction: a no-op
        if (message.role !== "assistant") return `${at}: a compaction block belongs in an assistant message.`;
        if (this.issued.get(String(block.signature)) !== signatureOf(block))
          return `${at}: the compaction block was not returned as the server sent it (its signature does not match).`;
      }
    }
    return undefined;
  }

  /** Summarises `body`'s conversation when its input is over the edit's trigger. */
  run(body: any, edit: CompactEdit): MockCompactionRun | undefined {
    const before = estimatePromptTokens(body);
    if (before <= edit.triggerTokens) return undefined;
    const messages: unknown[] = Array.isArray(body.messages) ? body.messages : [];
    const content =
      `Summary of ${messages.length} earlier messages (${before} tokens)` +
      (edit.instructions ? `, written as asked: ${edit.instructions.slice(0, 80)}` : "") +
      `. Digest ${createHash("sha256").update(JSON.stringify(messages)).digest("hex").slice(0, 16)}.`;
    const block: CompactionBlock = { type: "compaction", content, encrypted_content: null, signature: "" };
    block.encrypted_content = Buffer.from(`mock-compaction:${before}`).toString("base64");
    block.signature = createHash("sha256").update(content).update(block.encrypted_content).digest("base64");
    this.issued.set(block.signature, signatureOf(block));
    return {
      block,
      usage: { input_tokens: before, output_tokens: Math.max(1, Math.ceil(content.length / 4)) },
    };
  }
}

/** Why a `compact_20260112` edit is refused (the beta, the trigger, the model), or `undefined`. */
export function compactionRefusal(
  edit: CompactEdit,
  betas: readonly string[],
  modelCompacts: boolean,
): string | undefined {
  if (!modelCompacts) return "context_management.edits: compact_20260112 is not supported for this model.";
  if (!betas.includes(COMPACTION_BETA))
    return `context_management.edits: compact_20260112 needs the beta header "anthropic-beta: ${COMPACTION_BETA}".`;
  if (edit.triggerTokens < MIN_SERVER_COMPACTION_TRIGGER)
    return `context_management.edits: the compact_20260112 trigger must be at least ${MIN_SERVER_COMPACTION_TRIGGER} input tokens.`;
  return undefined;
}

/**
 * The conversation as the model reads it: from the last compaction block with a summary on — that
 * block as the opening user turn, then what followed it — and without failed compactions; the
 * array itself when it holds no compaction block.
 */
export function readFromLastCompaction(messages: any[]): any[] {
  const holds = (message: any) =>
    Array.isArray(message?.content) && message.content.some((block: any) => block?.type === "compaction");
  if (!messages.some(holds)) return messages;
  let from = -1;
  let place = -1;
  messages.forEach((message, index) => {
    if (!Array.isArray(message?.content)) return;
    (message.content as any[]).forEach((block, blockIndex) => {
      if (block?.type === "compaction" && typeof block.content === "string") {
        from = index;
        place = blockIndex;
      }
    });
  });
  const withoutNoOps = (message: any) =>
    holds(message)
      ? { ...message, content: message.content.filter((block: any) => block?.type !== "compaction") }
      : message;
  if (from < 0) return messages.map(withoutNoOps);
  const opening = messages[from];
  const summary = { role: "user", content: [{ type: "text", text: opening.content[place].content }] };
  const rest = { ...opening, content: opening.content.slice(place + 1) };
  return [
    summary,
    ...(rest.content.length > 0 ? [withoutNoOps(rest)] : []),
    ...messages.slice(from + 1).map(withoutNoOps),
  ];
}

/**
 * The response for a request that was compacted: the block first, the compaction in
 * `usage.iterations`; `message` itself when no compaction ran.
 */
export function withCompaction<M extends { content: any[]; usage: Usage }>(
  message: M,
  run: MockCompactionRun | undefined,
): M {
  if (!run) return message;
  const { usage } = message;
  return {
    ...message,
    content: [run.block, ...message.content],
    usage: {
      ...usage,
      iterations: [
        { type: "compaction", ...run.usage },
        { type: "message", ...usage },
      ],
    },
  };
}

/** What the signature covers: the block as the server sent it. */
function signatureOf(block: { content?: unknown; encrypted_content?: unknown }): string {
  return JSON.stringify([block.content, block.encrypted_content]);
}
