/**
 * A pause inside a subagent, the whole story on the loop's side.
 *
 * 1. **Suspend.** A subagent call (`Tool.runAgentCall`) whose child paused for approval comes back
 *    `{ kind: "suspended", suspension }` (`subagents/run-child.ts` builds it: the child's pending
 *    calls, and its history when it has no store of its own). Its span ends marked
 *    `awaiting_approval`; the batch starts no more calls (`not_started`), the concurrent ones
 *    already running finish.
 * 2. **Record.** {@link childPause} turns the batch's outcomes into the pause: every call waiting
 *    (the children's, tagged with `parent_tool_use_id`, renamed when an id is taken), the results
 *    of the calls that finished, the suspended calls. `record-pause.ts` appends it as the marker.
 * 3. **Resume.** {@link resumedBatch} reads the marker back: the finished calls keep their stored
 *    results, each suspended call gets the decisions for its child's calls; the batch's own calls
 *    get theirs ({@link ownDecisions}). In the gated batch, {@link carriedOutcome} answers a
 *    finished call from the record and resumes a suspended one ({@link resumeToolCall}); the calls
 *    that had not started are cleared and run as any. A child may pause again — and the parent
 *    with it.
 * @module
 */
import type {
  ApprovalDecision,
  ApprovalDecisions,
  ApprovalMarker,
  ChildPauseState,
  PendingApproval,
  SuspendedSubagentCall,
} from "../../messages/approvals";
import type { AnsweredInput, InputAnswer, PendingInput } from "../../messages/pending-inputs";
import type { ToolResultBlock, ToolUseBlock } from "../../messages/types";
import type { BatchCallOutcome } from "../../tool-calls/tool-batch";
import { completeToolCall } from "../../tool-calls/tool-call";
import { privateCopy, validateToolInput } from "../../tool-calls/tool-input";
import type { ToolRuntime } from "../../tool-calls/tool-runtime";
import type { ChildResume } from "../../tools/child-suspension";
import { type CallOutcome, errorOutcome } from "../../tools/tool-output";

/** What a paused batch records: the calls waiting (its own and its children's), and a child pause's state. */
export interface BatchPause extends ChildPauseState {
  pending: PendingApproval[];
}

/** What a batch resumed after a pause inside a subagent carries over from the pause. */
export interface ResumedBatch {
  /** The results of calls that finished before the pause, by tool_use_id: kept, not run again. */
  settled: ReadonlyMap<string, ToolResultBlock>;
  /** The settled calls whose tool asked to end the turn: the resumed batch still ends it. */
  endTurn: ReadonlySet<string>;
  /** The subagent calls suspended inside their children, by tool_use_id, with what resumes each. */
  suspended: ReadonlyMap<string, ChildResume>;
}

/**
 * The pause of a batch in which subagent calls were suspended inside their children: their calls
 * waiting, in the model's order; the results of the calls that finished; the suspended calls; and,
 * for a resumed batch, the `decisions` given for calls that had not started (carried to the next
 * resume: a call a person approved is not asked about again, nor lost).
 */
export function childPause(
  calls: readonly ToolUseBlock[],
  outcomes: readonly BatchCallOutcome[],
  decisions?: ReadonlyMap<string, ApprovalDecision>,
): BatchPause {
  const pending: PendingApproval[] = [];
  const settled: ToolResultBlock[] = [];
  const endTurn: string[] = [];
  const listed = new Set<string>();
  const suspended: SuspendedSubagentCall[] = [];
  const inputs: PendingInput[] = [];
  const listedInputs = new Set<string>();
  const decided: ApprovalDecisions = {};
  for (let index = 0; index < outcomes.length; index++) {
    const outcome = outcomes[index]!;
    if (outcome.kind === "not_started") {
      const decision = decisions?.get(calls[index]!.id);
      if (decision) decided[calls[index]!.id] = decision;
      continue;
    }
    if (outcome.kind === "result") {
      settled.push(outcome.block);
      if (outcome.endTurn) endTurn.push(outcome.block.tool_use_id);
      continue;
    }
    const { suspension } = outcome;
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
    if (suspension.inputs?.length) listInputs(entry, suspension.inputs, inputs, listedInputs);
    if (suspension.answered?.length) entry.answered_inputs = suspension.answered;
    suspended.push(entry);
  }
  return { pending, settled, endTurn, suspended, inputs, decided }; // the marker keeps only what is not empty
}

/** Lists a suspended call's questions in the flat list (renamed when an id is taken, as calls are). */
function listInputs(
  entry: SuspendedSubagentCall,
  asked: readonly PendingInput[],
  inputs: PendingInput[],
  listed: Set<string>,
): void {
  const ids: string[] = [];
  let renamed = false;
  for (const input of asked) {
    const id = unusedId(input.id, entry.tool_use_id, listed);
    listed.add(id);
    ids.push(id);
    renamed ||= id !== input.id;
    inputs.push(id === input.id ? input : { ...input, id });
  }
  entry.input_ids = ids;
  if (renamed) entry.input_child_ids = asked.map((input) => input.id);
}

