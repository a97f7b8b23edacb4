/**
 * Executing one batch of tool calls. Consecutive read-only calls run concurrently (at most
 * `concurrency` at once); any other call runs alone, after every call before it and before every
 * call after it. Outcomes come back in the model's order, whatever order the calls ran in.
 * @module
 */
import type { ToolUseBlock } from "../messages/types";
import { runToolCall, type ToolRuntime } from "./tool-call";
import { errorOutcome, type ToolCallOutcome } from "./tool-output";

/** Runs the calls of one assistant message. */
export async function runToolBatch(
  calls: readonly ToolUseBlock[],
  runtime: ToolRuntime,
  concurrency: number,
): Promise<ToolCallOutcome[]> {
  const outcomes: ToolCallOutcome[] = new Array(calls.length);
  let index = 0;
  while (index < calls.length) {
    if (runtime.signal.aborted) {
      for (; index < calls.length; index++) outcomes[index] = notRun(calls[index]!);
      break;
    }
    const groupEnd = readOnlyRunEnd(calls, index, runtime);
    if (groupEnd <= index + 1) {
      // a call that is not read-only, or a lone read-only one: run it by itself
      outcomes[index] = await runToolCall(calls[index]!, runtime);
      index += 1;
    } else {
      await runConcurrently(calls, index, groupEnd, runtime, concurrency, outcomes);
      index = groupEnd;
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
      outcomes[position] = await runToolCall(calls[position]!, runtime);
    }
  };
  const workers = Math.max(1, Math.min(concurrency, end - start));
  await Promise.all(Array.from({ length: workers }, worker));
}

function notRun(call: ToolUseBlock): ToolCallOutcome {
  return errorOutcome(call.id, `The tool "${call.name}" was not run because the query was aborted.`);
}
