/**
 * Crash recovery for a loaded transcript: a process that died between storing a `tool_use` and
 * storing its results leaves a history the Messages API rejects. {@link repairHistoryTail} closes
 * every dangling call with an error result so the conversation can continue.
 * @module
 */
import { isApprovalMarker, pendingPause } from "../messages/approvals";
import type {
  AssistantModelMessage,
  ContentBlock,
  ModelMessage,
  ToolResultBlock,
  ToolUseBlock,
  UserModelMessage,
} from "../messages/types";
import { stepRecordsStart, stepsByCall } from "./tool-steps";
import { isUnstartedCallsRecord } from "./unstarted-calls";

/**
 * The text of the error tool_result {@link repairHistoryTail} gives a call whose result was never
 * stored. The model reads it, so it says plainly that the call may or may not have taken effect.
 */
export const UNRECORDED_TOOL_RESULT_TEXT =
  "The result of this tool call was never recorded: the process stopped before it finished. " +
  "Its effect is unverified — it may or may not have run. Check before relying on it or repeating it.";

/**
 * The text of the error tool_result {@link repairHistoryTail} gives a call that the record shows
 * never started: a person denied it when its paused batch was resumed, and the process stopped
 * before the denial was recorded.
 */
export const NOT_RUN_TOOL_RESULT_TEXT =
  "This tool call was not run: a person denied it when it waited for approval (the process stopped " +
  "before that answer was recorded). It had no effect.";

/**
 * The text of the error tool_result {@link repairHistoryTail} gives a call that the record shows
 * never started, in a batch that may pause for approval whose pause is not recorded: the process
 * stopped while its calls were checked (the record that none started is still there), or the
 * marker of its pause was removed (the paused message says `meta.calls_not_started`).
 */
export const UNRECORDED_PAUSE_TOOL_RESULT_TEXT =
  "This tool call was not run: it was checked for approval, and the pause it waited in is not " +
  "recorded (the process stopped before it was, or it was removed). It had no effect.";

/**
 * The text of the error tool_result {@link repairHistoryTail} gives a call that was running when
 * the process stopped and had recorded steps (`ToolContext.step`): it stands until the next query
 * runs the call again, its recorded steps replayed — before anything is sent to the model.
 */
export const INTERRUPTED_STEPS_TOOL_RESULT_TEXT =
  "This tool call was interrupted: the process stopped while it ran, after it recorded some of its " +
  "steps. It is run again, its recorded steps replayed, before the conversation goes on.";

/** What {@link repairHistoryTail} returns. */
export interface HistoryTailRepair {
  /** The repaired history (the input itself is never changed; untouched messages are shared). */
  messages: ModelMessage[];
  /** How many fixes were made: dangling calls closed plus empty assistant messages dropped. 0 = valid tail. */
  repaired: number;
}

/**
 * Repairs the end of a stored transcript after a crash:
 * - a history ending in a pause for approval (the calls, then their approval marker) is left as
 *   it is: those calls wait for a decision, they did not crash; a marker whose calls are not the
 *   ones before it is dropped;
 * - a history ending in the record that none of the calls before it started (a batch that may
 *   pause, stopped while its calls were checked: `history/unstarted-calls.ts`) loses the record, and
 *   each call gets a result saying it was not run ({@link UNRECORDED_PAUSE_TOOL_RESULT_TEXT}) — so
 *   does each call of a paused message whose marker is gone (`meta.calls_not_started`);
 * - trailing assistant messages with no content are dropped;
 * - each `tool_use` of the last assistant message that has no `tool_result` gets an `is_error`
 *   result saying it was never recorded ({@link UNRECORDED_TOOL_RESULT_TEXT}) — unless the message
 *   records, from the resume of its paused batch (`meta.approvals_resumed`), that the call never
 *   started (denied: {@link NOT_RUN_TOOL_RESULT_TEXT}) or finished with a result (kept as it was). The results go into
 *   the user message that follows the call when there is one (before its other blocks, as the API
 *   requires), otherwise into a new user message appended at the end.
 *
 * Pure: the input array and its messages are not mutated. Persist the result with
 * `store.replace(messages)` when `repaired > 0`.
 *
 * @example
 * const loaded = await store.load();
 * const { messages, repaired } = repairHistoryTail(loaded);
 * if (repaired > 0) await store.replace(messages);
 */
export function repairHistoryTail(stored: readonly ModelMessage[]): HistoryTailRepair {
  // The step records of calls that were running: their calls are run again (the steps replayed).
  const recordsStart = stepRecordsStart(stored);
  const journal = recordsStart < stored.length ? stepsByCall(stored.slice(recordsStart)) : undefined;
  const messages = journal ? stored.slice(0, recordsStart) : stored;
  const rerunning = journal && stillInterrupted(messages, journal);
  const repair = rerunning ? { messages: rerunning, repaired: 0 } : repairCalls(messages, journal);
  return journal ? { ...repair, repaired: repair.repaired + stored.length - recordsStart } : repair;
}

