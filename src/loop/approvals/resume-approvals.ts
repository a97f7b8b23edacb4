/**
 * Resuming a paused query, in place of step 1: the decisions are checked against the pause stored
 * at the end of history, the pause is claimed (the marker taken out of the store, so that no other
 * process can resolve it too), and the paused batch runs with the decisions — approved calls run
 * (with `updatedInput`, validated again), denied calls get an error result carrying the message,
 * the batch's other calls run — its results enter history in the model's order, and the loop goes
 * on. A new prompt sent instead answers the pending calls as denied ({@link denyPendingCalls}).
 *
 * A pause inside a subagent resumes the same way (`child-pause.ts`): the calls that finished before
 * it keep their stored results, each suspended subagent call resumes its child with the decisions
 * for the child's calls (the child may finish, or pause again — and the parent with it), and the
 * calls that had not started run.
 * @module
 */
import { ConversationConflictError, InvalidOptionError } from "../../errors";
import { errorResultsFor } from "../../history/dangling";
import type { HistoryLog } from "../../history/history-log";
import {
  type ApprovalDecision,
  type ApprovalInput,
  type ApprovalMarker,
  assertDecisions,
  callsDigest,
  isAuthorizationPause,
  pendingPause,
} from "../../messages/approvals";
import { assertInputAnswers, type InputAnswer, storedAnswer } from "../../messages/pending-inputs";
import type {
  AssistantModelMessage,
  ModelMessage,
  ToolResultBlock,
  ToolUseBlock,
} from "../../messages/types";
import type { SpanHandle } from "../../telemetry/telemetry";
import type { StepResult } from "../decide-next";
import type { LoopContext } from "../state/loop-context";
import type { QueryState } from "../state/query-state";
import type { ToolPhase } from "../tool-phase";
import { resumeAuthorization, supersedeAuthorizationPause } from "./authorization-pause";
import { ownDecisions, resumedBatch } from "./child-pause";

/** The text answering a pending call when a new prompt was sent instead of decisions. */
export function supersededCall(call: ToolUseBlock): string {
  return `The call to "${call.name}" was not run: it waited for approval, and the user sent a new message instead.`;
}

/**
 * Checks the decisions and answers of `input`, claims the pause and runs its batch with them.
 * @throws InvalidOptionError (nothing pending, an unknown id, a missing decision or answer:
 *   nothing changed), ConversationConflictError (another Agent resolved the pause first: nothing ran here)
 */
export async function resumeApprovals<T>(
  loop: LoopContext<T>,
  query: QueryState,
  tools: ToolPhase<T>,
  input: ApprovalInput,
): Promise<StepResult<T>> {
  const { history } = loop.conversation;
  const pause = pendingPause(history.messages);
  const { decisions, answers } = checkedResume(input, pause?.marker);
  const { calls, index, marker } = pause!;
  if (isAuthorizationPause(marker, history.messages[index - 1]))
    return resumeAuthorization(loop, query, { marker, index }, answers);
  if (marker.calls_digest !== undefined && marker.calls_digest !== callsDigest(calls)) {
    throw new InvalidOptionError(
      "The paused tool calls were changed in the stored history after the pause was recorded (their " +
        "ids, names or inputs no longer match the pending approvals shown): nothing was run. Answer " +
        "with a new prompt, or restore the history.",
    );
  }
  const response = history.messages[index - 1] as AssistantModelMessage;
  // Decisions given at an earlier resume for calls that had not started then apply now too.
  const byId = new Map([
    ...Object.entries(marker.carried_decisions ?? {}),
    ...Object.entries(decisions as Record<string, ApprovalDecision>),
  ]);
  // The claim records which calls will never start: a crash before the results is repaired by it.
  await claim(history, [
    ...history.messages.slice(0, index - 1),
    withResumeRecord(response, calls, marker, byId),
  ]);
  const approvedIds = [...byId].filter(([, decision]) => decision.approved).map(([id]) => id);
  const approved = approvedIds.length;
  query.span.set({
    "agent_lattice.approvals.resumed": true,
    "agent_lattice.approvals.approved": approved,
    "agent_lattice.approvals.denied": byId.size - approved,
  });
  query.span.event("agent_lattice.approvals.resumed", {
    "agent_lattice.approvals.approved": approved,
    "agent_lattice.approvals.denied": byId.size - approved,
    "agent_lattice.approvals.approved_ids": approvedIds,
    "agent_lattice.approvals.denied_ids": [...byId.keys()].filter((id) => !approvedIds.includes(id)),
  });
  if (answers.size > 0)
    query.span.event("agent_lattice.inputs.resumed", {
      "agent_lattice.inputs.answered_ids": [...answers.keys()],
      "agent_lattice.inputs.actions": [...answers.values()].map((answer) => answer.action),
    });
  const resumed = resumedBatch(marker, byId, answers);
  if (!resumed) return tools.answer(response, calls, byId);
  return tools.answer(response, calls, ownDecisions(marker, byId), resumed);
}

