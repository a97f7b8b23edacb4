/**
 * The built-in `submit_output` tool injected with `outputSchema`: the model ends a run by calling
 * it with the payload, which is validated before the run can succeed.
 * @module
 */
import type { JsonSchema, ModelToolDefinition } from "../model/client";
import type { OutputSchema } from "./output-schema";
import { jsonSchemaOf, PERMISSIVE_OBJECT_SCHEMA, type SchemaLike, validatorOf } from "./schema";
import type { ParseResult } from "./tool";

/** The name of the built-in structured-output tool. */
export const SUBMIT_OUTPUT_TOOL_NAME = "submit_output";

/** Code carried by the error results of a batch rejected for mixing `submit_output` with other calls. */
export const SUBMIT_OUTPUT_EXCLUSIVE_BATCH = "submit_output_exclusive_batch";

/** The submit tool for one output schema. */
export interface SubmitOutputTool<T> {
  definition: ModelToolDefinition;
  validate(input: unknown): ParseResult<T> | Promise<ParseResult<T>>;
}

/**
 * Builds the submit tool. Its input schema is the output schema as JSON Schema (zod and Standard
 * JSON Schema convert directly; a `jsonSchema` property is taken as is); a bare `parse` gets a
 * permissive object schema and `parse` alone decides. Tool inputs must be objects, so a non-object
 * output schema — or one with `anyOf`, `oneOf` or `allOf` at its top level, which the API refuses
 * there — is wrapped as `{ value: … }` and unwrapped before validation.
 */
export function createSubmitOutputTool<T>(schema: OutputSchema<T>): SubmitOutputTool<T> {
  const validate = validatorOf<T>(schema as SchemaLike<T>);
  const outputJsonSchema = jsonSchemaOf(schema);
  const wrapped = outputJsonSchema !== undefined && !isPlainObjectSchema(outputJsonSchema);
  const input_schema = !outputJsonSchema
    ? PERMISSIVE_OBJECT_SCHEMA
    : wrapped
      ? { type: "object", properties: { value: outputJsonSchema }, required: ["value"] }
      : outputJsonSchema;
  return {
    definition: {
      name: SUBMIT_OUTPUT_TOOL_NAME,
      description:
        "Submit the final result of this task. Call it exactly once, alone, when the task is complete; " +
        "its input is validated against the required output schema, and on a validation error you must fix the payload and call it again.",
      input_schema,
    },
    validate: (input) => validate(wrapped ? (input as { value?: unknown } | null)?.value : input),
  };
}

/** The error text every call of a rejected mixed batch receives. */
export function exclusiveBatchMessage(callCount: number, submitCount: number): string {
  const why =
    submitCount > 1
      ? `the turn contained ${submitCount} submit_output calls`
      : `submit_output was called together with ${callCount - 1} other tool call(s)`;
  return (
    `Error [${SUBMIT_OUTPUT_EXCLUSIVE_BATCH}]: ${why}. submit_output must be the only tool call in its turn, ` +
    "so none of the calls in this turn ran. Run the other tools first, then call submit_output alone."
  );
}

/** An object schema the API takes as a tool's input: `type: "object"`, no top-level composition. */
function isPlainObjectSchema(schema: JsonSchema): boolean {
  return schema.type === "object" && !("anyOf" in schema || "oneOf" in schema || "allOf" in schema);
}
