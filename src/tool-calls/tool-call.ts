/**
 * One tool call, end to end, in the documented order: unknown-tool and input checks → allow/deny
 * lists → permission mode → `preToolUse` hooks → approval (a decision given at resume,
 * `needsApproval`, `askBeforeWrites`) → `canUseTool` → execute → `postToolUse` hooks → optional
 * summary of a huge result. Each step lives in a file of its own (`tool-permission`,
 * `tool-approval`, `tool-hooks`, `tool-execution`); this file only puts them in order. Every
 * failure becomes an error tool_result: a step refusing the call returns its error outcome, and
 * later steps do not run.
 *
 * The steps before execution ({@link clearToolCall}) and the rest ({@link completeToolCall}) are
 * apart so a batch that may pause for approval clears every call before any of them runs.
 * @module
 */
import type { ToolUseBlock } from "../messages/types";
import { isPromiseLike } from "../shared/maybe-async";
import type { SpanHandle } from "../telemetry/telemetry";
import type { ChildResume } from "../tools/child-suspension";
import {
  type CallOutcome,
  errorOutcome,
  type SuspendedCallOutcome,
  type ToolCallOutcome,
  toolResultText,
} from "../tools/tool-output";
import { checkApproval } from "./tool-approval";
import { compactToolResult, executeTool } from "./tool-execution";
import { guardToolInput, guardToolOutput, stoppedMessage } from "./tool-guardrails";
import { runPostToolUseHooks, runPreToolUseHooks } from "./tool-hooks";
import { checkToolInput, privateCopy } from "./tool-input";
import { checkPermissionRules } from "./tool-permission";
import { unknownToolOutcome } from "./tool-refusals";
import type { CheckedCall, ToolRuntime } from "./tool-runtime";

/** A call after the checks that come before execution, with its open `execute_tool` span. */
export interface Clearance {
  call: ToolUseBlock;
  span: SpanHandle;
  /** Cleared to run, refused (its error outcome), or waiting for a person's decision. */
  result: CheckedCall;
}

/**
 * Runs one call through the whole permission and hook pipeline, inside its `execute_tool` span
 * (failed when the result is an error). A step that is not configured (no hooks, nobody to ask, no
 * result summary) is skipped. Rejects only when the result summary (`compactResult`) throws; every
 * failure of the call itself is its error result.
 */
export async function runToolCall(call: ToolUseBlock, runtime: ToolRuntime): Promise<CallOutcome> {
  return completeToolCall(await clearToolCall(call, runtime), runtime);
}

/** The checks before execution: input, lists, mode, `preToolUse` hooks, approval, `canUseTool`. */
export async function clearToolCall(call: ToolUseBlock, runtime: ToolRuntime): Promise<Clearance> {
  const span = runtime.telemetry.toolCall(runtime.parentSpan, call.name, call.id);
  const tool = runtime.tools.get(call.name);
  if (!tool) return { call, span, result: unknownToolOutcome(call, runtime.tools) };
  // A guardrail tripped on another call of this query: nothing more starts.
  if (runtime.guardrails?.trip) return { call, span, result: errorOutcome(call.id, stoppedMessage(call)) };
  const checked = checkToolInput(call, tool, privateCopy(call.input), runtime.signal);
  let cleared = isPromiseLike(checked) ? await checked : checked;
  if (cleared.kind === "result") return { call, span, result: cleared };
  const rule = checkPermissionRules(call, tool, runtime);
  if (typeof rule !== "string") return { call, span, result: rule };
  if (runtime.hooks?.preToolUse?.length) {
    cleared = await runPreToolUseHooks(call, cleared, runtime);
    if (cleared.kind === "result") return { call, span, result: cleared };
  }
  // Guardrails see the call as it will run: after permissions and hooks, before approval.
  if (runtime.guardrails?.input) {
    const guarded = await guardToolInput(call, cleared, runtime, runtime.guardrails);
    if (guarded.kind === "result") return { call, span, result: guarded };
    cleared = guarded;
  }
  return { call, span, result: await checkApproval(call, cleared, rule, runtime) };
}

/**
 * Executes a cleared call, runs its `postToolUse` hooks and summary, and ends its span; a refused
 * call only ends its span. A call still waiting for approval here (a batch that could not pause)
 * is refused. `resume` goes on with a call suspended in its child (`approvals/child-pause.ts`).
 */
export async function completeToolCall(
  clearance: Clearance,
  runtime: ToolRuntime,
  resume?: ChildResume,
): Promise<CallOutcome> {
  const { call, span, result } = clearance;
  if (result.kind === "result") return endSpan(span, result);
  if (result.kind === "awaiting_approval") return endSpan(span, errorOutcome(call.id, notPausable(call)));
  const startedAt = runtime.now?.();
  try {
    const executed = await executeTool(call, result, runtime, span, resume);
    if (executed.kind === "suspended") return suspendedSpan(span, executed);
    let outcome = executed;
    if (runtime.hooks?.postToolUse?.length)
      outcome = await runPostToolUseHooks(call, result.input, outcome, runtime);
    if (runtime.guardrails?.output)
      outcome = await guardToolOutput(call, result.input, outcome, runtime, runtime.guardrails);
    if (runtime.compactResult) outcome = await compactToolResult(call, outcome, runtime, span);
    if (startedAt !== undefined) outcome.durationMs = runtime.now!() - startedAt;
    return endSpan(span, outcome);
  } catch (error) {
    span.end(); // only the result summary throws, before the span was ended
    throw error;
  }
}

/** A call suspended in its child has no result yet: its hooks and summary run when it finishes. */
function suspendedSpan(span: SpanHandle, outcome: SuspendedCallOutcome): SuspendedCallOutcome {
  span.set({ "agent_lattice.tool.awaiting_approval": true });
  span.end();
  return outcome;
}

function notPausable(call: ToolUseBlock): string {
  return `The call to "${call.name}" needs a person's approval, which could not be asked for here. The call was not run.`;
}

/** Ends the call's span, failed when the outcome is an error result. */
function endSpan(span: SpanHandle, outcome: ToolCallOutcome): ToolCallOutcome {
  if (outcome.block.is_error) {
    const failure = new Error(toolResultText(outcome.block.content));
    if (outcome.errorName) failure.name = outcome.errorName;
    span.fail(failure);
  }
  span.end();
  return outcome;
}
