/**
 * A batch that may pause for approval (`tool-calls/may-pause.ts`: a call of it could ask for a
 * person's decision — its tool has `needsApproval`, or it is not read-only and `askBeforeWrites` or
 * `canUseTool` would be asked about it — or the batch is being resumed): every call is cleared first, in the model's order
 * (input, lists, mode, `preToolUse` hooks, approval, `canUseTool`), before any of them runs. When
 * one asks, none runs: the batch pauses with the list of calls waiting. Otherwise the cleared
 * calls run as any batch does (read-only ones concurrently, results in the model's order).
 *
 * A batch resumed after a pause inside a subagent keeps the results of the calls that finished
 * before it (they are not cleared or run again) and resumes its suspended subagent calls (their
 * checks ran before they started); its other calls are cleared and run as above.
 * @module
 */
import type { HistoryLog } from "../../history/history-log";
import type { PendingApproval } from "../../messages/approvals";
import type { ToolUseBlock } from "../../messages/types";
import { type BatchCallOutcome, runToolBatch } from "../../tool-calls/tool-batch";
import { type Clearance, clearToolCall, completeToolCall } from "../../tool-calls/tool-call";
import { notRunOutcome } from "../../tool-calls/tool-refusals";
import type { ToolRuntime } from "../../tool-calls/tool-runtime";
import type { CallOutcome } from "../../tools/tool-output";
import { carriedOutcome, carriedOver, type ResumedBatch } from "./child-pause";
import { recordNothingStarted, retractNothingStarted } from "./record-pause";

/** What a gated batch came to: it ran (each call's outcome, in the model's order), or it paused. */
export type GatedBatchResult = GatedBatchRan | GatedBatchPaused;

/** The batch ran: each call's outcome, in the model's order. */
export interface GatedBatchRan {
  kind: "ran";
  outcomes: BatchCallOutcome[];
}

/** A call asked for approval: none ran, these calls wait. */
export interface GatedBatchPaused {
  kind: "paused";
  pending: PendingApproval[];
}

/**
 * Clears every call, then pauses (nothing runs) or runs the batch. `history`, for a batch that is
 * not resumed, holds the record that none of its calls started while they are cleared
 * (`record-pause.ts`). `resumed` is what a batch resumed after a pause inside a subagent carries
 * over (`child-pause.ts`).
 */
export async function runGatedBatch(
  calls: readonly ToolUseBlock[],
  runtime: ToolRuntime,
  concurrency: number,
  { history, resumed }: { history?: HistoryLog; resumed?: ResumedBatch },
): Promise<GatedBatchResult> {
  const recorded = history !== undefined && (await recordNothingStarted(history));
  const clearances = new Map<string, Clearance>(); // clearing never rejects: a failure is a refusal
  for (const call of calls) {
    if (runtime.signal.aborted) break; // the calls left are answered as not run by the batch
    if (carriedOver(call, resumed)) continue;
    clearances.set(call.id, await clearToolCall(call, runtime));
  }
  const paused: PendingApproval[] = [];
  for (const { call, result } of clearances.values()) {
    if (result.kind !== "awaiting_approval") continue;
    const pending: PendingApproval = { tool_use_id: call.id, name: call.name, input: result.input };
    if (result.message !== undefined) pending.message = result.message;
    paused.push(pending);
  }
  if (paused.length > 0 && !runtime.signal.aborted) {
    for (const { span, result } of clearances.values()) {
      span.set({ "agent_lattice.tool.awaiting_approval": result.kind === "awaiting_approval" });
      span.end();
    }
    return { kind: "paused", pending: paused }; // the pause's marker takes the place of the record
  }
  if (recorded) await retractNothingStarted(history);
  const finished = new Set<string>();
  const runOne = (call: ToolUseBlock, shared: ToolRuntime): CallOutcome | Promise<CallOutcome> => {
    finished.add(call.id);
    const carried = resumed && carriedOutcome(call, resumed, shared);
    if (carried) return carried;
    const clearance = clearances.get(call.id);
    if (!clearance) return Promise.resolve(notRunOutcome(call));
    return completeToolCall(clearance, shared);
  };
  try {
    return { kind: "ran", outcomes: await runToolBatch(calls, runtime, concurrency, runOne) };
  } finally {
    // Calls the batch did not reach (an abort) still close their spans.
    for (const [id, { span }] of clearances) if (!finished.has(id)) span.end();
  }
}
