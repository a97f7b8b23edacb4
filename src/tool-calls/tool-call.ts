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
import type { Tool } from "../tools/tool";
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
import type { CheckedCall, ClearedCall, ToolRuntime } from "./tool-runtime";

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
  return runToolCallNow(call, runtime);
}

/**
 * {@link runToolCall} without a tick where none is due: a call whose every step answers at once — a
 * synchronous tool and validator, no hooks, guardrails, approval function, `canUseTool` question,
 * deadline or result summary — comes back as its outcome; otherwise as a promise of it.
 */
export function runToolCallNow(call: ToolUseBlock, runtime: ToolRuntime): CallOutcome | Promise<CallOutcome> {
  const clearance = clearToolCall(call, runtime);
  return isPromiseLike(clearance)
    ? clearance.then((cleared) => completeToolCall(cleared, runtime))
    : completeToolCall(clearance, runtime);
}

/**
 * The checks before execution: input, lists, mode, `preToolUse` hooks, approval, `canUseTool` —
 * answered at once when none of them has to wait (see {@link runToolCallNow}).
 */
export function clearToolCall(call: ToolUseBlock, runtime: ToolRuntime): Clearance | Promise<Clearance> {
  const span = runtime.telemetry.toolCall(runtime.parentSpan, call.name, call.id);
  const tool = runtime.tools.get(call.name);
  if (!tool) return { call, span, result: unknownToolOutcome(call, runtime.tools) };
  // A guardrail tripped on another call of this query: nothing more starts.
  if (runtime.guardrails?.trip) return { call, span, result: errorOutcome(call.id, stoppedMessage(call)) };
  const checked = checkToolInput(call, tool, privateCopy(call.input), runtime.signal);
  return isPromiseLike(checked)
    ? checked.then((cleared) => clearCheckedInput(call, span, tool, cleared, runtime))
    : clearCheckedInput(call, span, tool, checked, runtime);
}

/** The checks after the input's: lists and mode, then hooks and guardrails (when there are), then approval. */
function clearCheckedInput(
  call: ToolUseBlock,
  span: SpanHandle,
  tool: Tool,
  checked: ClearedCall | ToolCallOutcome,
  runtime: ToolRuntime,
): Clearance | Promise<Clearance> {
  if (checked.kind === "result") return { call, span, result: checked };
  const rule = checkPermissionRules(call, tool, runtime);
  if (typeof rule !== "string") return { call, span, result: rule };
  if (runtime.hooks?.preToolUse?.length || runtime.guardrails?.input)
    return clearHookedCall(call, span, checked, rule, runtime);
  const approval = checkApproval(call, checked, rule, runtime);
  return isPromiseLike(approval)
    ? approval.then((result) => ({ call, span, result }))
    : { call, span, result: approval };
}

/** The `preToolUse` hooks, then the input guardrails — they see the call as it will run — then approval. */
async function clearHookedCall(
  call: ToolUseBlock,
  span: SpanHandle,
  checked: ClearedCall,
  rule: "allow" | "ask" | "approval",
  runtime: ToolRuntime,
): Promise<Clearance> {
  let cleared = checked;
  if (runtime.hooks?.preToolUse?.length) {
    const hooked = await runPreToolUseHooks(call, cleared, runtime);
    if (hooked.kind === "result") return { call, span, result: hooked };
    cleared = hooked;
  }
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
 * Answered at once when the tool answers at once and nothing runs after it (no hook, guardrail or
 * result summary).
 */
export function completeToolCall(
  clearance: Clearance,
  runtime: ToolRuntime,
  resume?: ChildResume,
): CallOutcome | Promise<CallOutcome> {
  const { call, span, result } = clearance;
  if (result.kind === "result") return endSpan(span, result);
  if (result.kind === "awaiting_approval") return endSpan(span, errorOutcome(call.id, notPausable(call)));
  if (runtime.hooks?.postToolUse?.length || runtime.guardrails?.output || runtime.compactResult)
    return executeAndFollowUp(call, result, runtime, span, resume);
  const startedAt = runtime.now?.();
  const executed = executeTool(call, result, runtime, span, resume);
  return isPromiseLike(executed)
    ? executed.then((outcome) => executedCall(span, outcome, startedAt, runtime))
    : executedCall(span, executed, startedAt, runtime);
}

/** A call that ran with nothing after it: its duration noted, its span ended. */
function executedCall(
  span: SpanHandle,
  executed: CallOutcome,
  startedAt: number | undefined,
  runtime: ToolRuntime,
): CallOutcome {
  if (executed.kind === "suspended") return suspendedSpan(span, executed);
  if (startedAt !== undefined) executed.durationMs = runtime.now!() - startedAt;
  return endSpan(span, executed);
}

/** Executes the call, then its `postToolUse` hooks, output guardrails and result summary, in that order. */
async function executeAndFollowUp(
  call: ToolUseBlock,
  cleared: ClearedCall,
  runtime: ToolRuntime,
  span: SpanHandle,
  resume: ChildResume | undefined,
): Promise<CallOutcome> {
  const startedAt = runtime.now?.();
  try {
    const executed = await executeTool(call, cleared, runtime, span, resume);
    if (executed.kind === "suspended") return suspendedSpan(span, executed);
    let outcome = executed;
    if (runtime.hooks?.postToolUse?.length)
      outcome = await runPostToolUseHooks(call, cleared.input, outcome, runtime);
    if (runtime.guardrails?.output)
      outcome = await guardToolOutput(call, cleared.input, outcome, runtime, runtime.guardrails);
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
