/**
 * Resuming a paused query, in place of step 1: the decisions are checked against the pause stored
 * at the end of history, the pause is claimed (the marker taken out of the store, so that no other
 * process can resolve it too), and the paused batch runs with the decisions — approved calls run
 * (with `updatedInput`, validated again), denied calls get an error result carrying the message,
 * the batch's other calls run — its results enter history in the model's order, and the loop goes
 * on. A new prompt sent instead answers the pending calls as denied ({@link denyPendingCalls}).
 * @module
 */
import { ConversationConflictError } from "../errors";
import { errorResultsFor } from "../history/dangling";
import type { HistoryLog } from "../history/history-log";
import { type ApprovalDecision, assertDecisions, pendingPause } from "../messages/approvals";
import type { AssistantModelMessage, ModelMessage, ToolUseBlock } from "../messages/types";
import type { SpanHandle } from "../telemetry/telemetry";
import type { Outcome } from "./decide-next";
import type { LoopContext } from "./loop-context";
import type { QueryState } from "./query-state";
import type { ToolRunner } from "./run-tools";

/** The text answering a pending call when a new prompt was sent instead of decisions. */
export function supersededCall(call: ToolUseBlock): string {
  return `The call to "${call.name}" was not run: it waited for approval, and the user sent a new message instead.`;
}

/**
 * Checks `decisions`, claims the pause and runs its batch with them.
 * @throws InvalidOptionError (nothing pending, an unknown id, a missing decision: nothing changed),
 *   ConversationConflictError (another Agent resolved the pause first: nothing ran here)
 */
export async function resumeApprovals<T>(
  loop: LoopContext<T>,
  query: QueryState,
  tools: ToolRunner<T>,
  decisions: unknown,
): Promise<Outcome<T>> {
  const { history } = loop.conversation;
  const pause = pendingPause(history.messages);
  assertDecisions(decisions, pause?.marker.pending_approvals);
  const { calls, index } = pause!;
  const response = history.messages[index - 1] as AssistantModelMessage;
  await claim(history, history.messages.slice(0, index));
  const byId = new Map(Object.entries(decisions as Record<string, ApprovalDecision>));
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
  return tools.answer(response, calls, byId);
}

/**
 * A new prompt while calls wait for approval: the pause is claimed and every call of its batch is
 * answered as denied, so the prompt follows a well-formed history. Nothing when nothing is pending.
 */
export async function denyPendingCalls(history: HistoryLog, span: SpanHandle): Promise<void> {
  const pause = pendingPause(history.messages);
  if (!pause) return;
  const denied = errorResultsFor(pause.calls, supersededCall);
  await claim(history, [...history.messages.slice(0, pause.index), denied]);
  span.event("agent_lattice.approvals.superseded", {
    "agent_lattice.approvals.denied": pause.marker.pending_approvals.length,
    "agent_lattice.approvals.denied_ids": pause.marker.pending_approvals.map((call) => call.tool_use_id),
  });
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
