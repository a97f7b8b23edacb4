/**
 * Ajv's validation errors as short issues the model can act on — `priority: must be one of "low",
 * "high"`, `owner: is required` — each with the path of the value it is about.
 * @module
 */
import type { ErrorObject } from "ajv";

/** One reason a value does not match its schema. */
export interface SchemaIssue {
  /** Where in the value: property names and array indexes (empty for the value itself). */
  path: Array<string | number>;
  message: string;
}

/** Keywords whose failure means "no branch matched": the errors of each branch are left out. */
const BRANCHING_KEYWORDS = new Set(["anyOf", "oneOf"]);

/**
 * The issues of a failed validation, in Ajv's order. The errors of the branches of a failed
 * `anyOf`/`oneOf` are dropped in favour of the one error saying no branch (or more than one) matched.
 */
export function issuesOf(errors: readonly ErrorObject[]): SchemaIssue[] {
  const branches = errors
    .filter((error) => BRANCHING_KEYWORDS.has(error.keyword))
    .map((error) => `${error.schemaPath}/`);
  return errors
    .filter((error) => !branches.some((prefix) => error.schemaPath.startsWith(prefix)))
    .map(issueOf);
}

function issueOf(error: ErrorObject): SchemaIssue {
  const path = pathOf(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return { path: [...path, String(params.missingProperty)], message: "is required" };
    case "additionalProperties":
    case "unevaluatedProperties":
      return {
        path: [...path, String(params.additionalProperty ?? params.unevaluatedProperty)],
        message: "is not an allowed property",
      };
    case "dependentRequired":
      return {
        path: [...path, String(params.missingProperty)],
        message: `is required when "${String(params.property)}" is present`,
      };
    case "uniqueItems":
      return {
        path: [...path, Math.max(Number(params.i), Number(params.j))],
        message: `duplicates item ${Math.min(Number(params.i), Number(params.j))}`,
      };
    default:
      return { path, message: messageOf(error, params) };
  }
}

function messageOf(error: ErrorObject, params: Record<string, unknown>): string {
  switch (error.keyword) {
    case "type":
      return `expected ${[params.type].flat().join(" or ")}, got ${typeOfValue(error.data)}`;
    case "enum":
      return `must be one of ${(params.allowedValues as unknown[]).map(quote).join(", ")}`;
    case "const":
      return `must be ${quote(params.allowedValue)}`;
    case "minLength":
      return `must be at least ${params.limit} characters long`;
    case "maxLength":
      return `must be at most ${params.limit} characters long`;
    case "pattern":
      return `must match the pattern /${params.pattern}/`;
    case "format":
      return `must be a valid ${params.format}`;
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return `must be ${COMPARISONS[error.keyword]} ${params.limit}`;
    case "multipleOf":
      return `must be a multiple of ${params.multipleOf}`;
    case "minItems":
    case "maxItems":
    case "minProperties":
    case "maxProperties":
      return `must have ${error.keyword.startsWith("min") ? "at least" : "at most"} ${params.limit} ${error.keyword.endsWith("Items") ? "items" : "properties"}`;
    case "anyOf":
      return "must match at least one of the anyOf schemas";
    case "oneOf":
      return `must match exactly one of the oneOf schemas (matched ${Array.isArray(params.passingSchemas) ? params.passingSchemas.length : "none"})`;
    case "not":
      return "must not match the schema under not";
    case "false schema":
      return "no value is allowed here";
    default:
      return error.message ?? `fails "${error.keyword}"`;
  }
}

const COMPARISONS: Record<string, string> = {
  minimum: "at least",
  maximum: "at most",
  exclusiveMinimum: "greater than",
  exclusiveMaximum: "less than",
};

/** A JSON pointer (`/items/1/n`) as path segments, array indexes as numbers. */
function pathOf(pointer: string): Array<string | number> {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((segment) => (/^(?:0|[1-9]\d*)$/.test(segment) ? Number(segment) : segment));
}

function typeOfValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function quote(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}
