/**
 * A structured-output submission (`outputSchema`): the `submit_output` call is validated, and a
 * valid payload ends the query with it as the structured result.
 * @module
 */
import type { ToolResultBlock, ToolUseBlock } from "../messages/types";
import { describeThrown } from "../shared/describe-thrown";
import { raceWithSignal } from "../shared/signals";
import {
  exclusiveBatchMessage,
  SUBMIT_OUTPUT_TOOL_NAME,
  type SubmitOutputTool,
} from "../tools/submit-output";
import type { Ending } from "./ending";

/** Answers a batch holding a `submit_output` call; it must be the only call of its batch. */
export async function submitOutput<T>(
  submitTool: SubmitOutputTool<T>,
  calls: ToolUseBlock[],
  signal: AbortSignal,
): Promise<{ blocks: ToolResultBlock[]; ending?: Ending<T> }> {
  if (calls.length > 1) {
    const submissions = calls.filter((call) => call.name === SUBMIT_OUTPUT_TOOL_NAME).length;
    const content = exclusiveBatchMessage(calls.length, submissions);
    return {
      blocks: calls.map((call) => ({ type: "tool_result", tool_use_id: call.id, content, is_error: true })),
    };
  }
  const call = calls[0]!;
  let validation: Awaited<ReturnType<SubmitOutputTool<T>["validate"]>>;
  try {
    // An async output validator cannot outlive an abort.
    validation = await raceWithSignal(Promise.resolve(submitTool.validate(call.input)), signal);
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
