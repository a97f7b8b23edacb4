/**
 * The input schemas of the tools the root entry builds in (`search_tools`, `skill`): a Standard
 * Schema with its JSON Schema, written out, so the root import loads no schema library (zod stays
 * the choice for users' tools, and the workspace tools behind `agent-lattice/tools` use it).
 * Only what those tools need: an object of string and integer fields, each optional or required,
 * with length and range bounds. The messages follow zod's wording, which the model reads back.
 * @module
 */
import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { StandardSchemaWithJsonSchema } from "./schema";

/** One field of a {@link plainObjectSchema}. */
export type PlainField =
  | { type: "string"; description: string; optional?: boolean; minLength?: number }
  | { type: "integer"; description: string; optional?: boolean; minimum?: number; maximum?: number };

/**
 * A Standard Schema (vendor `agent-lattice`) for an object `T` of `fields`; its JSON Schema is what zod
 * states for the same `z.object` (without `$schema`). Unknown fields are dropped, as zod does.
 */
export function plainObjectSchema<T>(
  fields: Readonly<Record<string, PlainField>>,
): StandardSchemaWithJsonSchema<T> & { jsonSchema: Record<string, unknown> } {
  const jsonSchema = {
    type: "object",
    properties: Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, fieldSchema(field)])),
    required: Object.keys(fields).filter((name) => !fields[name]!.optional),
  };
  return {
    jsonSchema,
    "~standard": {
      version: 1,
      vendor: "agent-lattice",
      validate: (input) => validate(fields, input) as StandardSchemaV1.Result<T>,
    },
  };
}

function fieldSchema(field: PlainField): Record<string, unknown> {
  const { optional: _optional, ...schema } = field;
  return schema;
}

function validate(
  fields: Readonly<Record<string, PlainField>>,
  input: unknown,
): StandardSchemaV1.Result<unknown> {
  if (typeof input !== "object" || input === null || Array.isArray(input))
    return { issues: [{ message: `Invalid input: expected object, received ${received(input)}` }] };
  const value: Record<string, unknown> = {};
  const issues: StandardSchemaV1.Issue[] = [];
  for (const [name, field] of Object.entries(fields)) {
    const item = (input as Record<string, unknown>)[name];
    if (item === undefined) {
      if (!field.optional)
        issues.push({
          path: [name],
          message: `Invalid input: expected ${expected(field)}, received undefined`,
        });
      continue;
    }
    const problem = fieldProblem(field, item);
    if (problem) issues.push({ path: [name], message: problem });
    else value[name] = item;
  }
  return issues.length > 0 ? { issues } : { value };
}

/** What is wrong with `item` as `field`, or `undefined`. */
function fieldProblem(field: PlainField, item: unknown): string | undefined {
  if (field.type === "string") {
    if (typeof item !== "string") return `Invalid input: expected string, received ${received(item)}`;
    if (field.minLength !== undefined && item.length < field.minLength)
      return `Too small: expected string to have >=${field.minLength} characters`;
    return undefined;
  }
  if (typeof item !== "number" || Number.isNaN(item))
    return `Invalid input: expected number, received ${received(item)}`;
  if (!Number.isInteger(item)) return "Invalid input: expected int, received number";
  if (field.minimum !== undefined && item < field.minimum)
    return `Too small: expected number to be >=${field.minimum}`;
  if (field.maximum !== undefined && item > field.maximum)
    return `Too big: expected number to be <=${field.maximum}`;
  return undefined;
}

function expected(field: PlainField): string {
  return field.type === "string" ? "string" : "number";
}

function received(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number" && Number.isNaN(value)) return "NaN";
  return typeof value;
}
