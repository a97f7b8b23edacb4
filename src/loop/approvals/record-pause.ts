/**
 * A batch paused for approval: the pause is recorded in history — the assistant message is there
 * already, its calls without results, and the approval marker follows it — and the query ends
 * `requires_approval`, listing the calls waiting.
 *
 * A pause inside a subagent (a call of the batch suspended in its child, see `child-pause.ts`) is
 * recorded the same way: its marker lists every call waiting, the children's too, and holds the
 * results of the calls that finished before it and the suspended subagent calls — with their
 * children's histories when those have no store of their own.
 * @module
 */
import { approvalMarker, callsDigest } from "../../messages/approvals";
import type { ToolUseBlock } from "../../messages/types";
import type { Outcome } from "../decide-next";
import type { LoopContext } from "../state/loop-context";
import type { QueryState } from "../state/query-state";
import type { BatchPause } from "./child-pause";

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
