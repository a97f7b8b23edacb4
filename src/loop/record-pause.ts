/**
 * A batch paused for approval: the pause is recorded in history — the assistant message is there
 * already, its calls without results, and the approval marker follows it — and the query ends
 * `requires_approval`, listing the calls waiting.
 * @module
 */
import { approvalMarker, type PendingApproval } from "../messages/approvals";
import type { Outcome } from "./decide-next";
import type { LoopContext } from "./loop-context";
import type { QueryState } from "./query-state";

/** Appends the approval marker and ends the query with the pending calls. */
export async function recordPause<T>(
  loop: LoopContext<T>,
  query: QueryState,
  pending: PendingApproval[],
): Promise<Outcome<T>> {
  await loop.conversation.history.append(approvalMarker(pending));
  const ids = pending.map((call) => call.tool_use_id);
  query.span.set({ "agent_lattice.approvals.paused": true, "agent_lattice.approvals.pending_ids": ids });
  query.span.event("agent_lattice.approvals.paused", {
    "agent_lattice.approvals.pending": pending.length,
    "agent_lattice.approvals.pending_ids": ids,
    "agent_lattice.approvals.tool_names": pending.map((call) => call.name),
  });
  return { kind: "ended", ending: { subtype: "requires_approval", pendingApprovals: pending } };
}
