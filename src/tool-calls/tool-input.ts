/**
 * The input a tool call runs with: a private copy of the model's input, checked by the tool's
 * validator. Used for the model's input and again for every replacement a `preToolUse` hook or
 * `canUseTool` hands back.
 * @module
 */
import type { ToolUseBlock } from "../messages/types";
import { describeThrown } from "../shared/describe-thrown";
import { isPromiseLike } from "../shared/maybe-async";
import { raceWithSignal } from "../shared/signals";
import type { ParseResult, Tool } from "../tools/tool";
import type { ToolCallOutcome } from "../tools/tool-output";
import { abortedOutcome, invalidInputOutcome } from "./tool-refusals";
import type { ClearedCall } from "./tool-runtime";

/**
 * Validates `input` for `tool`: the cleared call, or the error result refusing it. A validator
 * that throws or rejects refuses the input. An asynchronous validator is raced with `signal` (a
 * remote lookup that never answers cannot outlive an abort): the result is then the aborted one.
 */
export async function validateToolInput(
  call: ToolUseBlock,
  tool: Tool,
  input: unknown,
  signal: AbortSignal,
): Promise<ClearedCall | ToolCallOutcome> {
  return checkToolInput(call, tool, input, signal);
}

/**
 * {@link validateToolInput}, answered at once when the validator answers at once (a JSON Schema
 * check, zod's `safeParse`): the hot path of every call spends no promise on it.
 */
export function checkToolInput(
  call: ToolUseBlock,
  tool: Tool,
  input: unknown,
  signal: AbortSignal,
): ClearedCall | ToolCallOutcome | Promise<ClearedCall | ToolCallOutcome> {
  let parsing: ReturnType<Tool["parseInput"]>;
  try {
    parsing = tool.parseInput(input);
  } catch (error) {
    return invalidInputOutcome(call, validatorFailed(error));
  }
  // It has already answered: nothing to race.
  if (!isPromiseLike(parsing)) return clearedOrRefused(call, tool, input, parsing);
  return raceWithSignal(Promise.resolve(parsing), signal).then(
    (parsed) => clearedOrRefused(call, tool, input, parsed),
    (error: unknown) =>
      signal.aborted
        ? abortedOutcome(call)
        : clearedOrRefused(call, tool, input, { ok: false, message: validatorFailed(error) }),
  );
}

function clearedOrRefused(
  call: ToolUseBlock,
  tool: Tool,
  input: unknown,
  parsed: ParseResult<unknown>,
): ClearedCall | ToolCallOutcome {
  if (!parsed.ok) return invalidInputOutcome(call, parsed.message);
  return { kind: "cleared", tool, input, value: parsed.value };
}

function validatorFailed(error: unknown): string {
  return `The input validator failed: ${describeThrown(error)}`;
}

/**
 * A copy of the model's input for the validator, hooks and the tool: a validator may hand back the
 * object it was given (a bare `parse`, `z.any()` fields), and a tool editing its input would then
 * rewrite the `tool_use` block in history — later requests would show the model a call it never
 * made. Inputs come from JSON, so copying plain objects and arrays is exact (and far cheaper than
 * `structuredClone`); anything else inside is shared, and an input nested deeper than JSON sensibly
 * goes (or holding a cycle, from a scripted client) is used as is.
 */
export function privateCopy(input: unknown): unknown {
  if (typeof input !== "object" || input === null) return input;
  try {
    return copyJsonValue(input, 0);
  } catch {
    return input;
  }
}

const MAX_COPY_DEPTH = 512;

function copyJsonValue(value: unknown, depth: number): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (depth > MAX_COPY_DEPTH) throw new RangeError("input nested too deeply to copy");
  if (Array.isArray(value)) {
    const copy = new Array(value.length);
    for (let index = 0; index < value.length; index++) copy[index] = copyJsonValue(value[index], depth + 1);
    return copy;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value; // not from JSON: shared
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value))
    copy[key] = copyJsonValue((value as Record<string, unknown>)[key], depth + 1);
  return copy;
}
