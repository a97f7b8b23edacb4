/**
 * Our tools as MCP tools: the `tools/list` and `tools/call` handlers of an SDK server.
 * @module
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool as McpTool,
} from "@modelcontextprotocol/sdk/types.js";
import { InvalidOptionError } from "../../errors";
import { messageOfThrown } from "../../shared/describe-thrown";
import type { Tool } from "../../tools/tool";
import { callContext } from "../../tools/tool-context";
import { mcpResultFromToolOutput } from "./content";

/**
 * Checks that a list of tools can be served: unique names, and object input schemas (MCP requires
 * `inputSchema.type === "object"`). Throws an {@link InvalidOptionError} otherwise.
 */
export function assertServableTools(tools: readonly Tool[]): void {
  if (!Array.isArray(tools)) throw new InvalidOptionError("createMcpServer needs an array of tools.");
  const names = new Set<string>();
  for (const tool of tools) {
    if (
      typeof tool?.name !== "string" ||
      typeof tool.execute !== "function" ||
      typeof tool.parseInput !== "function"
    ) {
      throw new InvalidOptionError(
        "createMcpServer: every tool must come from defineTool (name, parseInput, execute).",
      );
    }
    if (names.has(tool.name))
      throw new InvalidOptionError(`createMcpServer: two tools are named "${tool.name}".`);
    names.add(tool.name);
    if (tool.inputSchema?.type !== "object") {
      throw new InvalidOptionError(
        `createMcpServer: tool "${tool.name}" must take an object input (its JSON Schema type is ${JSON.stringify(tool.inputSchema?.type)}).`,
      );
    }
  }
}

/** Registers `tools/list` and `tools/call` for `tools` on an SDK server (declared with the `tools` capability). */
export function registerServedTools(server: Server, tools: readonly Tool[]): void {
  const toolsByName = new Map(tools.map((tool) => [tool.name, tool]));
  const listing = tools.map(describeTool);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listing }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const tool = toolsByName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    return runServedTool(tool, request.params.arguments ?? {}, {
      signal: extra.signal,
      requestId: String(extra.requestId),
    });
  });
}

function describeTool(tool: Tool): McpTool {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as McpTool["inputSchema"],
    annotations: { readOnlyHint: tool.readOnly },
  };
}

/**
 * Validates the arguments with `parseInput` and runs the tool. Validation failures and thrown
 * errors become `isError` results carrying the message, as the MCP spec asks for tool errors.
 */
export async function runServedTool(
  tool: Tool,
  input: unknown,
  request: { signal: AbortSignal; requestId: string },
): Promise<CallToolResult> {
  try {
    const parsed = await tool.parseInput(input);
    if (!parsed.ok) return errorResult(`Invalid input for tool "${tool.name}":\n${parsed.message}`);
    const output = await tool.execute(
      parsed.value,
      callContext({ signal: request.signal, toolUseId: request.requestId, toolName: tool.name }),
    );
    return mcpResultFromToolOutput(output, tool.name);
  } catch (error) {
    return errorResult(`Tool "${tool.name}" failed: ${messageOfThrown(error)}`);
  }
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}
