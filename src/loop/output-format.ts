/**
 * Provider-native structured output: the final text must be JSON, validated by the format's parser.
 * @module
 */
import { StructuredOutputError } from "../errors";
import type { OutputFormat } from "../model/client";
import { messageOfThrown } from "../shared/describe-thrown";
import type { Ending } from "./ending";

/** Parses and validates the final text; a failure ends the query `error_during_execution`. */
export function parseOutputFormat<T>(format: OutputFormat, text: string): Ending<T> {
  let json: unknown;
  try {
    json = JSON.parse(stripCodeFence(text));
  } catch (error) {
    return {
      subtype: "error_during_execution",
      result: text,
      error: new StructuredOutputError(
        `outputFormat: the final response is not valid JSON (${messageOfThrown(error)}).`,
        text,
        { cause: error },
      ),
    };
  }
  if (!format.parse) return { subtype: "success", structured: { value: json as T } };
  try {
    return { subtype: "success", structured: { value: format.parse(json) as T } };
  } catch (error) {
    return {
      subtype: "error_during_execution",
      result: text,
      error: new StructuredOutputError(
        `outputFormat: the final JSON failed validation: ${messageOfThrown(error)}`,
        text,
        { cause: error },
      ),
    };
  }
}

/** Some compatible providers wrap JSON in a Markdown code fence even in JSON mode. */
function stripCodeFence(text: string): string {
  const trimmed = text.trim();
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/.exec(trimmed);
  return fenced ? fenced[1]! : trimmed;
}
