/**
 * Schema adapters: turn zod v4, any Standard Schema, or a `{ parse, jsonSchema }` object into a
 * validator and the JSON Schema the model sees. No schema library is imported here.
 * @module
 */
import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { JsonSchema } from "../model/client";
import { messageOfThrown } from "../shared/describe-thrown";
import { isPromiseLike } from "../shared/maybe-async";
import type { ParseResult } from "./tool";

/** An object that parses input (synchronously or not) and states its JSON Schema. */
export interface ParseWithJsonSchema<T> {
  parse(input: unknown): T | PromiseLike<T>;
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
  | { parse(input: unknown): T | PromiseLike<T> };

/** The output type of a {@link SchemaLike}. */
export type InferSchema<S> = S extends { readonly "~standard": { readonly types?: infer Types } }
  ? Types extends { readonly output: infer O }
    ? O
    : S extends { parse(input: unknown): infer P }
      ? Awaited<P>
      : unknown
  : S extends { parse(input: unknown): infer P }
    ? Awaited<P>
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

/** Builds a never-throwing validator from a schema: zod's own async parse, then Standard Schema, then `parse`. */
export function validatorOf<T>(
  schema: SchemaLike<T>,
): (input: unknown) => ParseResult<T> | Promise<ParseResult<T>> {
  if (isZodSchema<T>(schema)) return (input) => settle(() => schema.safeParseAsync(input), fromZodResult);
  const standard = (schema as StandardSchemaWithJsonSchema<T>)["~standard"];
  if (standard && typeof standard.validate === "function")
    return (input) => settle(() => standard.validate(input), fromStandardResult);
  const parse = (schema as { parse?: (input: unknown) => T | PromiseLike<T> }).parse;
  if (typeof parse !== "function")
    throw new TypeError("A schema needs a Standard Schema interface or a parse(input) method.");
  return (input) => {
    let parsed: T | PromiseLike<T>;
    try {
      parsed = parse.call(schema, input);
    } catch (error) {
      return parseFailed(error);
    }
    return isPromiseLike(parsed)
      ? Promise.resolve(parsed).then(parseSucceeded, parseFailed)
      : parseSucceeded(parsed);
  };
}

/**
 * A zod schema (v3 or v4, classic or mini). Its Standard Schema `validate` first tries a synchronous
 * parse; for a schema with an async refinement that attempt starts the refinement and drops its
 * promise, so a refinement that rejects leaves an unhandled rejection behind (a crash under Node's
 * default mode) and every refinement runs twice. `safeParseAsync` runs each refinement once.
 */
interface ZodLike<T> {
  readonly "~standard": { readonly vendor: string };
  safeParseAsync(input: unknown): Promise<ZodSafeParseResult<T>>;
}

type ZodSafeParseResult<T> =
  | { success: true; data: T }
  | { success: false; error: { issues: ReadonlyArray<StandardSchemaV1.Issue> } };

function isZodSchema<T>(schema: unknown): schema is ZodLike<T> {
  const candidate = schema as Partial<ZodLike<T>>;
  return candidate["~standard"]?.vendor === "zod" && typeof candidate.safeParseAsync === "function";
}

function fromZodResult<T>(result: ZodSafeParseResult<T>): ParseResult<T> {
  return result.success
    ? { ok: true, value: result.data }
    : { ok: false, message: formatIssues(result.error.issues) };
}

/** Runs a validator that may throw, return a result or return a promise of one, and maps its result. */
function settle<R, T>(validate: () => R | PromiseLike<R>, toParseResult: (result: R) => ParseResult<T>) {
  let outcome: R | PromiseLike<R>;
  try {
    outcome = validate();
  } catch (error) {
    return validatorFailed(error); // e.g. a refinement that throws
  }
  const mapped = (result: R) => {
    try {
      return toParseResult(result);
    } catch (error) {
      return validatorFailed(error); // a malformed result (e.g. a validate that returned nothing)
    }
  };
  return isPromiseLike(outcome) ? Promise.resolve(outcome).then(mapped, validatorFailed) : mapped(outcome);
}

function parseSucceeded<T>(value: T): ParseResult<T> {
  return { ok: true, value };
}

function parseFailed(error: unknown): { ok: false; message: string } {
  return { ok: false, message: describeParseError(error) };
}

/** A validator that threw instead of reporting issues: the input is refused, the query goes on. */
function validatorFailed(error: unknown): { ok: false; message: string } {
  return {
    ok: false,
    message: `The input validator failed: ${messageOfThrown(error)}`,
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
  const issues = issuesOf(error);
  if (issues) return formatIssues(issues);
  return messageOfThrown(error);
}

/** The Standard Schema issues a thrown value carries (a zod error does), if it can be read. */
function issuesOf(error: unknown): StandardSchemaV1.Issue[] | undefined {
  try {
    const issues = (error as { issues?: unknown } | null | undefined)?.issues;
    if (Array.isArray(issues) && issues.every((issue) => typeof issue?.message === "string")) return issues;
  } catch {
    // a throwing getter (or a revoked proxy): no issues to read
  }
  return undefined;
}
