/**
 * Executing one batch of tool calls. Consecutive read-only calls run concurrently (at most
 * `concurrency` at once); any other call runs alone, after every call before it and before every
 * call after it. Outcomes come back in the model's order, whatever order the calls ran in.
 * @module
 */
import type { ToolUseBlock } from "../messages/types";
import { isPromiseLike, type PromiseOrValue } from "../shared/maybe-async";
import { errorOutcome, type ToolCallOutcome } from "../tools/tool-output";
import { runToolCall, type ToolRuntime } from "./tool-call";

/**
 * Runs the calls of one assistant message. While every call completes synchronously the batch
 * does too; from the first call that returns a promise on, the rest runs asynchronously.
 */
export function runToolBatch(
  calls: readonly ToolUseBlock[],
  runtime: ToolRuntime,
  concurrency: number,
): PromiseOrValue<ToolCallOutcome[]> {
  const outcomes: ToolCallOutcome[] = new Array(calls.length);
  let index = 0;
  while (index < calls.length) {
    const next = runGroup(calls, index, runtime, concurrency, outcomes);
    if (isPromiseLike(next)) return finishBatch(next, calls, runtime, concurrency, outcomes);
    index = next;
  }
  return outcomes;
}

async function finishBatch(
  pending: Promise<number>,
  calls: readonly ToolUseBlock[],
  runtime: ToolRuntime,
  concurrency: number,
  outcomes: ToolCallOutcome[],
): Promise<ToolCallOutcome[]> {
  let index = await pending;
  while (index < calls.length) index = await runGroup(calls, index, runtime, concurrency, outcomes);
  return outcomes;
}

/**
 * Runs the group of calls starting at `start` — a call that is not read-only, a lone read-only
 * call, or a run of consecutive read-only ones — and returns where the next group starts.
 */
function runGroup(
  calls: readonly ToolUseBlock[],
  start: number,
  runtime: ToolRuntime,
  concurrency: number,
  outcomes: ToolCallOutcome[],
): PromiseOrValue<number> {
  if (runtime.signal.aborted) {
    for (let index = start; index < calls.length; index++) outcomes[index] = notRun(calls[index]!);
    return calls.length;
  }
  const groupEnd = readOnlyRunEnd(calls, start, runtime);
  if (groupEnd > start + 1) {
    return runConcurrently(calls, start, groupEnd, runtime, concurrency, outcomes).then(() => groupEnd);
  }
  const outcome = runToolCall(calls[start]!, runtime);
  if (isPromiseLike(outcome)) {
    return outcome.then((settled) => {
      outcomes[start] = settled;
      return start + 1;
    });
  }
  outcomes[start] = outcome;
  return start + 1;
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

async function runConcurrently(
  calls: readonly ToolUseBlock[],
  start: number,
  end: number,
  runtime: ToolRuntime,
  concurrency: number,
  outcomes: ToolCallOutcome[],
): Promise<void> {
  let next = start;
  const worker = async () => {
    while (next < end) {
      const position = next++;
      // After an abort, calls not yet started are not run (nor shown to hooks).
      outcomes[position] = runtime.signal.aborted
        ? notRun(calls[position]!)
        : await runToolCall(calls[position]!, runtime);
    }
  };
  const workers = Math.max(1, Math.min(concurrency, end - start));
  await Promise.all(Array.from({ length: workers }, worker));
}

function notRun(call: ToolUseBlock): ToolCallOutcome {
  return errorOutcome(call.id, `The tool "${call.name}" was not run because the query was aborted.`);
}
