/**
 * `defineTool`: a typed tool from a schema and an `execute` function.
 * @module
 */
import { InvalidOptionError } from "../errors";
import type { JsonSchema } from "../model/client";
import { type InferSchema, jsonSchemaOf, type SchemaLike, validatorOf } from "./schema";
import type { NeedsApproval, Tool, ToolContext, ToolOutput } from "./tool";

/** What {@link defineTool} takes. */
export interface ToolDefinition<S extends SchemaLike<any>> {
  /** The name the model calls. Letters, digits, `_` and `-`, at most 64 characters. */
  name: string;
  description?: string;
  /** zod v4, any Standard Schema with JSON Schema, or `{ parse, jsonSchema }`. */
  inputSchema: S;
  /** Explicit JSON Schema for the model, when the schema cannot state one (a bare `parse`). */
  jsonSchema?: JsonSchema;
  /** May run concurrently with other read-only calls. @default false */
  readOnly?: boolean;
  /**
   * A call waits for a person's decision before it runs (`true`, or per call from its validated
   * input): the query ends `requires_approval` and resumes with `prompt({ approvals })`.
   * @default false
   */
  needsApproval?: NeedsApproval<InferSchema<S>>;
  /**
   * Keep the tool's definition out of every request until the model finds it with tool search
   * (`AgentOptions.toolSearch`): for large catalogs, where sending every definition costs tokens.
   * @default false
   */
  deferLoading?: boolean;
  execute(input: InferSchema<S>, context: ToolContext): ToolOutput | Promise<ToolOutput>;
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Defines a tool. The JSON Schema sent to the model is derived from `inputSchema`; input the model
 * sends is validated against it before `execute` runs, and failures go back as error tool_results.
 *
 * @example
 * const readFile = defineTool({
 *   name: "read_file",
 *   inputSchema: z.object({ path: z.string() }),
 *   readOnly: true,
 *   execute: async ({ path }) => fs.readFile(path, "utf8"),
 * });
 */
export function defineTool<S extends SchemaLike<any>>(definition: ToolDefinition<S>): Tool<InferSchema<S>> {
  if (!TOOL_NAME.test(definition.name)) {
    throw new InvalidOptionError(
      `Tool name ${JSON.stringify(definition.name)} is invalid: use 1-64 letters, digits, "_" or "-".`,
    );
  }
  if (typeof definition.execute !== "function") {
    throw new InvalidOptionError(`Tool "${definition.name}" needs an execute function.`);
  }
  const inputSchema = definition.jsonSchema ?? jsonSchemaOf(definition.inputSchema);
  if (!inputSchema) {
    throw new InvalidOptionError(
      `Tool "${definition.name}": its inputSchema cannot state a JSON Schema; pass jsonSchema explicitly.`,
    );
  }
  const shapeProblem = inputSchemaProblem(inputSchema);
  if (shapeProblem) {
    throw new InvalidOptionError(
      `Tool "${definition.name}": its input schema ${shapeProblem}, which the Messages API refuses on every request offering the tool. Wrap the input in an object, e.g. z.object({ value: … }).`,
    );
  }
  const { needsApproval } = definition;
  if (
    needsApproval !== undefined &&
    typeof needsApproval !== "boolean" &&
    typeof needsApproval !== "function"
  )
    throw new InvalidOptionError(`Tool "${definition.name}": needsApproval must be a boolean or a function.`);
  if (definition.deferLoading !== undefined && typeof definition.deferLoading !== "boolean")
    throw new InvalidOptionError(`Tool "${definition.name}": deferLoading must be a boolean.`);
  const parseInput = validatorOf<InferSchema<S>>(definition.inputSchema as SchemaLike<InferSchema<S>>);
  return {
    name: definition.name,
    description: definition.description,
    inputSchema,
    readOnly: definition.readOnly ?? false,
    parseInput,
    execute: definition.execute,
    ...(needsApproval ? { needsApproval } : {}),
    ...(definition.deferLoading ? { deferLoading: true } : {}),
  };
}

/**
 * What makes `schema` unusable as a tool's `input_schema`, or `undefined`: the API takes only an
 * object schema (`type: "object"`), without `anyOf`, `oneOf` or `allOf` at its top level.
 */
function inputSchemaProblem(schema: JsonSchema): string | undefined {
  for (const keyword of ["anyOf", "oneOf", "allOf"])
    if (keyword in schema) return `has ${keyword} at its top level (a union or an intersection)`;
  const type = (schema as { type?: unknown }).type;
  if (type !== "object") return `is not an object schema (its type is ${JSON.stringify(type) ?? "missing"})`;
  return undefined;
}
