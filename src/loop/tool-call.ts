/**
 * One tool call, end to end, in the documented order: unknown-tool and input checks → allow/deny
 * lists → permission mode → `preToolUse` hooks → `canUseTool` → execute → `postToolUse` hooks →
 * optional summary of a huge result. Each step lives in a file of its own (`tool-permission`,
 * `tool-hooks`, `tool-execution`); this file only puts them in order. Every failure becomes an
 * error tool_result: a step refusing the call returns its error outcome, and later steps do not run.
 * @module
 */
import type { ToolUseBlock } from "../messages/types";
import type { SpanHandle } from "../telemetry/telemetry";
import { type ToolCallOutcome, toolResultText } from "../tools/tool-output";
import { compactToolResult, executeTool } from "./tool-execution";
import { runPostToolUseHooks, runPreToolUseHooks } from "./tool-hooks";
import { privateCopy, validateToolInput } from "./tool-input";
import { askCanUseTool, checkPermissionRules } from "./tool-permission";
import { unknownToolOutcome } from "./tool-refusals";
import type { ToolRuntime } from "./tool-runtime";

// The tool phase builds the runtime and imports its type from here, where it always lived.
export type { ToolRuntime } from "./tool-runtime";

/**
 * Runs one call through the whole permission and hook pipeline, inside its `execute_tool` span
 * (failed when the result is an error). A step that is not configured (no hooks, nobody to ask, no
 * result summary) is skipped. Rejects only when the result summary (`compactResult`) throws; every
 * failure of the call itself is its error result.
 */
export async function runToolCall(call: ToolUseBlock, runtime: ToolRuntime): Promise<ToolCallOutcome> {
  const span = runtime.telemetry.toolCall(runtime.parentSpan, call.name, call.id);
  try {
    const tool = runtime.tools.get(call.name);
    if (!tool) return endSpan(span, unknownToolOutcome(call, runtime.tools));
    let cleared = await validateToolInput(call, tool, privateCopy(call.input), runtime.signal);
    if ("block" in cleared) return endSpan(span, cleared);
    const rule = checkPermissionRules(call, tool, runtime);
    if (typeof rule !== "string") return endSpan(span, rule);
    if (runtime.hooks?.preToolUse?.length) {
      cleared = await runPreToolUseHooks(call, cleared, runtime);
      if ("block" in cleared) return endSpan(span, cleared);
    }
    if (rule === "ask") {
      cleared = await askCanUseTool(call, cleared, runtime);
      if ("block" in cleared) return endSpan(span, cleared);
    }
    let outcome = await executeTool(call, cleared, runtime, span);
    if (runtime.hooks?.postToolUse?.length)
      outcome = await runPostToolUseHooks(call, cleared.input, outcome, runtime);
    if (runtime.compactResult) outcome = await compactToolResult(call, outcome, runtime, span);
    return endSpan(span, outcome);
  } catch (error) {
    span.end(); // only the result summary throws, before the span was ended
    throw error;
  }
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
