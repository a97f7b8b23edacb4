/**
 * A batch paused for approval: the pause is recorded in history — the assistant message is there
 * already, its calls without results, and the approval marker follows it — and the query ends
 * `requires_approval`, listing the calls waiting.
 *
 * A pause inside a subagent (a call of the batch suspended in its child, see
 * `tools/child-suspension.ts`) is recorded the same way: its marker lists every call waiting, the
 * children's too, and holds the results of the calls that finished before it and the suspended
 * subagent calls — with their children's histories when those have no store of their own.
 * @module
 */
import {
  approvalMarker,
  type ChildPauseState,
  callsDigest,
  type PendingApproval,
  type SuspendedSubagentCall,
} from "../../messages/approvals";
import type { ToolResultBlock, ToolUseBlock } from "../../messages/types";
import type { ToolCallOutcome } from "../../tools/tool-output";
import type { Outcome } from "../decide-next";
import type { LoopContext } from "../state/loop-context";
import type { QueryState } from "../state/query-state";
import { NOT_STARTED } from "../tool-calls/tool-batch";

/** What a paused batch records: the calls waiting (its own and its children's), and a child pause's state. */
export interface BatchPause extends ChildPauseState {
  pending: PendingApproval[];
}

/** Appends the approval marker and ends the query with the pending calls. */
export async function recordPause<T>(
  loop: LoopContext<T>,
  query: QueryState,
  pause: BatchPause,
): Promise<Outcome<T>> {
  const { pending } = pause;
  const marker = approvalMarker(pending, pause);
  // Binds the decisions to the calls as recorded: an edit of the stored tool_use is refused at resume.
  const response = loop.conversation.history.messages.at(-1);
  if (response?.role === "assistant") {
    marker.calls_digest = callsDigest(
      response.content.filter((block): block is ToolUseBlock => block.type === "tool_use"),
    );
  }
  // Recorded like every entry: redacted, the children's histories included.
  await loop.conversation.history.append(marker);
  const ids = pending.map((call) => call.tool_use_id);
  query.span.set({ "agent_lattice.approvals.paused": true, "agent_lattice.approvals.pending_ids": ids });
  query.span.event("agent_lattice.approvals.paused", {
    "agent_lattice.approvals.pending": pending.length,
    "agent_lattice.approvals.pending_ids": ids,
    "agent_lattice.approvals.tool_names": pending.map((call) => call.name),
  });
  return { kind: "ended", ending: { subtype: "requires_approval", pendingApprovals: pending } };
}

/**
 * The pause of a batch in which subagent calls were suspended inside their children: their calls
 * waiting, in the model's order; the results of the calls that finished; the suspended calls.
 */
export function childPause(calls: readonly ToolUseBlock[], outcomes: readonly ToolCallOutcome[]): BatchPause {
  const pending: PendingApproval[] = [];
  const settled: ToolResultBlock[] = [];
  const endTurn: string[] = [];
  const listed = new Set<string>();
  const suspended: SuspendedSubagentCall[] = [];
  for (let index = 0; index < outcomes.length; index++) {
    const outcome = outcomes[index]!;
    if (outcome === NOT_STARTED) continue;
    const suspension = outcome.suspension;
    if (!suspension) {
      settled.push(outcome.block);
      if (outcome.endTurn) endTurn.push(outcome.block.tool_use_id);
      continue;
    }
    const parentId = calls[index]!.id;
    const ids: string[] = [];
    let renamed = false;
    for (const waiting of suspension.pending) {
      const id = unusedId(waiting.tool_use_id, parentId, listed);
      listed.add(id);
      ids.push(id);
      renamed ||= id !== waiting.tool_use_id;
      pending.push(id === waiting.tool_use_id ? waiting : { ...waiting, tool_use_id: id });
    }
    const entry: SuspendedSubagentCall = { tool_use_id: parentId, agent: suspension.agent, pending_ids: ids };
    if (renamed) entry.child_ids = suspension.pending.map((waiting) => waiting.tool_use_id);
    if (suspension.history) entry.history = suspension.history;
    suspended.push(entry);
  }
  return { pending, settled, endTurn, suspended }; // the marker keeps only what is not empty
}

/** `id`, or — when the flat list has it already — `<parentId>/<id>` (numbered on if that is taken too). */
function unusedId(id: string, parentId: string, listed: ReadonlySet<string>): string {
  if (!listed.has(id)) return id;
  let candidate = `${parentId}/${id}`;
  for (let n = 2; listed.has(candidate); n++) candidate = `${parentId}/${id}#${n}`;
  return candidate;
}
