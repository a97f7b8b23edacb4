/**
 * The step journal of tool calls (`ToolContext.step`): while a call runs, each step's result enters
 * history as a record of its own after the assistant message that made the call, written to the
 * store before `step` returns. When the batch's results are recorded, the records give way to them
 * (the results message keeps the steps in `meta.tool_steps`), so a finished turn holds no record.
 * A process killed while a call ran leaves the records at the end of the stored history: crash
 * repair reads them there (`repair.ts`), and the call is run again with its recorded steps replayed.
 * Never sent to the model: a record never stays before a request.
 * @module
 */
import type { ModelMessage, UserModelMessage } from "../messages/types";

/** One step a call recorded: its name and the JSON result `step` returned (absent: `undefined`). */
export interface ToolStep {
  name: string;
  result?: unknown;
}

/**
 * A step's record in history: a user message flagged `tool_step`, naming the call it belongs to.
 * The call's first record keeps the input the call ran with (`input`), so a re-run runs it alike.
 */
export type ToolStepRecord = UserModelMessage & {
  tool_step: ToolStep & { tool_use_id: string; input?: unknown };
};

/** The steps of the calls of one turn, by `tool_use_id`, in the order they were recorded. */
export type ToolStepsByCall = Record<string, ToolStep[]>;

/** The record of the step `name` of the call `toolUseId`, with its (plain JSON) result. */
export function toolStepRecord(
  toolUseId: string,
  name: string,
  result: unknown,
  input?: unknown,
): ToolStepRecord {
  const step: ToolStepRecord["tool_step"] = { tool_use_id: toolUseId, name };
  if (result !== undefined) step.result = result;
  if (input !== undefined) step.input = input;
  return {
    role: "user",
    content: [{ type: "text", text: `[tool call ${toolUseId}: step "${name}" recorded]` }],
    tool_step: step,
  };
}

/** Whether `message` is a step's record. */
export function isToolStepRecord(message: ModelMessage | undefined): message is ToolStepRecord {
  return (
    message !== undefined &&
    message.role === "user" &&
    typeof (message as Partial<ToolStepRecord>).tool_step === "object" &&
    (message as Partial<ToolStepRecord>).tool_step !== null
  );
}

/** Where the step records at the end of `messages` begin (`messages.length` when there are none). */
export function stepRecordsStart(messages: readonly ModelMessage[]): number {
  let start = messages.length;
  while (start > 0 && isToolStepRecord(messages[start - 1])) start--;
  return start;
}

/** The steps of `records`, by call, in order, and the input each call ran with (from its first record). */
export function stepsByCall(records: readonly ModelMessage[]): {
  steps: ToolStepsByCall;
  inputs: Record<string, unknown>;
} {
  const steps: ToolStepsByCall = {};
  const inputs: Record<string, unknown> = {};
  for (const record of records) {
    if (!isToolStepRecord(record)) continue;
    const { tool_use_id, input, ...step } = record.tool_step;
    if (input !== undefined && !(tool_use_id in inputs)) inputs[tool_use_id] = input;
    (steps[tool_use_id] ??= []).push(step);
  }
  return { steps, inputs };
}
