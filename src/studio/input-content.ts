/**
 * An answer to an MCP server's question checked against the question before the studio resumes
 * with it: `content` only with `accept` of a form, and then the fields the requested schema names
 * — a string (length, format, enum), a number or integer (range), a boolean, a choice of a list —
 * every required field given (or filled in by its `default`), no other field. What a page sends is
 * untrusted: a field the server never asked for, or a value of the wrong type, answers 400 before
 * anything runs. The server checks the answer again itself.
 * @module
 */
import type { InputAnswer, PendingInput } from "../index";
import { choicesOf, type FieldSchema, formFields, isObject } from "./form-schema";

/** Why `answer` does not fit `input`, or `undefined` when it does. Field names are the server's. */
export function answerProblem(input: PendingInput, answer: InputAnswer): string | undefined {
  if (answer.action !== "accept" || input.mode !== "form")
    return answer.content === undefined ? undefined : "Only an accepted form question takes content.";
  const content = answer.content ?? {};
  const { fields, required } = formFields(input.requestedSchema);
  for (const [name, value] of Object.entries(content)) {
    const field = Object.hasOwn(fields, name) ? fields[name] : undefined;
    if (!field) return `The question asks for no field ${JSON.stringify(name)}.`;
    const problem = valueProblem(field, value);
    if (problem) return `Field ${JSON.stringify(name)}: ${problem}.`;
  }
  for (const name of required) {
    const given = Object.hasOwn(content, name);
    if (!given && fields[name]?.default === undefined) return `Field ${JSON.stringify(name)} is required.`;
  }
  return undefined;
}

/** Why `value` does not fit `field`, or `undefined`. */
function valueProblem(field: FieldSchema, value: unknown): string | undefined {
  const choices = choicesOf(field);
  if (field.type === "array") return listProblem(field, value);
  if (choices) return choices.includes(value as string) ? undefined : "not one of the choices";
  switch (field.type) {
    case "boolean":
      return typeof value === "boolean" ? undefined : "expected true or false";
    case "number":
    case "integer":
      return numberProblem(field, value);
    case "string":
      return stringProblem(field, value);
    default:
      return "the question's schema gives this field no type the studio can answer";
  }
}

function numberProblem(field: FieldSchema, value: unknown): string | undefined {
  if (typeof value !== "number" || !Number.isFinite(value)) return "expected a number";
  if (field.type === "integer" && !Number.isInteger(value)) return "expected a whole number";
  if (typeof field.minimum === "number" && value < field.minimum) return `at least ${field.minimum}`;
  if (typeof field.maximum === "number" && value > field.maximum) return `at most ${field.maximum}`;
  return undefined;
}

function stringProblem(field: FieldSchema, value: unknown): string | undefined {
  if (typeof value !== "string") return "expected text";
  const length = [...value].length;
  if (typeof field.minLength === "number" && length < field.minLength)
    return `at least ${field.minLength} characters`;
  if (typeof field.maxLength === "number" && length > field.maxLength)
    return `at most ${field.maxLength} characters`;
  if (field.format !== undefined && !fitsFormat(String(field.format), value))
    return `not a valid ${String(field.format)}`;
  return undefined;
}

function listProblem(field: FieldSchema, value: unknown): string | undefined {
  if (!Array.isArray(value)) return "expected a list of choices";
  const choices = isObject(field.items) ? choicesOf(field.items as FieldSchema) : undefined;
  if (!choices) return "the question's schema gives this list no choices";
  if (!value.every((item) => choices.includes(item as string))) return "not one of the choices";
  if (new Set(value).size !== value.length) return "a choice given twice";
  if (typeof field.minItems === "number" && value.length < field.minItems)
    return `choose at least ${field.minItems}`;
  if (typeof field.maxItems === "number" && value.length > field.maxItems)
    return `choose at most ${field.maxItems}`;
  return undefined;
}

/** The spec's string formats (`email`, `uri`, `date`, `date-time`); another format is not checked. */
function fitsFormat(format: string, value: string): boolean {
  switch (format) {
    case "email":
      return /^[^\s@]+@[^\s@]+$/.test(value);
    case "uri":
      return URL.canParse(value);
    case "date":
      return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value));
    case "date-time":
      return /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value));
    default:
      return true;
  }
}
