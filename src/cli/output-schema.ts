/**
 * `--output-schema <file>`: a JSON Schema file turned into the agent's `outputSchema`. The model
 * sees the schema as the `submit_output` tool's input; its payload is checked by the built-in
 * validator ({@link validateAgainstSchema}) before the run can succeed.
 * @module
 */
import { readFile } from "node:fs/promises";
import type { OutputSchema } from "../agent/options";
import type { JsonSchema } from "../model/client";
import { UsageError } from "./args";
import { findUnsupportedSchemaParts, type SchemaIssue, validateAgainstSchema } from "./json-schema";

/** The error a failed validation throws; the loop turns its `issues` into `- path: message` lines. */
export class OutputValidationError extends Error {
  readonly issues: SchemaIssue[];
  constructor(issues: SchemaIssue[]) {
    super(issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`).join("; "));
    this.name = "OutputValidationError";
    this.issues = issues;
  }
}

/** An output schema that carries its JSON Schema and validates with it. */
export type JsonSchemaOutput = OutputSchema<unknown> & { jsonSchema: JsonSchema };

/**
 * Reads and checks a schema file.
 * @throws {UsageError} when the file cannot be read, is not JSON, or uses what the validator cannot check.
 */
export async function loadOutputSchema(file: string): Promise<JsonSchemaOutput> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new UsageError(
      `--output-schema: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? error})`,
    );
  }
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--output-schema: ${file} is not valid JSON (${(error as Error).message})`);
  }
  return outputSchemaFrom(schema, file);
}

/**
 * The output schema for a parsed JSON Schema document.
 * @throws {UsageError} when the schema uses keywords the built-in validator does not check.
 */
export function outputSchemaFrom(schema: unknown, file = "the schema"): JsonSchemaOutput {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema))
    throw new UsageError(`--output-schema: ${file} must hold a JSON Schema object`);
  const problems = findUnsupportedSchemaParts(schema);
  if (problems.length > 0)
    throw new UsageError(`--output-schema: ${file} cannot be checked here: ${problems.join("; ")}`);
  const jsonSchema = schema as JsonSchema;
  return {
    jsonSchema,
    parse(input) {
      const issues = validateAgainstSchema(jsonSchema, input);
      if (issues.length > 0) throw new OutputValidationError(issues);
      return input;
    },
  };
}
