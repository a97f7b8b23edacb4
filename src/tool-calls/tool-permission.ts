/**
 * The permission checks of a tool call: before any hook, the allow/deny lists and the permission
 * mode (for a call whose tool exists and whose input passed its validator); after the `preToolUse`
 * hooks, `canUseTool`, asked about a call those rules leave undecided.
 * @module
 */
import { refusalMessage } from "../hooks/overrides";
import { staticPermission } from "../hooks/permissions";
import type { PermissionResult } from "../hooks/types";
import type { ToolUseBlock } from "../messages/types";
import { describeThrown } from "../shared/describe-thrown";
import { raceWithSignal } from "../shared/signals";
import type { Tool } from "../tools/tool";
import { errorOutcome, type ToolCallOutcome } from "../tools/tool-output";
import { validateToolInput } from "./tool-input";
import { abortedOutcome, denyCall } from "./tool-refusals";
import type { CheckedCall, ClearedCall, ToolRuntime } from "./tool-runtime";

/**
 * The allow/deny lists, then the permission mode, for a call whose input passed its validator.
 * Returns the error result of a refusal (recorded as a permission denial with the model's input),
 * `"ask"` when `canUseTool` must decide (the rules leave the call undecided and it is set),
 * `"approval"` when a person must (`askBeforeWrites`), or `"allow"`.
 */
export function checkPermissionRules(
  call: ToolUseBlock,
  tool: Tool,
  runtime: ToolRuntime,
): ToolCallOutcome | "allow" | "ask" | "approval" {
  const rule = staticPermission(call.name, tool.readOnly, runtime);
  if (rule.kind === "deny") return denyCall(call, call.input, rule.source, rule.message, runtime);
  if (rule.kind === "approval") return "approval";
  return rule.kind === "ask" && runtime.canUseTool !== undefined ? "ask" : "allow";
}

/**
 * Asks `canUseTool` about a call (only when the static rules asked for it and it is set). The
 * prompt is raced with the query's signal — a check waiting on a human cannot outlive an abort —
 * and anything but a well-formed allow refuses the call. An allow with `updatedInput` runs the
 * call with that input, validated again.
 */
export async function askCanUseTool(
  call: ToolUseBlock,
  cleared: ClearedCall,
  runtime: ToolRuntime,
): Promise<CheckedCall> {
  const canUseTool = runtime.canUseTool!;
  const { input } = cleared;
  const asked = await askAboutCall(call, runtime, "permission check (canUseTool)", () =>
    canUseTool(call.name, input, { signal: runtime.signal, toolUseId: call.id }),
  );
  if (!asked.answered) return asked.refusal;
  const decision = asPermissionResult(asked.answer);
  if (!decision) {
    return errorOutcome(
      call.id,
      `The permission check (canUseTool) for "${call.name}" returned none of { behavior: "allow" }, { behavior: "deny" } and { behavior: "ask" }. The call was not run.`,
    );
  }
  if (decision.behavior === "ask")
    return typeof decision.message === "string" && decision.message.trim() !== ""
      ? { kind: "awaiting_approval", input, message: decision.message }
      : { kind: "awaiting_approval", input };
  if (decision.behavior === "deny") {
    const message = refusalMessage(decision.message) ?? `canUseTool refused "${call.name}".`;
    return denyCall(call, input, "canUseTool", message, runtime);
  }
  if (decision.updatedInput === undefined) return cleared;
  return validateToolInput(call, cleared.tool, decision.updatedInput, runtime.signal);
}

/**
 * Asks a user callback about a call (`canUseTool`, `needsApproval`): not once the query is aborted
 * (nobody is asked about a call that can no longer run), raced with its signal (a check waiting on
 * a person cannot outlive an abort). A throw or rejection refuses the call, named by `check`.
 */
export async function askAboutCall<A>(
  call: ToolUseBlock,
  runtime: ToolRuntime,
  check: string,
  ask: () => A | PromiseLike<A>,
): Promise<{ answered: true; answer: A } | { answered: false; refusal: ToolCallOutcome }> {
  if (runtime.signal.aborted) return { answered: false, refusal: abortedOutcome(call) };
  try {
    // Started a tick later, so that a synchronous throw becomes a rejection like any other failure.
    const answer = await raceWithSignal(Promise.resolve().then(ask), runtime.signal);
    return { answered: true, answer };
  } catch (error) {
    if (runtime.signal.aborted) return { answered: false, refusal: abortedOutcome(call) };
    const text = `The ${check} for "${call.name}" failed: ${describeThrown(error)}. The call was not run.`;
    return { answered: false, refusal: errorOutcome(call.id, text) };
  }
}

/** A well-formed decision, or undefined: anything else fails closed (never read as an allow). */
function asPermissionResult(answer: unknown): PermissionResult | undefined {
  if (typeof answer !== "object" || answer === null) return undefined;
  const { behavior } = answer as { behavior?: unknown };
  return behavior === "allow" || behavior === "deny" || behavior === "ask"
    ? (answer as PermissionResult)
    : undefined;
}
