/**
 * The tool hooks of one call: `preToolUse` before it runs (may block it or replace its input) and
 * `postToolUse` after (may replace its output). A failing hook never lets its call's output
 * through unchecked: the result says so, and a `hook_error` notice goes to the consumer.
 * @module
 */
import { refusalMessage } from "../hooks/overrides";
import { runHookChain } from "../hooks/run-hooks";
import type { PostToolUseOutput, PreToolUseOutput } from "../hooks/types";
import type { ToolUseBlock } from "../messages/types";
import { errorOutcome, outcomeFromOutput, type ToolCallOutcome, usableContent } from "../tools/tool-output";
import { validateToolInput } from "./tool-input";
import { denyCall, hookFailedOutcome } from "./tool-refusals";
import type { ClearedCall, ToolRuntime } from "./tool-runtime";

/**
 * Runs the `preToolUse` hooks matching the call, in order. A block refuses the call (a permission
 * denial with source `hook`); an `updatedInput` replaces the input for later hooks and the tool,
 * validated again once the chain is done. A hook that fails refuses the call too.
 */
export async function runPreToolUseHooks(
  call: ToolUseBlock,
  cleared: ClearedCall,
  runtime: ToolRuntime,
): Promise<ClearedCall | ToolCallOutcome> {
  let input = cleared.input;
  let updated = false;
  let blocked: { message: string | undefined } | undefined;
  const failure = await runHookChain({
    event: "preToolUse",
    hooks: runtime.hooks?.preToolUse,
    toolName: call.name,
    input: () => ({ toolName: call.name, input, toolUseId: call.id, signal: runtime.signal }),
    onOutput: (output: PreToolUseOutput) => {
      if (output.updatedInput !== undefined) {
        input = output.updatedInput;
        updated = true;
      }
      if (!output.block) return false;
      blocked = { message: output.message };
      return true;
    },
    signal: runtime.signal,
  });
  if (failure) return hookFailedOutcome(call, failure, "The call was not run.", runtime);
  if (blocked) {
    const message = refusalMessage(blocked.message) ?? `A preToolUse hook blocked "${call.name}".`;
    return denyCall(call, input, "hook", message, runtime);
  }
  if (!updated) return cleared;
  return validateToolInput(call, cleared.tool, input, runtime.signal);
}

/**
 * Runs the `postToolUse` hooks matching the call on its outcome, in order; an `updatedOutput`
 * replaces the result (an `endTurn` stays asked for). When a hook fails, or the query is aborted
 * before the hooks could check a finished call, its output is withheld: the failing hook may have
 * been the one redacting it.
 */
export async function runPostToolUseHooks(
  call: ToolUseBlock,
  input: unknown,
  outcome: ToolCallOutcome,
  runtime: ToolRuntime,
): Promise<ToolCallOutcome> {
  if (runtime.signal.aborted) return abortedBeforeCheck(call, outcome);
  let current = outcome;
  const failure = await runHookChain({
    event: "postToolUse",
    hooks: runtime.hooks?.postToolUse,
    toolName: call.name,
    input: () => ({ toolName: call.name, input, toolUseId: call.id, output: current.block }),
    onOutput: (output: PostToolUseOutput) => {
      if (output.updatedOutput === undefined) return false;
      checkOutputOverride(output.updatedOutput);
      const replaced = outcomeFromOutput(call, output.updatedOutput);
      current = { kind: "result", block: replaced.block, endTurn: current.endTurn || replaced.endTurn };
      return false;
    },
    signal: runtime.signal,
  });
  if (!failure) return current;
  const withheld = "The tool did run, but its output was withheld because the hook could not check it.";
  return hookFailedOutcome(call, failure, withheld, runtime, abortedBeforeCheck(call, outcome));
}

/**
 * Refuses (throws, failing the hook) an `updatedOutput` whose content history could not hold: the
 * API would refuse it on every later request.
 */
function checkOutputOverride(output: unknown): void {
  if (typeof output !== "object" || output === null || !("content" in output)) return;
  if (usableContent(output.content) === undefined)
    throw new TypeError("updatedOutput content must be a string or an array of text and image blocks.");
}

/**
 * The query was aborted before `postToolUse` hooks checked the outcome: a cancelled or failed call
 * keeps its error; a finished call's output is withheld, since a hook may have been the one
 * redacting it. Not a hook failure: no `hook_error`.
 */
function abortedBeforeCheck(call: ToolUseBlock, outcome: ToolCallOutcome): ToolCallOutcome {
  if (outcome.block.is_error) return outcome;
  return errorOutcome(
    call.id,
    `The tool "${call.name}" ran, but the query was aborted before its postToolUse hooks checked the output, so the output was withheld.`,
  );
}
