/**
 * Context editing applied to the messages of one request — what the Messages API does with
 * `context_management.edits`, done the same way on our side for a provider that ignores them (and
 * by the mock server, which honours them). The messages given are never changed: edited messages
 * are copies, untouched ones are shared.
 *
 * The rules, stateless (the same history always gives the same request):
 * - **Old tool results** (`clearToolUses`), once the request's input is over `triggerTokens`: the
 *   results of every tool call but the last `keepToolUses` (and but those of `excludeTools`) are
 *   replaced by {@link CLEARED_TOOL_RESULT}, oldest first, in whole steps of `clearAtLeastTokens` —
 *   the cleared part only grows once a whole step more can be cleared, so the cached prefix of the
 *   requests breaks about once per step rather than on every turn. With `clearInputs`, the inputs
 *   of the cleared calls become `{}`.
 * - **Old thinking** (`clearThinking`): thinking blocks are dropped from every assistant turn but
 *   the last `keepTurns` that have thinking (the API requires the last turn's); a turn that would
 *   be left empty keeps its thinking.
 * @module
 */
import type { AppliedContextEdit } from "../messages/applied-context-edit";
import type { ContentBlock, ModelMessage, ToolResultBlock, ToolUseBlock } from "../messages/types";
import {
  CLEAR_THINKING_EDIT,
  CLEAR_TOOL_USES_EDIT,
  type ClearThinkingEdit,
  type ClearToolUsesEdit,
  type ContextEdits,
} from "./context-management";

/** What a cleared tool result says instead. */
export const CLEARED_TOOL_RESULT =
  "[This tool result was cleared to save context. Call the tool again if you need it.]";

/** A message as far as editing is concerned: its role and content (other fields are kept). */
type Editable = Pick<ModelMessage, "role" | "content">;

/** The edited messages and what was applied (only edits that changed something). */
export interface EditedMessages<M extends Editable> {
  messages: M[];
  applied: AppliedContextEdit[];
}

/**
 * Estimated tokens of a value: a quarter (rounded up) of its characters — the text of text blocks
 * and strings, the keys and values of other objects, never a `cache_control` marker — so that a
 * string and the text block holding it count the same. The estimate the client path and the mock
 * server share for the trigger.
 */
export function estimateTokens(value: unknown): number {
  return Math.ceil(charactersOf(value) / 4);
}

function charactersOf(value: unknown): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === "string") return value.length;
  if (typeof value !== "object") return String(value).length;
  if (Array.isArray(value)) {
    let total = 0;
    for (const item of value) total += charactersOf(item);
    return total;
  }
  const record = value as Record<string, unknown>;
  if (record.type === "text" && typeof record.text === "string") return record.text.length;
  let total = 0;
  for (const key in record) if (key !== "cache_control") total += key.length + charactersOf(record[key]);
  return total;
}

/** Estimated input tokens of a request's parts (system, tools, messages' content). */
export function estimateRequestTokens(parts: {
  system?: unknown;
  tools?: unknown;
  messages: readonly Editable[];
}): number {
  let tokens = estimateTokens(parts.system) + estimateTokens(parts.tools);
  for (const message of parts.messages) tokens += estimateTokens(message.content);
  return tokens;
}

/**
 * Applies `edits` to `messages` for a request of `inputTokens` (before editing).
 * @returns the messages to send and the edits that changed something
 */
export function applyContextEdits<M extends Editable>(
  messages: readonly M[],
  edits: ContextEdits,
  inputTokens: number,
): EditedMessages<M> {
  let current = messages as M[];
  const applied: AppliedContextEdit[] = [];
  if (edits.clearThinking) {
    const thinking = clearThinking(current, edits.clearThinking);
    if (thinking.turns > 0) {
      current = thinking.messages;
      applied.push({
        type: CLEAR_THINKING_EDIT,
        cleared_thinking_turns: thinking.turns,
        cleared_input_tokens: thinking.tokens,
      });
    }
  }
  if (edits.clearToolUses && inputTokens > edits.clearToolUses.triggerTokens) {
    const tools = clearToolUses(current, edits.clearToolUses);
    if (tools.uses > 0) {
      current = tools.messages;
      applied.push({
        type: CLEAR_TOOL_USES_EDIT,
        cleared_tool_uses: tools.uses,
        cleared_input_tokens: tools.tokens,
      });
    }
  }
  return { messages: current === messages ? [...messages] : current, applied };
}