/** `id`, or — when the flat list has it already — `<parentId>/<id>` (numbered on if that is taken too). */
function unusedId(id: string, parentId: string, listed: ReadonlySet<string>): string {
  if (!listed.has(id)) return id;
  let candidate = `${parentId}/${id}`;
  for (let n = 2; listed.has(candidate); n++) candidate = `${parentId}/${id}#${n}`;
  return candidate;
}

/** What a pause inside a subagent carries over to its resumed batch; undefined for a plain pause. */
export function resumedBatch(
  marker: ApprovalMarker,
  decisions: ReadonlyMap<string, ApprovalDecision>,
  answers: ReadonlyMap<string, InputAnswer> = new Map(),
): ResumedBatch | undefined {
  if (!marker.suspended_calls && !marker.settled_results) return undefined;
  const settled = new Map<string, ToolResultBlock>();
  for (const result of marker.settled_results ?? []) settled.set(result.tool_use_id, result);
  const suspended = new Map<string, ChildResume>();
  for (const call of marker.suspended_calls ?? []) {
    const approvals: ApprovalDecisions = {};
    call.pending_ids.forEach((id, index) => {
      approvals[call.child_ids?.[index] ?? id] = decisions.get(id)!;
    });
    const resume: ChildResume = call.history ? { approvals, history: call.history } : { approvals };
    const inputs = answeredInputs(marker, call, answers);
    if (inputs.length > 0) resume.inputs = inputs;
    suspended.set(call.tool_use_id, resume);
  }
  return { settled, endTurn: new Set(marker.settled_end_turn ?? []), suspended };
}

/** The questions a suspended call waits on, with their answers, under the ids its call knows them by. */
function answeredInputs(
  marker: ApprovalMarker,
  call: SuspendedSubagentCall,
  answers: ReadonlyMap<string, InputAnswer>,
): AnsweredInput[] {
  const byId = new Map((marker.pending_inputs ?? []).map((input) => [input.id, input]));
  const inputs: AnsweredInput[] = [...(call.answered_inputs ?? [])];
  (call.input_ids ?? []).forEach((id, index) => {
    const input = byId.get(id);
    const answer = answers.get(id);
    if (!input || !answer) return;
    const known = call.input_child_ids?.[index] ?? id;
    inputs.push({ input: known === id ? input : { ...input, id: known }, answer });
  });
  return inputs;
}

/** The decisions for the batch's own calls (those for the children's calls go to the children). */
export function ownDecisions(
  marker: ApprovalMarker,
  decisions: ReadonlyMap<string, ApprovalDecision>,
): Map<string, ApprovalDecision> {
  const childIds = new Set(
    marker.pending_approvals
      .filter((pending) => pending.parent_tool_use_id !== undefined)
      .map((pending) => pending.tool_use_id),
  );
  return new Map([...decisions].filter(([id]) => !childIds.has(id)));
}

/** Whether a resumed batch carries `call` over from the pause (finished, or suspended in its child). */
export function carriedOver(call: ToolUseBlock, resumed: ResumedBatch | undefined): boolean {
  return resumed !== undefined && (resumed.settled.has(call.id) || resumed.suspended.has(call.id));
}

/** The stored result of a finished call, or the resumed run of a suspended one; else undefined. */
export function carriedOutcome(
  call: ToolUseBlock,
  resumed: ResumedBatch,
  runtime: ToolRuntime,
): Promise<CallOutcome> | undefined {
  const settled = resumed.settled.get(call.id);
  if (settled)
    return Promise.resolve({ kind: "result", block: settled, endTurn: resumed.endTurn.has(call.id) });
  const resume = resumed.suspended.get(call.id);
  return resume ? resumeToolCall(call, resume, runtime) : undefined;
}

/**
 * Goes on with a subagent call that was suspended inside its child when its batch paused: the
 * checks before execution ran then (they do not run again); the tool — a subagent again in this
 * process — resumes its child with `resume`, and the `postToolUse` hooks run once it finishes.
 */
async function resumeToolCall(
  call: ToolUseBlock,
  resume: ChildResume,
  runtime: ToolRuntime,
): Promise<CallOutcome> {
  const span = runtime.telemetry.toolCall(runtime.parentSpan, call.name, call.id);
  const tool = runtime.tools.get(call.name);
  const result = tool?.runAgentCall
    ? await validateToolInput(call, tool, privateCopy(call.input), runtime.signal)
    : errorOutcome(call.id, notResumable(call));
  return completeToolCall({ call, span, result }, runtime, resume);
}

function notResumable(call: ToolUseBlock): string {
  return `The call to "${call.name}" waited for approval inside its subagent, but "${call.name}" is not a subagent of this agent any more, so it could not be resumed. It did not finish.`;
}
