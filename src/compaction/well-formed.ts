/**
 * Structural checks of a history against the rules the Messages API enforces on tool use: what a
 * compaction, a store round trip or a repair must never break.
 * @module
 */
import { pendingPause } from "../messages/approvals";
import type { ContentBlock, ModelMessage } from "../messages/types";
import { findBlockProblem, findServerToolProblem } from "./well-formed-blocks";

/** Options of {@link findHistoryProblem} and {@link isWellFormedHistory}. */
export interface WellFormedOptions {
  /**
   * Accept a history that ends with a pause for approval (what `getHistory()` returns while calls
   * wait for a person): the assistant message with the waiting calls, then the pause marker. The
   * rest must be well-formed. @default false
   */
  allowPause?: boolean;
}

/**
 * Describes the first rule `messages` breaks, or returns `undefined` when it breaks none. The rules:
 * - the first message is a user message;
 * - `tool_use` blocks appear only in assistant messages and `tool_result` blocks only in user
 *   messages, and no two `tool_use` blocks share an id;
 * - every `tool_use` is answered by exactly one `tool_result` in the message right after it, which
 *   is a user message answering nothing else — except in the last message, where calls may still be
 *   awaiting their results;
 * - no `tool_result` appears without its `tool_use` in the message right before it;
 * - in a user message, `tool_result` blocks come before any other block;
 * - `thinking`, `redacted_thinking`, `server_tool_use`, the provider's tool results
 *   (`tool_search_tool_result`, any `*_tool_result` but `tool_result`) and `compaction` blocks
 *   appear only in assistant messages; a thinking block keeps its `signature` (a redacted one its
 *   `data`);
 * - no message is empty (but a last assistant message) and no text block is blank;
 * - each `server_tool_use` id is used once, and its result follows it in the same assistant turn
 *   (consecutive assistant messages, which the API joins); only the last turn may end with such a
 *   call awaiting its result (a `pause_turn` continued).
 *
 * Consecutive user messages, or consecutive assistant messages without tool calls, are accepted:
 * the API joins them into one turn.
 */
export function findHistoryProblem(
  messages: readonly ModelMessage[],
  options: WellFormedOptions = {},
): string | undefined {
  if (!Array.isArray(messages)) return "the history is not an array";
  // A pause: the marker is checked against the calls it waits on, the rest as usual.
  if (options.allowPause && pendingPause(messages) !== undefined)
    return findHistoryProblem(messages.slice(0, -1));
  const toolUseIdsSeen = new Set<string>();
  let awaitedIds: ReadonlySet<string> = new Set();
  for (const [index, message] of messages.entries()) {
    const shapeProblem = findShapeProblem(message as unknown, index);
    if (shapeProblem !== undefined) return shapeProblem;
    if (index === 0 && message.role !== "user") return "the history does not start with a user message";
    const blockProblem = findBlockProblem(message, index, index === messages.length - 1);
    if (blockProblem !== undefined) return blockProblem;
    const problem =
      message.role === "assistant"
        ? findAssistantProblem(message.content, index, awaitedIds, toolUseIdsSeen)
        : findUserProblem(message.content, index, awaitedIds);
    if (problem !== undefined) return problem;
    awaitedIds = new Set(message.role === "assistant" ? toolUseIds(message.content) : []);
  }
  return findServerToolProblem(messages);
}

/**
 * Whether `messages` satisfies every rule of {@link findHistoryProblem}; with `allowPause`, a
 * history ending with a pause for approval passes too.
 */
export function isWellFormedHistory(
  messages: readonly ModelMessage[],
  options: WellFormedOptions = {},
): boolean {
  return findHistoryProblem(messages, options) === undefined;
}

/**
 * Why `message` (any value) is not a message at all — not an object with a user or assistant role
 * and content of the right kind (a string for a user message, or an array of block objects) — or
 * `undefined` when it is one.
 */
export function findShapeProblem(message: unknown, index: number): string | undefined {
  if (typeof message !== "object" || message === null) return `message ${index} is not an object`;
  const { role, content } = message as { role?: unknown; content?: unknown };
  if (role !== "user" && role !== "assistant") return `message ${index} has no role user or assistant`;
  if (typeof content === "string" && role === "user") return undefined;
  if (!Array.isArray(content)) return `message ${index} has content that is not an array of blocks`;
  const bad = content.findIndex((block: unknown) => typeof block !== "object" || block === null);
  if (bad >= 0) return `message ${index} has a block ${bad} that is not an object`;
  return undefined;
}

function findAssistantProblem(
  content: readonly ContentBlock[],
  index: number,
  awaitedIds: ReadonlySet<string>,
  toolUseIdsSeen: Set<string>,
): string | undefined {
  if (awaitedIds.size > 0) {
    return `message ${index} is an assistant message, but the tool calls ${[...awaitedIds].join(", ")} before it are unanswered`;
  }
  for (const block of content) {
    if (block.type === "tool_result") return `message ${index} is an assistant message holding a tool_result`;
    if (block.type !== "tool_use") continue;
    if (toolUseIdsSeen.has(block.id)) return `message ${index} repeats the tool_use id ${block.id}`;
    toolUseIdsSeen.add(block.id);
  }
  return undefined;
}

function findUserProblem(
  content: string | readonly ContentBlock[],
  index: number,
  awaitedIds: ReadonlySet<string>,
): string | undefined {
  const blocks = typeof content === "string" ? [] : content;
  const answeredIds = new Set<string>();
  let otherBlockSeen = false;
  for (const block of blocks) {
    if (block.type === "tool_use") return `message ${index} is a user message holding a tool_use`;
    if (block.type !== "tool_result") {
      otherBlockSeen = true;
      continue;
    }
    if (otherBlockSeen) return `message ${index} has a tool_result after another kind of block`;
    if (!awaitedIds.has(block.tool_use_id)) {
      return `message ${index} has a tool_result for ${block.tool_use_id}, which the message before it did not call`;
    }
    if (answeredIds.has(block.tool_use_id)) return `message ${index} answers ${block.tool_use_id} twice`;
    answeredIds.add(block.tool_use_id);
  }
  const unanswered = [...awaitedIds].filter((id) => !answeredIds.has(id));
  if (unanswered.length > 0) {
    return `message ${index} does not answer the tool calls ${unanswered.join(", ")} of the message before it`;
  }
  return undefined;
}

function toolUseIds(content: readonly ContentBlock[]): string[] {
  return content.flatMap((block) => (block.type === "tool_use" ? [block.id] : []));
}
