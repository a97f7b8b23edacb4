/**
 * What a handoff's specialist sees of the conversation (`defineHandoff({ history })`): the
 * messages of each of its requests, made from the history the loop would send. Stored history
 * keeps everything; this only shapes requests. Pure: no model call, no store, no clock — a
 * `"summary"` form is handed the summary text, written elsewhere.
 *
 * Every form yields a list the Messages API accepts (`isWellFormedHistory`): the forms cut only
 * at the start of a turn and keep whole messages, and the result of each — a user function's
 * included — goes through `repairWellFormed`, which drops what a cut leaves dangling.
 * @module
 */
import { findShapeProblem } from "../compaction/well-formed";
import { repairWellFormed } from "../compaction/well-formed-repair";
import { InvalidOptionError } from "../errors";
import { isApprovalMarker } from "../messages/approvals";
import type { ContentBlock, ModelMessage, ToolUseBlock, UserModelMessage } from "../messages/types";
import type { HandoffHistoryForm } from "./state/loop-config";

/** A message of the conversation's history, as a handoff's `history` function receives it. */
export type HistoryMessage = ModelMessage;

export type { HandoffHistoryForm };

/** Options of {@link filterHandoffHistory}. */
export interface HandoffHistoryOptions {
  /**
   * The `"summary"` form's text: what the messages before the handoff's turn said
   * ({@link messagesBeforeHandoff}), written by the caller (a model call). It is sent as is, as a
   * text block before the prompt of the handoff's turn. Absent or blank: `"summary"` gives what
   * `"none"` gives.
   */
  summary?: string;
  /**
   * The id of the `tool_use` that handed the conversation to this specialist. Default: the last
   * `tool_use` whose name starts with `transfer_to_`.
   */
  transferCallId?: string;
  /** The handoff's name, for error messages. */
  handoff?: string;
}

/** The name prefix of the tool the model calls to hand the conversation over. */
export const TRANSFER_TOOL_PREFIX = "transfer_to_";

/**
 * The messages a specialist's request carries, for each form of `history`:
 * - `"full"`: the whole conversation;
 * - `"none"`: the prompt that opened the turn in which the conversation was handed over (its text
 *   and images, not tool results it may also carry), the assistant message with the transfer call
 *   and everything after it (the call's result, and the specialist's own turns, later prompts
 *   included). What the triage agent did earlier in that turn is left out. Without a transfer call
 *   in `messages` (a compaction summarised it away): from the last prompt on;
 * - `"summary"`: as `"none"`, with `options.summary` as a text block before that prompt;
 * - a function: its result, given a copy of `messages` (it must not change the messages).
 *
 * Whatever the form, the result is repaired to be well-formed (`repairWellFormed`: pause markers,
 * orphan `tool_result` blocks, calls without results, server-tool blocks apart from their call,
 * empty messages are dropped), so a function that cuts mid-pair — the last N messages — still yields
 * a request the API accepts: a function's output is **repaired, not refused**. Thinking is signed:
 * an assistant message a function returns with only part of its thinking, or thinking edited or
 * moved from another message, loses all its thinking (the API accepts earlier turns without
 * theirs — but, with thinking on, not the last turn that called tools: keep that one whole). It throws
 * `InvalidOptionError` (naming the handoff) only when the function returns something that is not a
 * list of messages, or when nothing with a user message is left.
 */
export function filterHandoffHistory(
  messages: readonly HistoryMessage[],
  form: HandoffHistoryForm,
  options: HandoffHistoryOptions = {},
): HistoryMessage[] {
  const chosen =
    typeof form === "function"
      ? withThinkingWhole(messages, fromFunction(messages, form, options))
      : fromForm(messages, form, options);
  const { messages: repaired } = repairWellFormed(chosen);
  if (repaired.length === 0) throw new InvalidOptionError(`${subject(options)} left no user message to send`);
  return repaired;
}

/**
 * The messages the `"summary"` form replaces: those before the prompt of the turn in which the
 * conversation was handed over (what the caller summarises for `options.summary`). Empty when the
 * handoff came in the first turn.
 */
export function messagesBeforeHandoff(
  messages: readonly HistoryMessage[],
  options: Pick<HandoffHistoryOptions, "transferCallId"> = {},
): HistoryMessage[] {
  const { prompt } = handoffStart(messages, options.transferCallId);
  return prompt > 0 ? messages.slice(0, prompt) : [];
}

