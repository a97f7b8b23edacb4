/**
 * A batch paused for approval: the pause is recorded in history — the assistant message is there
 * already, its calls without results, and the approval marker follows it — and the query ends
 * `requires_approval`, listing the calls waiting.
 *
 * A pause inside a subagent (a call of the batch suspended in its child, see `child-pause.ts`) is
 * recorded the same way: its marker lists every call waiting, the children's too, and holds the
 * results of the calls that finished before it and the suspended subagent calls — with their
 * children's histories when those have no store of their own.
 *
 * Before a batch that may pause checks its calls, it records that none of them has started
 * (`history/unstarted-calls.ts`; a store write only for such a batch, in a durable history): a
 * process killed before the marker is written leaves calls that crash repair answers "not run".
 * The pause replaces the record with the marker (and marks the paused message
 * `meta.calls_not_started`, for a marker removed later); a batch that runs takes it back first.
 * @module
 */
import type { HistoryLog } from "../../history/history-log";
import { isUnstartedCallsRecord, unstartedCallsRecord } from "../../history/unstarted-calls";
import { approvalMarker, callsDigest } from "../../messages/approvals";
import type { ToolUseBlock } from "../../messages/types";
import type { StepResult } from "../decide-next";
import type { Ending } from "../ending";
import type { LoopContext } from "../state/loop-context";
import type { QueryState } from "../state/query-state";
import type { BatchPause } from "./child-pause";

/**
 * Records that none of the calls of the last assistant message has started — when history is
 * durable (in memory only, a crash leaves nothing to repair). Whether it did.
 */
export async function recordNothingStarted(history: HistoryLog): Promise<boolean> {
  if (!history.durable) return false;
  await history.append(unstartedCallsRecord());
  return true;
}

/** Takes the record that no call started back, before the first call runs. */
export async function retractNothingStarted(history: HistoryLog): Promise<void> {
  if (isUnstartedCallsRecord(history.messages.at(-1))) await history.replace(history.messages.slice(0, -1));
}

/**
 * Records the approval marker (in place of the record that no call started) and ends the query
 * with the pending calls — `requires_input` when questions wait (the calls waiting listed too).
 */
export async function recordPause<T>(
  loop: LoopContext<T>,
  query: QueryState,
  pause: BatchPause,
): Promise<StepResult<T>> {
  const { pending } = pause;
  const marker = approvalMarker(pending, pause);
  // Binds the decisions to the calls as recorded: an edit of the stored tool_use is refused at resume.
  const { history } = loop.conversation;
  const unstarted = isUnstartedCallsRecord(history.messages.at(-1));
  const response = history.messages.at(unstarted ? -2 : -1);
  if (response?.role === "assistant") {
    marker.calls_digest = callsDigest(
      response.content.filter((block): block is ToolUseBlock => block.type === "tool_use"),
    );
  }
  // Recorded like every entry: redacted, the children's histories included.
  if (unstarted && response?.role === "assistant") {
    // No call started: the paused message says so too, in case the marker is lost.
    const paused = { ...response, meta: { ...response.meta, calls_not_started: true as const } };
    await history.replace([...history.messages.slice(0, -2), paused, marker]);
  } else await history.append(marker);
  const ids = pending.map((call) => call.tool_use_id);
  query.span.set({ "agent_lattice.approvals.paused": true, "agent_lattice.approvals.pending_ids": ids });
  query.span.event("agent_lattice.approvals.paused", {
    "agent_lattice.approvals.pending": pending.length,
    "agent_lattice.approvals.pending_ids": ids,
    "agent_lattice.approvals.tool_names": pending.map((call) => call.name),
  });
  const inputs = marker.pending_inputs;
  if (!inputs) return { kind: "ended", ending: { subtype: "requires_approval", pendingApprovals: pending } };
  query.span.event("agent_lattice.inputs.paused", {
    "agent_lattice.inputs.pending": inputs.length,
    "agent_lattice.inputs.pending_ids": inputs.map((input) => input.id),
  });
  const ending: Ending<T> = { subtype: "requires_input", pendingInputs: inputs };
  if (pending.length > 0) ending.pendingApprovals = pending;
  return { kind: "ended", ending };
}
