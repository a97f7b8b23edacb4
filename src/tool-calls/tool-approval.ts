/**
 * The approval step of a tool call, after the `preToolUse` hooks: a decision a person gave when
 * the batch was resumed settles the call; otherwise `needsApproval` and the `askBeforeWrites` mode
 * ask for one, and `canUseTool` is asked about a call the rules leave undecided (it may answer
 * `{ behavior: "ask" }` too).
 * @module
 */
import type { ToolUseBlock } from "../messages/types";
import { callContext } from "../tools/tool-context";
import type { ToolCallOutcome } from "../tools/tool-output";
import { validateToolInput } from "./tool-input";
import { askAboutCall, askCanUseTool } from "./tool-permission";
import { denyCall } from "./tool-refusals";
import type { CheckedCall, ClearedCall, ToolRuntime } from "./tool-runtime";

/**
 * Settles the approval of a cleared call: the call cleared to run, its refusal, or a request for
 * a decision. `rule` is what the lists and the mode said (`"approval"` under `askBeforeWrites`).
 * Answered at once unless someone is asked: a `needsApproval` function, or `canUseTool`.
 */
export function checkApproval(
  call: ToolUseBlock,
  cleared: ClearedCall,
  rule: "allow" | "ask" | "approval",
  runtime: ToolRuntime,
): CheckedCall | Promise<CheckedCall> {
  const decision = runtime.decisions?.get(call.id);
  if (decision) {
    if (!decision.approved) {
      const message = decision.message?.trim() || `A person denied the call to "${call.name}".`;
      return denyCall(call, cleared.input, "approval", message, runtime);
    }
    if (decision.updatedInput === undefined) return cleared;
    return validateToolInput(call, cleared.tool, decision.updatedInput, runtime.signal);
  }
  // A flag (or nothing) answers at once: only a function is asked, and awaited.
  const { needsApproval } = cleared.tool;
  if (typeof needsApproval === "function") return askedApproval(call, cleared, rule, runtime);
  return approvalRequest(call, cleared, needsApproval === true, rule, runtime);
}

/** {@link checkApproval} once the tool's `needsApproval` function has answered. */
async function askedApproval(
  call: ToolUseBlock,
  cleared: ClearedCall,
  rule: "allow" | "ask" | "approval",
  runtime: ToolRuntime,
): Promise<CheckedCall> {
  const needs = await toolNeedsApproval(call, cleared, runtime);
  if (typeof needs !== "boolean") return needs;
  return approvalRequest(call, cleared, needs, rule, runtime);
}

/**
 * What the call asks for once `needs` (the tool's own answer) is known: a decision, `canUseTool`'s
 * answer when the rules left it undecided, or nothing (cleared to run).
 */
function approvalRequest(
  call: ToolUseBlock,
  cleared: ClearedCall,
  needs: boolean,
  rule: "allow" | "ask" | "approval",
  runtime: ToolRuntime,
): CheckedCall | Promise<CheckedCall> {
  if (needs || rule === "approval")
    return notAskedOnResume(call, cleared, { kind: "awaiting_approval", input: cleared.input }, runtime);
  if (rule === "ask" && runtime.canUseTool)
    return askCanUseTool(call, cleared, runtime).then((request) =>
      notAskedOnResume(call, cleared, request, runtime),
    );
  return cleared;
}

/** A request for a decision, unless the batch was resumed: a call that had no decision to give was not pending; it cannot ask again now. */
function notAskedOnResume(
  call: ToolUseBlock,
  cleared: ClearedCall,
  request: CheckedCall,
  runtime: ToolRuntime,
): CheckedCall {
  if (request.kind !== "awaiting_approval" || !runtime.decisions) return request;
  return denyCall(
    call,
    cleared.input,
    "approval",
    `The call to "${call.name}" asked for approval after its batch was resumed; it was not run.`,
    runtime,
  );
}

/** The tool's `needsApproval` for this call; a function that throws refuses the call. */
async function toolNeedsApproval(
  call: ToolUseBlock,
  cleared: ClearedCall,
  runtime: ToolRuntime,
): Promise<boolean | ToolCallOutcome> {
  const { needsApproval } = cleared.tool;
  if (typeof needsApproval !== "function") return needsApproval === true;
  const context = callContext({
    signal: runtime.signal,
    toolUseId: call.id,
    toolName: call.name,
    checkpointId: runtime.checkpointId,
  });
  const asked = await askAboutCall(call, runtime, "approval check (needsApproval)", () =>
    needsApproval(cleared.value, context),
  );
  return asked.answered ? asked.answer === true : asked.refusal;
}
