/**
 * What a tool batch comes to: its results in the model's order (with the calls' durations and the
 * ending an `endTurn` result asks for, or the pause of a subagent suspended in its child), the
 * results of calls that are not run, and the message that carries them into history.
 * @module
 */
import { MissingOutputError } from "../errors";
import type { ApprovalDecision } from "../messages/approvals";
import type {
  GuardrailRecord,
  HandoffRecord,
  MessageMeta,
  ToolResultBlock,
  ToolUseBlock,
  UserModelMessage,
} from "../messages/types";
import type { BatchCallOutcome } from "../tool-calls/tool-batch";
import { type ToolCallOutcome, toolResultText } from "../tools/tool-output";
import { type BatchPause, childPause } from "./approvals/child-pause";
import type { Ending } from "./ending";

/** The results of one batch, in the model's order, and the ending they cause, if any. */
export interface ToolResults<T> {
  blocks: ToolResultBlock[];
  /** How long each call that ran took, by tool_use_id (recorded as `meta.tool_durations_ms`). */
  durations?: Record<string, number>;
  ending?: Ending<T>;
  /** The batch paused: nothing ran (or a subagent call was suspended in its child), these calls wait. */
  paused?: BatchPause;
}

/**
 * The result blocks in the model's order, and the ending an `endTurn` result asks for — or the
 * pause, when a subagent call was suspended inside its child.
 */
export function batchResults<T>(
  calls: readonly ToolUseBlock[],
  outcomes: BatchCallOutcome[],
  withOutputSchema: boolean,
  decisions?: ReadonlyMap<string, ApprovalDecision>,
): ToolResults<T> {
  const blocks: ToolResultBlock[] = new Array(outcomes.length);
  let ender: ToolCallOutcome | undefined;
  let durations: Record<string, number> | undefined;
  for (let index = 0; index < outcomes.length; index++) {
    const outcome = outcomes[index]!;
    if (outcome.kind !== "result") return { blocks: [], paused: childPause(calls, outcomes, decisions) };
    blocks[index] = outcome.block;
    if (outcome.durationMs !== undefined) (durations ??= {})[outcome.block.tool_use_id] = outcome.durationMs;
    if (outcome.endTurn && !ender) ender = outcome;
  }
  return ender
    ? { blocks, durations, ending: endTurnEnding(ender, withOutputSchema) }
    : { blocks, durations };
}

/** The ending a call's `endTurn` result asks for: its text is the query's result. */
function endTurnEnding<T>(ender: ToolCallOutcome, withOutputSchema: boolean): Ending<T> {
  const result = toolResultText(ender.originalContent ?? ender.block.content);
  // With outputSchema only a valid submission is a success: ending the turn otherwise is a missing output.
  if (withOutputSchema) return { subtype: "error_missing_output", error: new MissingOutputError(), result };
  return { subtype: "success", result };
}

/** A call run again after a crash that came back suspended (a subagent): it is not run here. */
export function notRerun(call: ToolUseBlock): ToolResultBlock {
  return {
    type: "tool_result",
    tool_use_id: call.id,
    is_error: true,
    content: `The call to "${call.name}" was interrupted by a crash and could not be run again here.`,
  };
}

/** A response cut at max_tokens: its tool inputs may be incomplete, so none of them runs. */
export function truncatedCallResult(call: ToolUseBlock): ToolResultBlock {
  return {
    type: "tool_result",
    tool_use_id: call.id,
    is_error: true,
    content:
      `The call to "${call.name}" was not run: your response was cut off at the output token limit (max_tokens), ` +
      "so its input may be incomplete. Reissue the call with a shorter input, or split the work into smaller calls.",
  };
}

/**
 * The message that carries a batch's results: its `meta` — the calls' durations, a handoff, a
 * guardrail's verdict — made in one piece with it (an object literal holds its fields in itself; a
 * field added later goes to a second array), and none when there is nothing to say.
 */
export function resultsMessage(
  content: ToolResultBlock[],
  durations: ToolResults<unknown>["durations"],
  handoff: HandoffRecord | undefined,
  verdict: GuardrailRecord | undefined,
): UserModelMessage {
  if (!durations && !handoff && !verdict) return { role: "user", content };
  const meta: MessageMeta = durations ? { tool_durations_ms: durations } : {};
  if (handoff) meta.handoff = handoff;
  if (verdict) meta.guardrail = verdict;
  return { role: "user", content, meta };
}