function repairCalls(messages: readonly ModelMessage[], journal: Journal | undefined): HistoryTailRepair {
  // A pause for approval is not a crash: its calls stay pending, without results.
  if (pendingPause(messages)) return { messages: messages.slice(), repaired: 0 };
  // A marker that no longer matches the calls before it is dropped; those calls are repaired. So is
  // the record that none of them started: they are answered "not run".
  const last = messages[messages.length - 1];
  const unstarted = isUnstartedCallsRecord(last);
  const unmarked = unstarted || isApprovalMarker(last) ? messages.slice(0, -1) : messages;
  const kept = dropTrailingEmptyAssistantMessages(unmarked);
  let repaired = messages.length - kept.length;
  const callIndex = findLastAssistantIndex(kept);
  if (callIndex === -1) return { messages: kept, repaired };

  const calls = (kept[callIndex] as AssistantModelMessage).content.filter(isToolUse);
  const following = kept[callIndex + 1];
  const isTail = callIndex === kept.length - 1;
  const isFollowedByLastUserMessage = callIndex === kept.length - 2 && following?.role === "user";
  if (calls.length === 0 || !(isTail || isFollowedByLastUserMessage)) return { messages: kept, repaired };

  const answeredIds = new Set(following ? toolResultIdsOf(following) : []);
  const dangling = calls.filter((call) => !answeredIds.has(call.id));
  if (dangling.length === 0) return { messages: kept, repaired };
  repaired += dangling.length;

  const meta = (kept[callIndex] as AssistantModelMessage).meta;
  const notStarted = unstarted || (meta?.calls_not_started === true && !meta.approvals_resumed);
  const interrupted: Array<{ tool_use_id: string; input?: unknown }> = [];
  const results = dangling.map((call) => {
    if (notStarted) return errorResult(call, UNRECORDED_PAUSE_TOOL_RESULT_TEXT);
    const recorded = resultFromRecord(call, meta?.approvals_resumed);
    if (recorded.content !== UNRECORDED_TOOL_RESULT_TEXT || !journal?.steps[call.id]) return recorded;
    interrupted.push(
      call.id in journal.inputs
        ? { tool_use_id: call.id, input: journal.inputs[call.id] }
        : { tool_use_id: call.id },
    );
    return errorResult(call, INTERRUPTED_STEPS_TOOL_RESULT_TEXT);
  });
  const answered: UserModelMessage =
    following === undefined
      ? { role: "user", content: results }
      : withResultsAdded(following as UserModelMessage, results);
  if (interrupted.length > 0) answered.meta = withInterrupted(answered.meta, interrupted, journal!);
  return {
    messages: following === undefined ? [...kept, answered] : [...kept.slice(0, -1), answered],
    repaired,
  };
}

type Journal = ReturnType<typeof stepsByCall>;

/**
 * A crash while interrupted calls ran again: their results still stand in (`meta.interrupted_calls`
 * on the last message), and the steps this run recorded join those of the first run — so the next
 * run replays them all. `undefined` when history does not end so.
 */
function stillInterrupted(messages: readonly ModelMessage[], journal: Journal): ModelMessage[] | undefined {
  const last = messages.at(-1);
  if (last?.role !== "user" || !last.meta?.interrupted_calls) return undefined;
  const steps = { ...last.meta.tool_steps };
  for (const [id, recorded] of Object.entries(journal.steps)) steps[id] = [...(steps[id] ?? []), ...recorded];
  return [...messages.slice(0, -1), { ...last, meta: { ...last.meta, tool_steps: steps } }];
}

/** The results' meta with the interrupted calls and the steps they recorded (to be run again). */
function withInterrupted(
  meta: UserModelMessage["meta"],
  interrupted: Array<{ tool_use_id: string; input?: unknown }>,
  journal: Journal,
): NonNullable<UserModelMessage["meta"]> {
  const steps = { ...meta?.tool_steps };
  for (const { tool_use_id } of interrupted) steps[tool_use_id] = journal.steps[tool_use_id]!;
  return { ...meta, tool_steps: steps, interrupted_calls: interrupted };
}

function dropTrailingEmptyAssistantMessages(messages: readonly ModelMessage[]): ModelMessage[] {
  let end = messages.length;
  while (end > 0) {
    const last = messages[end - 1]!;
    if (last.role !== "assistant" || last.content.length > 0) break;
    end--;
  }
  return messages.slice(0, end);
}

function findLastAssistantIndex(messages: readonly ModelMessage[]): number {
  for (let index = messages.length - 1; index >= 0; index--) {
    if (messages[index]!.role === "assistant") return index;
  }
  return -1;
}

function isToolUse(block: ContentBlock): block is ToolUseBlock {
  return block.type === "tool_use";
}

function isToolResult(block: ContentBlock): block is ToolResultBlock {
  return block.type === "tool_result";
}

function toolResultIdsOf(message: ModelMessage): string[] {
  if (typeof message.content === "string") return [];
  return message.content.filter(isToolResult).map((block) => block.tool_use_id);
}

/** The result the record gives a dangling call: settled, not run, or unverified. */
function resultFromRecord(
  call: ToolUseBlock,
  resumed: NonNullable<AssistantModelMessage["meta"]>["approvals_resumed"],
): ToolResultBlock {
  const settled = resumed?.settled_results?.find((result) => result.tool_use_id === call.id);
  if (settled) return settled;
  if (Array.isArray(resumed?.not_run) && resumed.not_run.includes(call.id))
    return errorResult(call, NOT_RUN_TOOL_RESULT_TEXT);
  return errorResult(call, UNRECORDED_TOOL_RESULT_TEXT);
}

function errorResult(call: ToolUseBlock, text: string): ToolResultBlock {
  return { type: "tool_result", tool_use_id: call.id, content: text, is_error: true };
}

/** Existing tool results first, then the added ones, then the message's other blocks. */
function withResultsAdded(message: UserModelMessage, added: ToolResultBlock[]): UserModelMessage {
  const blocks = contentBlocksOf(message);
  const existingResults = blocks.filter(isToolResult);
  const otherBlocks = blocks.filter((block) => !isToolResult(block));
  return { ...message, content: [...existingResults, ...added, ...otherBlocks] };
}

function contentBlocksOf(message: UserModelMessage): ContentBlock[] {
  if (typeof message.content !== "string") return message.content;
  return message.content === "" ? [] : [{ type: "text", text: message.content }];
}
