/**
 * `--output-schema <file>`: a JSON Schema file turned into the agent's `outputSchema`. The model
 * sees the schema as the `submit_output` tool's input; its payload is validated by Ajv (draft
 * 2020-12 unless the file's `$schema` names 2019-09 or draft-07; `$ref`/`$defs` and the formats of
 * ajv-formats included) before the run can succeed. Ajv is loaded only when the option is used.
 * @module
 */
import { readFile } from "node:fs/promises";
import type { AnySchemaObject, ErrorObject } from "ajv";
import type { JsonSchema } from "../model/client";
import type { OutputSchema } from "../tools/output-schema";
import { issuesOf, type SchemaIssue } from "./schema-issues";
import { UsageError } from "./usage-error";

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

/** A compiled validator, as Ajv returns it. */
type Validate = ((value: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** The `$schema` values understood, and which Ajv class validates each. */
const DIALECTS: Record<string, "2020" | "2019" | "07"> = {
  "https://json-schema.org/draft/2020-12/schema": "2020",
  "https://json-schema.org/draft/2019-09/schema": "2019",
  "http://json-schema.org/draft-07/schema": "07",
  "http://json-schema.org/draft-07/schema#": "07",
};

/**
 * Reads and compiles a schema file.
 * @throws {UsageError} when the file cannot be read, is not JSON, or is not a schema Ajv can compile.
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
 * The output schema for a parsed JSON Schema document. Ajv runs in strict mode: an unknown keyword
 * (a typo such as `"requried"`), an unknown format or an unresolvable `$ref` is refused rather than
 * silently not checked.
 * @throws {UsageError} when the schema is not an object, or Ajv cannot compile it.
 */
export async function outputSchemaFrom(schema: unknown, file = "the schema"): Promise<JsonSchemaOutput> {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema))
    throw new UsageError(`--output-schema: ${file} must hold a JSON Schema object`);
  const validate = await compile(schema as AnySchemaObject, file);
  const jsonSchema = schema as JsonSchema;
  return {
    jsonSchema,
    parse(input) {
      if (validate(input)) return input;
      throw new OutputValidationError(issuesOf(validate.errors ?? []));
    },
  };
}

async function compile(schema: AnySchemaObject, file: string): Promise<Validate> {
  const declared = schema.$schema;
  const dialect = declared === undefined ? "2020" : DIALECTS[String(declared)];
  if (dialect === undefined) {
    throw new UsageError(
      `--output-schema: ${file} declares "$schema": ${JSON.stringify(declared)}; supported are JSON Schema 2020-12 (the default), 2019-09 and draft-07`,
    );
  }
  const [{ default: AjvClass }, { default: addFormats }] = await Promise.all([
    dialect === "2020"
      ? import("ajv/dist/2020.js")
      : dialect === "2019"
        ? import("ajv/dist/2019.js")
        : import("ajv"),
    import("ajv-formats"),
  ]);
  // allErrors: the model gets every reason at once; verbose: errors carry the value, for "got …".
  const ajv = new AjvClass({ allErrors: true, verbose: true, strictTypes: false, logger: false });
  addFormats(ajv);
  try {
    return ajv.compile(schema) as Validate;
  } catch (error) {
    throw new UsageError(`--output-schema: ${file} cannot be used: ${(error as Error).message}`);
  }
}