/** A tool result that may be cleared, where it is. */
interface Candidate {
  message: number;
  block: number;
  id: string;
  tokens: number;
}

function clearToolUses<M extends Editable>(messages: M[], edit: ClearToolUsesEdit) {
  const calls = toolCallsOf(messages);
  const results: Candidate[] = [];
  messages.forEach((message, index) => {
    if (message.role !== "user" || typeof message.content === "string") return;
    message.content.forEach((block, position) => {
      if (block.type !== "tool_result") return;
      const call = calls.get(block.tool_use_id);
      const tokens = estimateTokens(block.content) + (edit.clearInputs ? estimateTokens(call?.input) : 0);
      results.push({ message: index, block: position, id: block.tool_use_id, tokens });
    });
  });
  const kept = new Set(results.slice(Math.max(0, results.length - edit.keepToolUses)).map((r) => r.id));
  const excluded = new Set(edit.excludeTools);
  const candidates = results.filter(
    (result) => !kept.has(result.id) && !excluded.has(calls.get(result.id)?.name ?? ""),
  );
  const cleared = stepPrefix(candidates, edit.clearAtLeastTokens);
  if (cleared.length === 0) return { messages, uses: 0, tokens: 0 };
  const ids = new Set(cleared.map((candidate) => candidate.id));
  const placeholderTokens = estimateTokens(CLEARED_TOOL_RESULT);
  let tokens = 0;
  const edited = messages.map((message) => {
    if (typeof message.content === "string") return message;
    let changed = false;
    const content = message.content.map((block): ContentBlock => {
      if (block.type === "tool_result" && ids.has(block.tool_use_id)) {
        changed = true;
        tokens += Math.max(0, estimateTokens(block.content) - placeholderTokens);
        const replaced: ToolResultBlock = { ...block, content: CLEARED_TOOL_RESULT };
        return replaced;
      }
      if (edit.clearInputs && block.type === "tool_use" && ids.has(block.id)) {
        changed = true;
        tokens += Math.max(0, estimateTokens(block.input) - estimateTokens({}));
        return { ...block, input: {} };
      }
      return block;
    });
    return changed ? ({ ...message, content } as M) : message;
  });
  return { messages: edited, uses: cleared.length, tokens };
}

/**
 * The oldest candidates to clear: all of them without a step; with one, the shortest prefix that
 * reaches the largest whole number of steps the candidates hold (none below one step).
 */
function stepPrefix(candidates: Candidate[], step: number): Candidate[] {
  if (step <= 0) return candidates;
  const total = candidates.reduce((sum, candidate) => sum + candidate.tokens, 0);
  const goal = Math.floor(total / step) * step;
  if (goal === 0) return [];
  let sum = 0;
  for (let index = 0; index < candidates.length; index++) {
    sum += candidates[index]!.tokens;
    if (sum >= goal) return candidates.slice(0, index + 1);
  }
  return candidates;
}

function toolCallsOf(messages: readonly Editable[]): Map<string, ToolUseBlock> {
  const calls = new Map<string, ToolUseBlock>();
  for (const message of messages) {
    if (message.role !== "assistant" || typeof message.content === "string") continue;
    for (const block of message.content) if (block.type === "tool_use") calls.set(block.id, block);
  }
  return calls;
}

function isThinking(block: ContentBlock): boolean {
  return block.type === "thinking" || block.type === "redacted_thinking";
}

function clearThinking<M extends Editable>(messages: M[], edit: ClearThinkingEdit) {
  if (edit.keepTurns === "all") return { messages, turns: 0, tokens: 0 };
  const turns: number[] = [];
  messages.forEach((message, index) => {
    if (
      message.role === "assistant" &&
      typeof message.content !== "string" &&
      message.content.some(isThinking)
    )
      turns.push(index);
  });
  const clear = new Set(turns.slice(0, Math.max(0, turns.length - edit.keepTurns)));
  let cleared = 0;
  let tokens = 0;
  const edited = messages.map((message, index) => {
    if (!clear.has(index) || typeof message.content === "string") return message;
    const content = message.content.filter((block) => !isThinking(block));
    if (content.length === 0) return message; // an empty turn is refused: it keeps its thinking
    cleared += 1;
    for (const block of message.content) if (isThinking(block)) tokens += estimateTokens(block);
    return { ...message, content } as M;
  });
  return { messages: cleared > 0 ? edited : messages, turns: cleared, tokens };
}
