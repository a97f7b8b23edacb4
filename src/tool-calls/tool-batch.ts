/**
 * Executing one batch of tool calls. Consecutive read-only calls run concurrently (at most
 * `concurrency` at once); any other call runs alone, after every call before it and before every
 * call after it. Outcomes come back in the model's order, whatever order the calls ran in. A
 * subagent call suspended inside its child stops the batch: the calls not yet started do not
 * start (`not_started`), concurrent ones already running finish.
 * @module
 */
import type { ToolUseBlock } from "../messages/types";
import type { CallOutcome } from "../tools/tool-output";
import { runToolCall } from "./tool-call";
import { notRunOutcome } from "./tool-refusals";
import type { ToolRuntime } from "./tool-runtime";

/** A call a suspension kept from starting: never recorded, the batch pauses. */
export interface NotStartedCall {
  kind: "not_started";
}

/** How one call of a batch came out: answered, suspended in its subagent's child, or not started. */
export type BatchCallOutcome = CallOutcome | NotStartedCall;

/** Runs one call of a batch (the whole pipeline, or the rest of it for a call already cleared). */
export type RunOne = (call: ToolUseBlock, runtime: ToolRuntime) => Promise<CallOutcome>;

/**
 * Runs the calls of one assistant message, group by group: a call that is not read-only, a lone
 * read-only call, or a run of consecutive read-only ones. Once the query is aborted, the calls not
 * yet started are not run (nor shown to hooks): each gets an error result saying so.
 */
export async function runToolBatch(
  calls: readonly ToolUseBlock[],
  runtime: ToolRuntime,
  concurrency: number,
  runOne: RunOne = runToolCall,
): Promise<BatchCallOutcome[]> {
  const outcomes: BatchCallOutcome[] = new Array(calls.length);
  let start = 0;
  while (start < calls.length) {
    if (runtime.signal.aborted) {
      for (let index = start; index < calls.length; index++) outcomes[index] = notRunOutcome(calls[index]!);
      break;
    }
    const end = readOnlyRunEnd(calls, start, runtime);
    let suspended: boolean;
    if (end > start + 1) {
      suspended = await runConcurrently(calls, { start, end }, runtime, concurrency, outcomes, runOne);
      start = end;
    } else {
      const outcome = await runOne(calls[start]!, runtime);
      outcomes[start] = outcome;
      suspended = outcome.kind === "suspended";
      start += 1;
    }
    if (suspended) {
      for (let index = 0; index < calls.length; index++) outcomes[index] ??= { kind: "not_started" };
      break;
    }
  }
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
      const outcome = runtime.signal.aborted
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
