/**
 * Making a list of history messages well-formed again after a cut or a filter took parts of it
 * away: what a handoff's `history` function returns, for one. Nothing is invented — the repair only
 * drops what the Messages API would refuse, and moves tool results before the other blocks of
 * their message.
 * @module
 */
import { isApprovalMarker } from "../messages/approvals";
import { isBlankText } from "../messages/blank-text";
import type { ContentBlock, ModelMessage } from "../messages/types";
import { isAssistantOnlyBlock, isProviderToolCall, isServerToolResult } from "./well-formed-blocks";

/** What {@link repairWellFormed} returns. */
export interface WellFormedRepair {
  /** The repaired messages; messages that needed no change are the input's own objects. */
  messages: ModelMessage[];
  /** How many blocks and messages were dropped (0: the input was well-formed already). */
  dropped: number;
}

/**
 * Repairs `messages` (each a message object with a user or assistant role and content of the right
 * kind, as `findHistoryProblem`'s shape rules say — check that first) so that they satisfy every
 * rule of `findHistoryProblem`, by dropping:
 * - pause markers (never sent to a model) and messages before the first user message;
 * - `tool_result` blocks that answer no `tool_use` of the message right before them, or answer one
 *   twice, and `tool_use` blocks (a repeated id included) not answered in the message right after
 *   them — unless in the last message;
 * - provider tool results without their `server_tool_use` before them in the turn, and
 *   `server_tool_use` blocks left without a result in a turn a user message follows;
 * - blocks of the other role's kinds, thinking without its signature, blank text blocks, then
 *   messages left empty, and assistant messages left with nothing but thinking.
 * Tool results are moved before the other blocks of their message. Pure: the input is not changed.
 */
export function repairWellFormed(messages: readonly ModelMessage[]): WellFormedRepair {
  const counter = { dropped: 0 };
  const paired = pairToolResults(messages, counter);
  const answered = dropUnansweredCalls(paired, counter);
  return { messages: dropOpenServerCalls(answered, counter), dropped: counter.dropped };
}

type Counter = { dropped: number };

/** Pass 1: markers, leading assistant messages, orphan results and blank text out; results first. */
function pairToolResults(messages: readonly ModelMessage[], counter: Counter): ModelMessage[] {
  const kept: ModelMessage[] = [];
  const seenCalls = new Set<string>();
  // The provider calls of the current assistant turn still awaiting their results.
  let openServerCalls = new Set<string>();
  for (const message of messages) {
    if (isApprovalMarker(message) || (kept.length === 0 && message.role !== "user")) {
      counter.dropped++;
      continue;
    }
    const before = kept.at(-1);
    if (message.role === "user") openServerCalls = new Set();
    const blocks =
      message.role === "user"
        ? userBlocks(message.content, before, counter)
        : assistantBlocks(message.content, { seenCalls, openServerCalls }, counter);
    if (blocks === message.content && blocks.length > 0) kept.push(message);
    else if (blocks.length > 0) kept.push({ ...message, content: blocks } as ModelMessage);
    else counter.dropped++;
  }
  return kept;
}

/** A user message's blocks: the results that answer the message before it first, no blank text. */
function userBlocks(
  content: string | ContentBlock[],
  before: ModelMessage | undefined,
  counter: Counter,
): string | ContentBlock[] {
  if (typeof content === "string") return /\S/.test(content) ? content : [];
  const calls = new Set(before?.role === "assistant" ? toolUseIds(before.content) : []);
  const results: ContentBlock[] = [];
  const others: ContentBlock[] = [];
  for (const block of content) {
    if (block.type === "tool_result") {
      if (calls.delete(block.tool_use_id)) results.push(block);
    } else if (!isAssistantOnlyBlock(block) && !isBlankText(block)) others.push(block);
  }
  return unlessSame(content, [...results, ...others], counter);
}

/**
 * An assistant message's blocks: no repeated call id, no orphan provider result, no thinking
 * without its signature, no blank text, no block of a user message.
 */
