/**
 * The error results of a tool call that was refused or cut short before it could run, shared by
 * every step of the pipeline so each situation reads the same wherever it is met.
 * @module
 */

import { meetHookFailure } from "../hooks/hook-failure";
import type { HookFailure } from "../hooks/run-hooks";
import type { PermissionDenial } from "../messages/sdk-messages";
import type { ToolUseBlock } from "../messages/types";
import { redact } from "../shared/redact";
import { asSentence } from "../shared/sentence";
import type { Tool } from "../tools/tool";
import { errorOutcome, type ToolCallOutcome } from "../tools/tool-output";
import type { ToolRuntime } from "./tool-runtime";

/** The model called a tool the agent does not have: the result lists the ones it does. */
export function unknownToolOutcome(call: ToolUseBlock, tools: ReadonlyMap<string, Tool>): ToolCallOutcome {
  const available = [...tools.keys()].join(", ") || "(none)";
  return errorOutcome(call.id, `Unknown tool "${call.name}". Available tools: ${available}.`);
}

/** The validator refused the input; `issues` is its message, shown to the model so it can fix the call. */
export function invalidInputOutcome(call: ToolUseBlock, issues: string): ToolCallOutcome {
  return errorOutcome(
    call.id,
    `Invalid input for tool "${call.name}":\n${issues}\nFix the input and call the tool again.`,
  );
}

/** The query was aborted before the call started: it was not run (nor shown to hooks). */
export function notRunOutcome(call: ToolUseBlock): ToolCallOutcome {
  return errorOutcome(call.id, `The tool "${call.name}" was not run because the query was aborted.`);
}

/** The query was aborted before or while the call ran. */
export function abortedOutcome(call: ToolUseBlock): ToolCallOutcome {
  return errorOutcome(call.id, `The tool "${call.name}" was cancelled because the query was aborted.`);
}

/**
 * A permission denial: recorded in the query's `permission_denials` (with the input as it stood
 * when refused) and answered with `Permission denied: <message>`.
 */
export function denyCall(
  call: ToolUseBlock,
  input: unknown,
  source: PermissionDenial["source"],
  message: string,
  runtime: ToolRuntime,
): ToolCallOutcome {
  runtime.denials.push({ tool_name: call.name, tool_use_id: call.id, tool_input: input, source, message });
  return errorOutcome(call.id, `Permission denied: ${message}`);
}

/**
 * A tool hook failed, met the loop's one way (`meetHookFailure`: a `hook_error` notice to the
 * consumer); the result says what became of the call (`detail`), with the agent's secrets redacted
 * from the hook's error text. A failure caused by the query's abort is not the hook's: then the
 * result is `aborted` (no notice).
 */
export function hookFailedOutcome(
  call: ToolUseBlock,
  failure: HookFailure,
  detail: string,
  runtime: ToolRuntime,
  aborted: ToolCallOutcome = abortedOutcome(call),
): ToolCallOutcome {
  if (meetHookFailure(failure, runtime.signal, runtime.emit) === "cancelled") return aborted;
  return errorOutcome(call.id, redact(`${asSentence(failure.message)} ${detail}`, runtime.secrets));
}
