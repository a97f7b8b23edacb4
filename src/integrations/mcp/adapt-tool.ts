/**
 * An MCP tool as our {@link Tool}: its exposed name, description, an input schema the Messages API
 * accepts, and an `execute` that runs `tools/call` through the connection; deferred for tool search
 * when the server's config says `deferLoading`.
 * @module
 */
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { JsonSchema } from "../../model/client";
import type { ParseResult, Tool, ToolContext, ToolOutput } from "../../tools/tool";

/** Runs `tools/call` for the server's tool `toolName`; never throws (see ServerConnection). */
export type CallMcpTool = (
  toolName: string,
  exposedName: string,
  input: Record<string, unknown>,
  context: ToolContext,
) => Promise<ToolOutput>;

/**
 * The server's tool `tool`, offered to the model as `exposedName`. Any JSON object is accepted as
 * input: the server validates its arguments itself. Where the schema had to be simplified for the
 * Messages API, the server's own is kept as `sourceInputSchema`.
 */
export function adaptMcpTool(
  tool: McpTool,
  exposedName: string,
  callTool: CallMcpTool,
  deferLoading?: boolean,
): Tool<Record<string, unknown>> {
  const inputSchema = schemaForModel(tool.inputSchema);
  const simplified = Object.keys(inputSchema).length !== Object.keys(tool.inputSchema).length;
  return {
    ...(deferLoading === true ? { deferLoading: true } : {}),
    ...(simplified ? { sourceInputSchema: structuredClone(tool.inputSchema) as JsonSchema } : {}),
    name: exposedName,
    description: tool.description ?? tool.title ?? tool.annotations?.title,
    inputSchema,
    readOnly: tool.annotations?.readOnlyHint === true,
    parseInput: acceptAnyObject,
    execute: (input, context) => callTool(tool.name, exposedName, input, context),
  };
}

function acceptAnyObject(input: unknown): ParseResult<Record<string, unknown>> {
  if (typeof input === "object" && input !== null && !Array.isArray(input)) {
    return { ok: true, value: input as Record<string, unknown> };
  }
  return { ok: false, message: "- (root): expected a JSON object of tool arguments" };
}

/**
 * The server's input schema as the Messages API accepts it: without `$schema`, and without a
 * top-level `anyOf`, `oneOf` or `allOf`, which the API refuses ("input_schema does not support
 * oneOf, allOf, or anyOf at the top level") on every request offering the tool. Input is not
 * validated here anyway: the server checks the constraints they expressed.
 */
function schemaForModel(schema: McpTool["inputSchema"]): JsonSchema {
  const { $schema: _schema, anyOf: _anyOf, oneOf: _oneOf, allOf: _allOf, ...rest } = schema as JsonSchema;
  return rest;
}
