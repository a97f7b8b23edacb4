/**
 * One line per tool call: the tool, its main argument, and how it went.
 * @module
 */
import type { ToolResultBlock, ToolUseBlock } from "../messages/types";
import { neutraliseControls } from "./terminal";

/** The widest argument shown; longer ones are cut with an ellipsis. */
const MAX_ARGUMENT_CHARS = 60;
/** The widest outcome shown. */
const MAX_OUTCOME_CHARS = 90;
/** Input fields that best name what a call works on, in order of preference. */
const MAIN_ARGUMENT_FIELDS = ["command", "pattern", "path", "file", "query", "url", "name"];

/** The parts of a tool line, before styling. */
export interface ToolLine {
  ok: boolean;
  /** `name(argument)`. */
  call: string;
  /** The result's only line, or its line count, or the first line of an error. */
  outcome: string;
}

/** Describes a finished call; `call` is undefined when the tool_use was never seen. */
export function describeToolCall(call: ToolUseBlock | undefined, result: ToolResultBlock): ToolLine {
  const name = call?.name ?? "tool";
  const argument = call ? mainArgumentOf(call.input) : "";
  // Names, inputs and results come from the model and tools: no control character reaches the terminal.
  return {
    ok: result.is_error !== true,
    call: neutraliseControls(`${name}(${argument})`),
    outcome: neutraliseControls(outcomeOf(resultText(result), result.is_error === true)),
  };
}

/** The most telling argument of a tool input, or its compact JSON. */
export function mainArgumentOf(input: unknown): string {
  if (typeof input !== "object" || input === null) return input === undefined ? "" : shorten(String(input));
  const record = input as Record<string, unknown>;
  for (const field of MAIN_ARGUMENT_FIELDS) {
    const value = record[field];
    if (typeof value === "string") return shorten(oneLine(value), MAX_ARGUMENT_CHARS);
  }
  const json = JSON.stringify(input);
  return json === "{}" ? "" : shorten(json, MAX_ARGUMENT_CHARS);
}

function outcomeOf(text: string, isError: boolean): string {
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  if (lines.length === 0) return isError ? "failed" : "no output";
  if (lines.length === 1 || isError) return shorten(lines[0]!.trim(), MAX_OUTCOME_CHARS);
  return `${lines.length} lines`;
}

function resultText(result: ToolResultBlock): string {
  if (typeof result.content === "string") return result.content;
  return result.content.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("\n");
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ⏎ ");
}

function shorten(text: string, limit = MAX_ARGUMENT_CHARS): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}
