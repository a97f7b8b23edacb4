/**
 * Schema adapters: turn zod v4, any Standard Schema, or a `{ parse, jsonSchema }` object into a
 * validator and the JSON Schema the model sees. No schema library is imported here.
 * @module
 */
import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { JsonSchema } from "../model/client";
import type { ParseResult } from "./tool";

/** An object that parses input and states its JSON Schema. */
export interface ParseWithJsonSchema<T> {
  parse(input: unknown): T;
  jsonSchema: JsonSchema;
}

/** A Standard Schema validator that can also state its JSON Schema (zod v4, valibot, arktype …). */
export interface StandardSchemaWithJsonSchema<T> {
  readonly "~standard": StandardSchemaV1.Props<unknown, T> & {
    readonly jsonSchema?: { input(options: { target: string }): Record<string, unknown> };
  };
}

/** Any schema a tool input or output schema may be given as. */
export type SchemaLike<T> =
  | StandardSchemaWithJsonSchema<T>
  | ParseWithJsonSchema<T>
  | { parse(input: unknown): T };

/** The output type of a {@link SchemaLike}. */
export type InferSchema<S> = S extends { readonly "~standard": { readonly types?: infer Types } }
  ? Types extends { readonly output: infer O }
    ? O
    : S extends { parse(input: unknown): infer P }
      ? P
      : unknown
  : S extends { parse(input: unknown): infer P }
    ? P
    : unknown;

/** A permissive object schema, for validators that cannot state their JSON Schema. */
export const PERMISSIVE_OBJECT_SCHEMA: JsonSchema = { type: "object", additionalProperties: true };

/**
 * The JSON Schema to send to the model, or `undefined` when the schema cannot state one.
 * The `$schema` keyword is dropped (the Messages API does not need it).
 */
export function jsonSchemaOf(schema: unknown): JsonSchema | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  const carried = (schema as { jsonSchema?: unknown }).jsonSchema;
  if (typeof carried === "object" && carried !== null) return withoutMetaSchema(carried as JsonSchema);
  const standard = (
    schema as { "~standard"?: { jsonSchema?: { input?: (o: { target: string }) => unknown } } }
  )["~standard"];
  const converter = standard?.jsonSchema?.input;
  if (typeof converter === "function") {
    for (const target of ["draft-2020-12", "draft-07"]) {
      try {
        return withoutMetaSchema(converter.call(standard!.jsonSchema, { target }) as JsonSchema);
      } catch {
        // try the next target
      }
    }
  }
  return undefined;
}

function withoutMetaSchema(schema: JsonSchema): JsonSchema {
  if (!("$schema" in schema)) return schema;
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}

/** Builds a never-throwing validator from a schema. Prefers Standard Schema, then `parse`. */
export function validatorOf<T>(
  schema: SchemaLike<T>,
): (input: unknown) => ParseResult<T> | Promise<ParseResult<T>> {
  const standard = (schema as StandardSchemaWithJsonSchema<T>)["~standard"];
  if (standard && typeof standard.validate === "function") {
    return (input) => {
      let outcome: ReturnType<typeof standard.validate>;
      try {
        outcome = standard.validate(input);
      } catch (error) {
        return validatorFailed(error); // e.g. a refinement that throws
      }
      return outcome instanceof Promise
        ? outcome.then(fromStandardResult, validatorFailed)
        : fromStandardResult(outcome);
    };
  }
  const parse = (schema as { parse?: (input: unknown) => T }).parse;
  if (typeof parse !== "function")
    throw new TypeError("A schema needs a Standard Schema interface or a parse(input) method.");
  return (input) => {
    try {
      return { ok: true, value: parse.call(schema, input) };
    } catch (error) {
      return { ok: false, message: describeParseError(error) };
    }
  };
}

/** A validator that threw instead of reporting issues: the input is refused, the query goes on. */
function validatorFailed(error: unknown): { ok: false; message: string } {
  return {
    ok: false,
    message: `The input validator failed: ${error instanceof Error ? error.message : String(error)}`,
  };
}

function fromStandardResult<T>(result: StandardSchemaV1.Result<T>): ParseResult<T> {
  if (!result.issues) return { ok: true, value: result.value };
  return { ok: false, message: formatIssues(result.issues) };
}

/** Renders validation issues as lines the model can act on: `- path: message`. */
export function formatIssues(issues: ReadonlyArray<StandardSchemaV1.Issue>): string {
  return issues
    .map((issue) => {
      const path = (issue.path ?? [])
        .map((segment) => (typeof segment === "object" && segment !== null ? segment.key : segment))
        .map(String)
        .join(".");
      return `- ${path || "(root)"}: ${issue.message}`;
    })
    .join("\n");
}

function describeParseError(error: unknown): string {
  const issues = (error as { issues?: unknown }).issues;
  if (Array.isArray(issues) && issues.every((issue) => typeof issue?.message === "string"))
    return formatIssues(issues);
  return error instanceof Error ? error.message : String(error);
}