function fromForm(
  messages: readonly HistoryMessage[],
  form: "full" | "summary" | "none",
  options: HandoffHistoryOptions,
): readonly HistoryMessage[] {
  if (form === "full") return messages;
  if (form !== "none" && form !== "summary")
    throw new InvalidOptionError(`${subject(options)}: unknown history form ${JSON.stringify(form)}`);
  const { prompt, rest } = handoffStart(messages, options.transferCallId);
  const opening = messages[prompt];
  if (opening === undefined) return messages.slice(rest);
  const summary = form === "summary" && /\S/.test(options.summary ?? "") ? options.summary : undefined;
  return [promptOnly(opening as UserModelMessage, summary), ...messages.slice(rest)];
}

function fromFunction(
  messages: readonly HistoryMessage[],
  form: (messages: HistoryMessage[]) => HistoryMessage[],
  options: HandoffHistoryOptions,
): HistoryMessage[] {
  const chosen: unknown = form(messages.slice());
  if (!Array.isArray(chosen))
    throw new InvalidOptionError(
      `${subject(options)}'s history function returned ${typeof chosen}, not an array of messages`,
    );
  for (const [index, message] of chosen.entries()) {
    const problem = findShapeProblem(message, index);
    if (problem !== undefined)
      throw new InvalidOptionError(
        `${subject(options)}'s history function returned a list in which ${problem}`,
      );
  }
  return chosen as HistoryMessage[];
}

/**
 * `chosen` with the thinking of each assistant message either exactly that of one message of
 * `messages` (the same blocks, in the same order) or none at all.
 */
function withThinkingWhole(messages: readonly HistoryMessage[], chosen: HistoryMessage[]): HistoryMessage[] {
  const sources = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== "assistant") continue;
    const keys = thinkingKeys(message.content);
    for (const key of keys) sources.set(key, keys.join("\n"));
  }
  return chosen.map((message) => {
    if (message.role !== "assistant") return message;
    const keys = thinkingKeys(message.content);
    if (keys.length === 0 || sources.get(keys[0]!) === keys.join("\n")) return message;
    return { ...message, content: message.content.filter((block) => thinkingKey(block) === undefined) };
  });
}

function thinkingKeys(content: readonly ContentBlock[]): string[] {
  return content.flatMap((block) => thinkingKey(block) ?? []);
}

/** A thinking block's exact content as a string (`undefined` for any other block). */
function thinkingKey(block: ContentBlock): string | undefined {
  if (block.type === "thinking") return JSON.stringify(["thinking", block.thinking, block.signature]);
  if (block.type === "redacted_thinking") return JSON.stringify(["redacted_thinking", block.data]);
  return undefined;
}

/**
 * Where the specialist's view starts: `prompt`, the index of the prompt that opened the handoff's
 * turn (`-1`: none), and `rest`, the index from which every message is kept (the transfer call's
 * message, or the message after the prompt).
 */
function handoffStart(
  messages: readonly HistoryMessage[],
  transferCallId: string | undefined,
): { prompt: number; rest: number } {
  const transfer = transferIndex(messages, transferCallId);
  for (let index = (transfer ?? messages.length) - 1; index >= 0; index--) {
    if (isPrompt(messages[index]!)) return { prompt: index, rest: transfer ?? index + 1 };
  }
  return { prompt: -1, rest: transfer ?? 0 };
}

/** The index of the assistant message holding the transfer call, or `undefined`. */
function transferIndex(messages: readonly HistoryMessage[], id: string | undefined): number | undefined {
  const isTransfer = (block: ContentBlock): block is ToolUseBlock =>
    block.type === "tool_use" &&
    (id === undefined ? block.name.startsWith(TRANSFER_TOOL_PREFIX) : block.id === id);
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role === "assistant" && message.content.some(isTransfer)) return index;
  }
  return undefined;
}

/** A user message a person (or the caller) wrote: something besides tool results, not a pause marker. */
function isPrompt(message: HistoryMessage): boolean {
  if (message.role !== "user" || isApprovalMarker(message)) return false;
  if (typeof message.content === "string") return true;
  return message.content.some((block) => block.type !== "tool_result");
}

/** The prompt without the tool results it may carry (their calls are not sent), the summary first. */
function promptOnly(message: UserModelMessage, summary: string | undefined): UserModelMessage {
  if (summary === undefined && typeof message.content === "string") return message;
  const blocks: ContentBlock[] =
    typeof message.content === "string"
      ? [{ type: "text", text: message.content }]
      : message.content.filter((block) => block.type !== "tool_result");
  if (summary === undefined && blocks.length === (message.content as unknown[]).length) return message;
  const head: ContentBlock[] = summary === undefined ? [] : [{ type: "text", text: summary }];
  return { role: "user", content: [...head, ...blocks] };
}

function subject(options: HandoffHistoryOptions): string {
  return options.handoff === undefined ? "a handoff" : `the handoff ${JSON.stringify(options.handoff)}`;
}
