/**
 * Whether a batch may pause for approval: the one predicate that decides whether a batch is
 * checked whole before any call runs (`loop/approvals/approval-gate.ts`) and whether an agent's
 * calls may start while the response streams (`loop/tool-phase.ts`).
 *
 * A call can ask for a person's decision only through its tool's `needsApproval`, or through the
 * static rules (`hooks/permissions.ts`) leaving it to a person (`askBeforeWrites`) or to
 * `canUseTool` (when set) — which they never do for a read-only tool, a tool `allowedTools`
 * names, or under `bypassPermissions`. An unknown tool only produces an error result, and a hook
 * can replace a call's input, never its tool: so neither can make a call ask.
 * @module
 */
import { staticPermission } from "../hooks/permissions";
import type { ToolUseBlock } from "../messages/types";
import type { Tool } from "../tools/tool";
import type { ToolRuntime } from "./tool-runtime";

/** Whether a call of `tool` (by `name`) could ask for a person's decision under `runtime`'s rules. */
export function callMayAsk(tool: Tool | undefined, name: string, runtime: ToolRuntime): boolean {
  if (tool === undefined) return false;
  if (tool.needsApproval) return true;
  if (runtime.canUseTool === undefined && runtime.permissionMode !== "askBeforeWrites") return false;
  const rule = staticPermission(name, tool.readOnly, runtime).kind;
  return rule === "approval" || (rule === "ask" && runtime.canUseTool !== undefined);
}

/**
 * Whether this batch may pause for approval: it is being resumed (its decisions settle its calls),
 * or one of its calls could ask. Such a batch is checked whole before any call runs.
 */
export function batchMayPause(calls: readonly ToolUseBlock[], runtime: ToolRuntime): boolean {
  if (runtime.decisions) return true;
  for (const call of calls) if (callMayAsk(runtime.tools.get(call.name), call.name, runtime)) return true;
  return false;
}

/** Whether any batch of this agent may pause: a call of one of its tools could ask. */
export function anyBatchMayPause(runtime: ToolRuntime): boolean {
  for (const [name, tool] of runtime.tools) if (callMayAsk(tool, name, runtime)) return true;
  return false;
}
