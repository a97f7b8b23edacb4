/**
 * The tool phase of a turn: decides how the calls of one assistant message are answered —
 * refused when the response was truncated, handled as a structured-output submission, or run as a
 * batch — and whether the query ends after them.
 * @module
 */
import type { AgentCore } from "../agent/agent-core";
import { MissingOutputError } from "../errors";
import type { SDKMessage } from "../messages/sdk-messages";
import type { AssistantModelMessage, ToolResultBlock, ToolUseBlock } from "../messages/types";
import { describeThrown } from "../shared/describe-thrown";
import { isPromiseLike, type PromiseOrValue } from "../shared/maybe-async";
import { raceWithSignal } from "../shared/signals";
import { exclusiveBatchMessage, SUBMIT_OUTPUT_TOOL_NAME } from "../tools/submit-output";
import { type ToolCallOutcome, toolResultText } from "../tools/tool-output";
import { toolResultCompactor } from "./compaction-step";
import type { Emit } from "./live-messages";
import type { QueryRun } from "./query-run";
import type { Ending } from "./run-query";
import { runToolBatch } from "./tool-batch";
import type { ToolRuntime } from "./tool-call";

/** The results of one batch, in the model's order, and the ending they cause, if any. */
export interface ToolPhaseResult<T> {
  blocks: ToolResultBlock[];
  ending?: Ending<T>;
}

/**
 * Answers every call of `message`. Synchronous when every call is (see {@link runToolBatch}): the
 * loop then spends no promise on the tool phase.
 */
export function runToolPhase<T>(
  core: AgentCore<T>,
  run: QueryRun,
  message: AssistantModelMessage,
  calls: ToolUseBlock[],
  emit: Emit<SDKMessage<T>>,
): PromiseOrValue<ToolPhaseResult<T>> {
  if (message.stop_reason === "max_tokens") return { blocks: calls.map(truncatedCallResult) };
  if (core.submitTool && calls.some((call) => call.name === SUBMIT_OUTPUT_TOOL_NAME))
    return submitOutput(core, calls, run.toolSignal);

  const outcomes = runToolBatch(calls, toolRuntimeFor(core, run, emit), core.toolConcurrency);
  if (isPromiseLike(outcomes)) return outcomes.then((settled) => phaseResult(core, settled));
  return phaseResult(core, outcomes);
}

/** The result blocks in the model's order, and the ending an `endTurn` result asks for. */
function phaseResult<T>(core: AgentCore<T>, outcomes: ToolCallOutcome[]): ToolPhaseResult<T> {
  const blocks: ToolResultBlock[] = new Array(outcomes.length);
  let ender: ToolCallOutcome | undefined;
  for (let index = 0; index < outcomes.length; index++) {
    const outcome = outcomes[index]!;
    blocks[index] = outcome.block;
    if (outcome.endTurn && !ender) ender = outcome;
  }
  if (!ender) return { blocks };
  const result = toolResultText(ender.originalContent ?? ender.block.content);
  // With outputSchema only a valid submission is a success: ending the turn otherwise is a missing output.
  if (core.submitTool)
    return { blocks, ending: { subtype: "error_missing_output", error: new MissingOutputError(), result } };
  return { blocks, ending: { subtype: "success", result } };
}

/** The tool runtime of this query, built on its first tool phase and reused by every later one. */
function toolRuntimeFor<T>(core: AgentCore<T>, run: QueryRun, emit: Emit<SDKMessage<T>>): ToolRuntime {
  const cached = run.toolRuntime as ToolRuntime | undefined;
  if (cached && cached.emit === emit) return cached;
  const runtime: ToolRuntime = {
    tools: core.tools, // a live Map: tools added later (addTools, MCP refresh) are seen
    hooks: core.hooks,
    canUseTool: core.canUseTool,
    permissionMode: core.permissionMode,
    allowedTools: core.allowedTools,
    disallowedTools: core.disallowedTools,
    toolTimeoutMs: core.toolTimeoutMs,
    signal: run.toolSignal,
    telemetry: core.telemetry,
    parentSpan: run.span,
    secrets: core.secrets,
    emit,
    denials: run.denials,
    compactResult: toolResultCompactor(core, run, emit),
  };
  run.toolRuntime = runtime;
  return runtime;
}

/** A response cut at max_tokens: its tool inputs may be incomplete, so none of them runs. */
function truncatedCallResult(call: ToolUseBlock): ToolResultBlock {
  return {
    type: "tool_result",
    tool_use_id: call.id,
    is_error: true,
    content:
      `The call to "${call.name}" was not run: your response was cut off at the output token limit (max_tokens), ` +
      "so its input may be incomplete. Reissue the call with a shorter input, or split the work into smaller calls.",
  };
}

async function submitOutput<T>(
  core: AgentCore<T>,
  calls: ToolUseBlock[],
  signal: AbortSignal,
): Promise<ToolPhaseResult<T>> {
  if (calls.length > 1) {
    const submissions = calls.filter((call) => call.name === SUBMIT_OUTPUT_TOOL_NAME).length;
    const content = exclusiveBatchMessage(calls.length, submissions);
    return {
      blocks: calls.map((call) => ({ type: "tool_result", tool_use_id: call.id, content, is_error: true })),
    };
  }
  const call = calls[0]!;
  let validation: Awaited<ReturnType<NonNullable<AgentCore<T>["submitTool"]>["validate"]>>;
  try {
    // An async output validator cannot outlive an abort.
    validation = await raceWithSignal(Promise.resolve(core.submitTool!.validate(call.input)), signal);
  } catch (error) {
    const content = signal.aborted
      ? "The submitted output was not checked because the query was aborted."
      : `The submitted output was not checked: the output validator failed (${describeThrown(error)}).`;
    return { blocks: [{ type: "tool_result", tool_use_id: call.id, content, is_error: true }] };
  }
  if (!validation.ok) {
    return {
      blocks: [
        {
          type: "tool_result",
          tool_use_id: call.id,
          is_error: true,
          content: `The submitted output failed validation:\n${validation.message}\nFix the payload and call submit_output again.`,
        },
      ],
    };
  }
  return {
    blocks: [{ type: "tool_result", tool_use_id: call.id, content: "Output accepted." }],
    ending: {
      subtype: "success",
      structured: { value: validation.value },
      result: jsonText(validation.value) ?? JSON.stringify(call.input),
    },
  };
}

/** JSON text of a parsed value; undefined when JSON cannot state it (a BigInt, a cycle, `undefined`). */
function jsonText(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}