/**
 * The decisions and answers of a resume, checked against the pause: each list given when its
 * part of the pause is pending (an empty one may be left out), nothing when nothing is pending.
 */
function checkedResume(
  input: ApprovalInput,
  marker: ApprovalMarker | undefined,
): { decisions: Record<string, ApprovalDecision>; answers: Map<string, InputAnswer> } {
  const waiting = marker?.pending_approvals.length ?? 0;
  const asked = marker?.pending_inputs?.length ?? 0;
  if (waiting === 0 && asked === 0) {
    // Nothing is pending: the error names what was given.
    if (input.approvals === undefined) assertInputAnswers(input.inputs, undefined);
    assertDecisions(input.approvals, undefined);
  }
  if (input.approvals !== undefined || waiting > 0)
    assertDecisions(input.approvals, marker?.pending_approvals);
  if (input.inputs !== undefined || asked > 0) assertInputAnswers(input.inputs, marker?.pending_inputs);
  const answers = new Map<string, InputAnswer>();
  for (const [id, answer] of Object.entries(input.inputs ?? {})) answers.set(id, storedAnswer(answer));
  return { decisions: input.approvals ?? {}, answers };
}

/**
 * The paused response as the claim records it: its `meta.approvals_resumed` names the batch's own
 * calls a person denied (they never start) and keeps the results settled before a child's pause.
 */
function withResumeRecord(
  response: AssistantModelMessage,
  calls: readonly ToolUseBlock[],
  marker: ApprovalMarker,
  decisions: ReadonlyMap<string, ApprovalDecision>,
): AssistantModelMessage {
  const notRun = calls.filter((call) => decisions.get(call.id)?.approved === false).map((call) => call.id);
  const record: NonNullable<NonNullable<AssistantModelMessage["meta"]>["approvals_resumed"]> = {
    not_run: notRun,
  };
  if (marker.settled_results?.length) record.settled_results = marker.settled_results;
  const { calls_not_started: _paused, ...meta } = response.meta ?? {};
  return { ...response, meta: { ...meta, approvals_resumed: record } };
}

/**
 * A new prompt while calls wait for approval: the pause is claimed and every call of its batch is
 * answered as denied, so the prompt follows a well-formed history. Nothing when nothing is pending.
 */
export async function denyPendingCalls(history: HistoryLog, span: SpanHandle): Promise<void> {
  const pause = pendingPause(history.messages);
  if (!pause) return;
  if (isAuthorizationPause(pause.marker, history.messages[pause.index - 1]))
    return supersedeAuthorizationPause(history, pause.index, span);
  const denied = supersededResults(pause.calls, pause.marker);
  await claim(history, [...history.messages.slice(0, pause.index), denied]);
  span.event("agent_lattice.approvals.superseded", {
    "agent_lattice.approvals.denied": pause.marker.pending_approvals.length,
    "agent_lattice.approvals.denied_ids": pause.marker.pending_approvals.map((call) => call.tool_use_id),
  });
}

/**
 * The results answering a pause superseded by a new prompt: a call that finished before a pause
 * inside a subagent keeps its result; a suspended subagent call and every other call are denied.
 */
function supersededResults(calls: readonly ToolUseBlock[], marker: ApprovalMarker): ModelMessage {
  const denied = errorResultsFor(calls, (call) => supersededText(call, marker));
  if (!marker.settled_results) return denied;
  const settled = new Map(marker.settled_results.map((result) => [result.tool_use_id, result]));
  const content = (denied.content as ToolResultBlock[]).map(
    (block) => settled.get(block.tool_use_id) ?? block,
  );
  return { role: "user", content };
}

/** The text answering a call of a pause superseded by a new prompt. */
function supersededText(call: ToolUseBlock, marker: ApprovalMarker): string {
  const suspended = marker.suspended_calls?.find((entry) => entry.tool_use_id === call.id);
  if (!suspended) return supersededCall(call);
  if (suspended.input_ids?.length)
    return `The call to "${call.name}" did not finish: it waited for the user's answer to a question, and the user sent a new message instead of answering.`;
  return supersededSubagentCall(call);
}

/** The text answering a suspended subagent call when a new prompt was sent instead of decisions. */
function supersededSubagentCall(call: ToolUseBlock): string {
  return `The subagent "${call.name}" did not finish: it waited for a person's approval of its own calls, and the user sent a new message instead.`;
}

/** Writes `messages` over the stored pause; a conflict says who won. */
async function claim(history: HistoryLog, messages: ModelMessage[]): Promise<void> {
  try {
    await history.replaceOrThrow(messages);
  } catch (error) {
    if (!(error instanceof ConversationConflictError)) throw error;
    throw new ConversationConflictError(
      error.conversationId,
      "these approvals were resolved by another Agent first; none of their calls ran here",
    );
  }
}
