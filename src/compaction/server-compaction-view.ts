/**
 * History after the provider's server compaction, for a request that cannot hand the `compaction`
 * block back to the provider (a provider without it, our own compaction, a count): the provider
 * reads a conversation from its last compaction block on, so that is what such a request carries —
 * the block's summary as a user message (wrapped like our own summary), then what followed it.
 * @module
 */
import type { CompactionBlock, ContentBlock, ModelMessage } from "../messages/types";
import { wrapSummary } from "./prompt";

/** Where the last usable compaction is: the message, and the block's place in it. */
interface CompactionPlace {
  readonly messageIndex: number;
  readonly blockIndex: number;
  readonly summary: string;
}

/**
 * The last compaction block with a summary (`content` not `null`; a failed compaction is a no-op,
 * as for the provider), or `undefined` when history has none.
 */
export function lastServerCompaction(messages: readonly ModelMessage[]): CompactionPlace | undefined {
  for (let messageIndex = messages.length - 1; messageIndex >= 0; messageIndex--) {
    const message = messages[messageIndex]!;
    if (message.role !== "assistant") continue;
    for (let blockIndex = message.content.length - 1; blockIndex >= 0; blockIndex--) {
      const block = message.content[blockIndex]!;
      if (block.type === "compaction" && typeof block.content === "string")
        return { messageIndex, blockIndex, summary: block.content };
    }
  }
  return undefined;
}

/** Whether any message holds a `compaction` block (a summary, or a failed compaction's no-op). */
export function hasServerCompaction(messages: readonly ModelMessage[]): boolean {
  return messages.some(holdsCompactionBlock);
}

/** Whether one message holds a `compaction` block. */
export function holdsCompactionBlock(message: ModelMessage): boolean {
  return Array.isArray(message.content) && message.content.some(isCompaction);
}

/**
 * `messages` as a provider without server compaction must read them: from the last compaction on,
 * its summary as a user message, and no `compaction` block anywhere. The messages themselves when
 * there is no compaction block (the same array). Consecutive user messages are merged, so the
 * result alternates as the API requires.
 */
export function withoutServerCompaction(messages: ModelMessage[]): ModelMessage[] {
  if (!hasServerCompaction(messages)) return messages;
  const place = lastServerCompaction(messages);
  const view: ModelMessage[] = [];
  let from = 0;
  if (place) {
    const opening = messages[place.messageIndex]!;
    view.push({ role: "user", content: [{ type: "text", text: wrapSummary(place.summary) }] });
    const rest = (opening.content as ContentBlock[]).slice(place.blockIndex + 1);
    if (rest.length > 0) view.push({ ...opening, content: rest } as ModelMessage);
    from = place.messageIndex + 1;
  }
  for (const message of messages.slice(from)) push(view, stripped(message));
  return view;
}

/** A message without its `compaction` blocks (failed ones, or older than the last summary). */
function stripped(message: ModelMessage): ModelMessage {
  if (typeof message.content === "string" || !message.content.some(isCompaction)) return message;
  return { ...message, content: message.content.filter((block) => !isCompaction(block)) } as ModelMessage;
}

/** Appends `message`, merged into the last one when both are user messages; skips an emptied one. */
function push(view: ModelMessage[], message: ModelMessage): void {
  if (Array.isArray(message.content) && message.content.length === 0) return;
  const last = view.at(-1);
  if (last?.role !== "user" || message.role !== "user") {
    view.push(message);
    return;
  }
  view[view.length - 1] = { ...last, content: [...blocksOf(last.content), ...blocksOf(message.content)] };
}

function blocksOf(content: string | ContentBlock[]): ContentBlock[] {
  return typeof content === "string" ? [{ type: "text", text: content }] : content;
}

function isCompaction(block: ContentBlock): block is CompactionBlock {
  return block.type === "compaction";
}
