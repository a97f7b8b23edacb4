/**
 * Shared helpers of the MCP tests: fixture paths, stdio configs, tool lookup and process checks.
 */

import { fileURLToPath } from "node:url";
import { createToolContext } from "../../../src/index";
import type { McpStdioServerConfig } from "../../../src/integrations/mcp/config";
import type { McpConnections } from "../../../src/integrations/mcp/connect";
import type { Tool, ToolContext, ToolOutput } from "../../../src/tools/tool";

/** The raw-SDK stdio server fixture. */
export const STDIO_FIXTURE = fileURLToPath(new URL("../../fixtures/mcp/stdio-server.mjs", import.meta.url));

/** A stdio config running the fixture in one of its modes. */
export function stdioFixture(
  mode = "normal",
  extra: Partial<McpStdioServerConfig> = {},
): McpStdioServerConfig {
  return { type: "stdio", command: process.execPath, args: [STDIO_FIXTURE, mode], ...extra };
}

/** The tool of that name, or a failed expectation. */
export function toolNamed(connections: McpConnections, name: string): Tool {
  const tool = connections.tools().find((candidate) => candidate.name === name);
  if (!tool)
    throw new Error(`No tool ${name}; have ${connections.tools().map((candidate) => candidate.name)}`);
  return tool;
}

/** Runs a tool the way the loop does: parse, then execute with a context. */
export async function runTool(
  tool: Tool,
  input: unknown = {},
  signal = new AbortController().signal,
): Promise<ToolOutput> {
  const parsed = await tool.parseInput(input);
  if (!parsed.ok) throw new Error(parsed.message);
  const context: ToolContext = createToolContext({ signal, toolUseId: "toolu_test", toolName: tool.name });
  return tool.execute(parsed.value, context);
}

/** The text of a tool output, blocks joined. */
export function textOf(output: ToolOutput): string {
  if (typeof output === "string") return output;
  if (typeof output.content === "string") return output.content;
  return output.content.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("");
}

/** Whether a process exists: `process.kill(pid, 0)` throws ESRCH once it is gone (and reaped). */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw error;
  }
}

/** Whether a process is running; unlike {@link processExists}, a zombie counts as gone. */
export { isRunning as processRunning } from "../../support/processes";
