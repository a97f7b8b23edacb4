/**
 * Running a cleared tool call: under the query's signal and the per-call deadline, inside its
 * `execute_tool` span, with every way it can end mapped to an outcome — its output, a throw or
 * rejection (secrets redacted), the deadline, an abort. Then, when configured, the summary of a
 * huge successful result.
 * @module
 */
import type { ToolUseBlock } from "../messages/types";
import { type Deadline, startDeadline } from "../shared/deadline";
import { describeThrown, nameOfThrown } from "../shared/describe-thrown";
import { isPromiseLike } from "../shared/maybe-async";
import { redact } from "../shared/redact";
import { raceWithSignal } from "../shared/signals";
import type { InheritedTracing, SpanHandle } from "../telemetry/telemetry";
import type { ChildResume } from "../tools/child-suspension";
import type { AgentCallSetup, ToolContext, ToolOutput } from "../tools/tool";
import { callContext } from "../tools/tool-context";
import {
  type CallOutcome,
  errorOutcome,
  outcomeFromOutput,
  type ToolCallOutcome,
} from "../tools/tool-output";
import { abortedOutcome } from "./tool-refusals";
import type { ClearedCall, ToolRuntime } from "./tool-runtime";

/**
 * Executes the tool with the cleared input. Its context signal aborts when the query's does or
 * the per-call deadline (`toolTimeoutMs`) passes; a tool that ignores it is abandoned at that
 * moment all the same. Never throws: a failure becomes an error result. A tool that runs an agent
 * (`runAgentCall`) may come back suspended; `resume` goes on with a call suspended inside its child.
 * A synchronous tool's outcome comes back at once — there is nothing to race — else a promise of it.
 */
export function executeTool(
  call: ToolUseBlock,
  cleared: ClearedCall,
  runtime: ToolRuntime,
  span: SpanHandle,
  resume?: ChildResume,
): CallOutcome | Promise<CallOutcome> {
  if (runtime.signalAborted()) return abortedOutcome(call);
  // Only a per-call deadline needs a signal of its own (an AbortController per call is costly).
  const deadline =
    runtime.toolTimeoutMs === undefined
      ? undefined
      : startDeadline(runtime.signal, runtime.toolTimeoutMs, toolTimeoutReason);
  const signal = deadline?.signal ?? runtime.signal;
  let output: ToolOutput | PromiseLike<ToolOutput>;
  try {
    const { tool, value } = cleared;
    const context = callContext({
      signal,
      toolUseId: call.id,
      toolName: call.name,
      agent: runtime.agent,
      checkpointId: runtime.checkpointId,
      input: cleared.input,
      journal: runtime.journal,
    });
    if (tool.runAgentCall && runtime.agent)
      return settledExecution(
        call,
        runAgentCall(call, cleared, context, span, runtime, resume),
        deadline,
        runtime,
      );
    // With tracing on, the tool runs inside its execute_tool span (its own spans nest under it).
    output = span.activate ? span.activate(() => tool.execute(value, context)) : tool.execute(value, context);
    if (!isPromiseLike(output)) {
      deadline?.clear();
      return outcomeFromOutput(call, output);
    }
  } catch (error) {
    const failed = failedExecution(call, error, deadline, runtime);
    deadline?.clear();
    return failed;
  }
  const answered = raceWithSignal(Promise.resolve(output), signal).then((settled) =>
    outcomeFromOutput(call, settled),
  );
  return settledExecution(call, answered, deadline, runtime);
}

/** The outcome of a call still running, once it settles: a rejection is its error result; the deadline is cleared. */
async function settledExecution(
  call: ToolUseBlock,
  running: Promise<CallOutcome>,
  deadline: Deadline | undefined,
  runtime: ToolRuntime,
): Promise<CallOutcome> {
  try {
    return await running;
  } catch (error) {
    return failedExecution(call, error, deadline, runtime);
  } finally {
    deadline?.clear();
  }
}

/**
 * A call of a tool that runs an agent of its own, inside an agent's query: given its resume and,
 * with tracing on, the tracing its child nests in; it comes back with a result or suspended.
 */
async function runAgentCall(
  call: ToolUseBlock,
  { tool, value }: ClearedCall,
  context: ToolContext,
  span: SpanHandle,
  runtime: ToolRuntime,
  resume: ChildResume | undefined,
): Promise<CallOutcome> {
  const settings = runtime.telemetry.settings;
  const tracing: InheritedTracing | undefined = settings && { settings, span };
  const setup: AgentCallSetup = { resume, tracing };
  const run = () => tool.runAgentCall!(value, context, setup);
  const outcome = await raceWithSignal(span.activate ? span.activate(run) : run(), context.signal);
  return outcome.kind === "suspended" ? outcome : outcomeFromOutput(call, outcome.output);
}

/** The reason a tool's signal aborts with when its deadline passes. */
function toolTimeoutReason(timeoutMs: number): DOMException {
  return new DOMException(`The tool call did not finish within ${timeoutMs} ms.`, "TimeoutError");
}

/** The error result of a tool that threw, timed out or was cancelled. */
function failedExecution(
  call: ToolUseBlock,
  error: unknown,
  deadline: Deadline | undefined,
  runtime: ToolRuntime,
): ToolCallOutcome {
  if (deadline?.expired) {
    return errorOutcome(
      call.id,
      `The tool "${call.name}" did not finish within ${deadline.timeoutMs} ms and was cancelled.`,
    );
  }
  if (runtime.signal.aborted) return abortedOutcome(call);
  const outcome = errorOutcome(
    call.id,
    redact(`The tool "${call.name}" failed: ${describeThrown(error)}`, runtime.secrets),
  );
  const errorName = nameOfThrown(error);
  if (errorName) outcome.errorName = errorName; // for the span's error.type
  return outcome;
}

/**
 * Summarises a huge successful result with `runtime.compactResult` before it enters history (its
 * span a child of the call's). An `endTurn` result stays the tool's own content as the query's result.
 */
export async function compactToolResult(
  call: ToolUseBlock,
  outcome: ToolCallOutcome,
  runtime: ToolRuntime,
  span: SpanHandle,
): Promise<ToolCallOutcome> {
  if (!runtime.compactResult || outcome.block.is_error) return outcome;
  const block = await runtime.compactResult(call, outcome.block, span);
  if (block === outcome.block) return outcome;
  return outcome.endTurn
    ? { ...outcome, block, originalContent: outcome.block.content }
    : { ...outcome, block };
}