function assistantBlocks(
  content: ContentBlock[],
  calls: { seenCalls: Set<string>; openServerCalls: Set<string> },
  counter: Counter,
): ContentBlock[] {
  const { seenCalls, openServerCalls: open } = calls;
  const kept = content.filter((block) => {
    if (block.type === "tool_use" || isProviderToolCall(block)) {
      const { id } = block as { id: string };
      if (seenCalls.has(id)) return false;
      seenCalls.add(id);
      if (block.type !== "tool_use") open.add(id);
      return true;
    }
    if (isServerToolResult(block)) return open.delete((block as { tool_use_id: string }).tool_use_id);
    if (block.type === "thinking") return typeof block.signature === "string";
    if (block.type === "redacted_thinking") return typeof block.data === "string";
    return block.type !== "tool_result" && !isBlankText(block);
  });
  return unlessSame(content, kept, counter);
}

/** `content` itself when `blocks` are its blocks in its order; otherwise `blocks`, the drops counted. */
function unlessSame(content: ContentBlock[], blocks: ContentBlock[], counter: Counter): ContentBlock[] {
  counter.dropped += content.length - blocks.length;
  const same = blocks.length === content.length && blocks.every((block, index) => block === content[index]);
  return same ? content : blocks;
}

/** Pass 2: calls whose results are not in the next message out (but in the last message). */
function dropUnansweredCalls(messages: ModelMessage[], counter: Counter): ModelMessage[] {
  const kept: ModelMessage[] = [];
  for (const [index, message] of messages.entries()) {
    if (message.role !== "assistant" || index === messages.length - 1) {
      kept.push(message);
      continue;
    }
    const next = messages[index + 1]!;
    const answered = new Set(next.role === "user" ? toolResultIds(next.content) : []);
    const blocks = message.content.filter((block) => block.type !== "tool_use" || answered.has(block.id));
    pushTrimmed(kept, message, blocks, counter);
  }
  return kept;
}

/**
 * Pass 3: provider calls left open in a turn that a user message follows (their results, if any,
 * came in a later message of the turn, which pass 1 kept).
 */
function dropOpenServerCalls(messages: ModelMessage[], counter: Counter): ModelMessage[] {
  const open = new Set<string>();
  let lastUser = -1;
  for (const [index, message] of messages.entries()) if (message.role === "user") lastUser = index;
  // Walk back: a call is open when no later message of its turn holds its result.
  let turnResults = new Set<string>();
  for (let index = lastUser - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role === "user") {
      turnResults = new Set();
      continue;
    }
    for (const block of message.content)
      if (isServerToolResult(block)) turnResults.add((block as { tool_use_id: string }).tool_use_id);
    for (const block of message.content)
      if (isProviderToolCall(block) && !turnResults.has(block.id)) open.add(block.id);
  }
  if (open.size === 0) return messages;
  const kept: ModelMessage[] = [];
  for (const message of messages) {
    if (message.role === "user") kept.push(message);
    else {
      const blocks = message.content.filter(
        (block) => block.type !== "server_tool_use" || !open.has(block.id),
      );
      pushTrimmed(kept, message, blocks, counter);
    }
  }
  return kept;
}

/** Pushes `message` with `blocks`, or nothing when only thinking (or nothing) is left of it. */
function pushTrimmed(
  kept: ModelMessage[],
  message: ModelMessage,
  blocks: ContentBlock[],
  counter: Counter,
): void {
  const content = message.content as ContentBlock[];
  if (blocks.length === content.length) {
    kept.push(message);
    return;
  }
  counter.dropped += content.length - blocks.length;
  if (blocks.some((block) => block.type !== "thinking" && block.type !== "redacted_thinking"))
    kept.push({ ...message, content: blocks } as ModelMessage);
  else counter.dropped++;
}

function toolUseIds(content: string | ContentBlock[]): string[] {
  if (typeof content === "string") return [];
  return content.flatMap((block) => (block.type === "tool_use" ? [block.id] : []));
}

function toolResultIds(content: string | ContentBlock[]): string[] {
  if (typeof content === "string") return [];
  return content.flatMap((block) => (block.type === "tool_result" ? [block.tool_use_id] : []));
}
