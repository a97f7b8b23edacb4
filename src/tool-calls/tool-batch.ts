/**
 * Executing one batch of tool calls. Consecutive read-only calls run concurrently (at most
 * `concurrency` at once); any other call runs alone, after every call before it and before every
 * call after it. Outcomes come back in the model's order, whatever order the calls ran in. A
 * subagent call suspended inside its child stops the batch: the calls not yet started do not
 * start (`not_started`), concurrent ones already running finish.
 * @module
 */
import type { ToolUseBlock } from "../messages/types";
import { isPromiseLike } from "../shared/maybe-async";
import type { CallOutcome } from "../tools/tool-output";
import { runToolCallNow } from "./tool-call";
import { notRunOutcome } from "./tool-refusals";
import type { ToolRuntime } from "./tool-runtime";

/** A call a suspension kept from starting: never recorded, the batch pauses. */
export interface NotStartedCall {
  kind: "not_started";
}

/** How one call of a batch came out: answered, suspended in its subagent's child, or not started. */
export type BatchCallOutcome = CallOutcome | NotStartedCall;

/**
 * Runs one call of a batch (the whole pipeline, or the rest of it for a call already cleared): its
 * outcome, or a promise of it when the call has to wait for something.
 */
export type RunOne = (call: ToolUseBlock, runtime: ToolRuntime) => CallOutcome | Promise<CallOutcome>;

/**
 * Runs the calls of one assistant message, group by group: a call that is not read-only, a lone
 * read-only call, or a run of consecutive read-only ones. Once the query is aborted, the calls not
 * yet started are not run (nor shown to hooks): each gets an error result saying so. A batch whose
 * calls all answered at once (synchronous tools, nothing to wait for) comes back at once; otherwise
 * as a promise of its outcomes.
 */
export function runToolBatch(
  calls: readonly ToolUseBlock[],
  runtime: ToolRuntime,
  concurrency: number,
  runOne: RunOne = runToolCallNow,
): BatchCallOutcome[] | Promise<BatchCallOutcome[]> {
  const outcomes: BatchCallOutcome[] = new Array(calls.length);
  return runGroupsFrom(0, { calls, runtime, concurrency, runOne, outcomes });
}

/** One batch under way: its calls, how each runs, and the outcomes so far (in the model's order). */
interface BatchRun {
  readonly calls: readonly ToolUseBlock[];
  readonly runtime: ToolRuntime;
  readonly concurrency: number;
  readonly runOne: RunOne;
  readonly outcomes: BatchCallOutcome[];
}

/** Runs the groups from call `start` on: at once while each group answers at once, then after the one that waits. */
function runGroupsFrom(start: number, batch: BatchRun): BatchCallOutcome[] | Promise<BatchCallOutcome[]> {
  const { calls, runtime, outcomes } = batch;
  while (start < calls.length) {
    if (runtime.signalAborted()) {
      for (let index = start; index < calls.length; index++) outcomes[index] = notRunOutcome(calls[index]!);
      break;
    }
    const end = readOnlyRunEnd(calls, start, runtime);
    const next = Math.max(end, start + 1);
    const suspended =
      end > start + 1
        ? runConcurrently(calls, { start, end }, runtime, batch.concurrency, outcomes, batch.runOne)
        : runAlone(start, batch);
    if (isPromiseLike(suspended))
      return suspended.then((stopped) => (stopped ? notStartedRest(outcomes) : runGroupsFrom(next, batch)));
    if (suspended) return notStartedRest(outcomes);
    start = next;
  }
  return outcomes;
}

/** Runs call `index` alone; whether it was suspended (at once, or once it settles). */
function runAlone(index: number, batch: BatchRun): boolean | Promise<boolean> {
  const outcome = batch.runOne(batch.calls[index]!, batch.runtime);
  if (!isPromiseLike(outcome)) return keptOutcome(batch.outcomes, index, outcome);
  return outcome.then((settled) => keptOutcome(batch.outcomes, index, settled));
}

/** Keeps a call's outcome in its place; whether it was suspended. */
function keptOutcome(outcomes: BatchCallOutcome[], index: number, outcome: CallOutcome): boolean {
  outcomes[index] = outcome;
  return outcome.kind === "suspended";
}

/** A suspension stops the batch: every call not started is `not_started`. */
function notStartedRest(outcomes: BatchCallOutcome[]): BatchCallOutcome[] {
  for (let index = 0; index < outcomes.length; index++) outcomes[index] ??= { kind: "not_started" };
  return outcomes;
}

/** End (exclusive) of the run of read-only calls starting at `start`; `start` when the call is not read-only. */
function readOnlyRunEnd(calls: readonly ToolUseBlock[], start: number, runtime: ToolRuntime): number {
  let end = start;
  while (end < calls.length && isReadOnlyCall(calls[end]!, runtime)) end++;
  return end;
}

function isReadOnlyCall(call: ToolUseBlock, runtime: ToolRuntime): boolean {
  const tool = runtime.tools.get(call.name);
  return tool === undefined || tool.readOnly; // an unknown tool only produces an error result
}

/**
 * Runs calls `start` to `end` (exclusive) with at most `concurrency` of them in flight; once one
 * is suspended, no more start. Whether one was.
 */
async function runConcurrently(
  calls: readonly ToolUseBlock[],
  { start, end }: { start: number; end: number },
  runtime: ToolRuntime,
  concurrency: number,
  outcomes: BatchCallOutcome[],
  runOne: RunOne,
): Promise<boolean> {
  let next = start;
  let suspended = false;
  const worker = async () => {
    while (next < end && !suspended) {
      const position = next++;
      // After an abort, calls not yet started are not run (nor shown to hooks).
      const outcome = runtime.signalAborted()
        ? notRunOutcome(calls[position]!)
        : await runOne(calls[position]!, runtime);
      outcomes[position] = outcome;
      if (outcome.kind === "suspended") suspended = true;
    }
  };
  const workers = Math.max(1, Math.min(concurrency, end - start));
  await Promise.all(Array.from({ length: workers }, worker));
  return suspended;
}
