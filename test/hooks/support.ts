/**
 * Helpers of the hook and permission tests: a few real tools that record what they ran with, a
 * trace shared by tools, hooks and `canUseTool`, and short readers of what a query yielded (most
 * from test/support).
 */
import { z } from "zod";
import { defineTool, type ModelMessage, type SDKMessage, type Tool } from "../../src/index";

export { resultFor, textOf, toolResults, toolUse } from "../support/content";
export { deferred, never } from "../support/promises";
export { collect, resultOf } from "../support/query-messages";

/** The `hook_error` system messages of a query. */
export function hookErrors<T>(messages: SDKMessage<T>[]): Array<{ hook: string; error: Error }> {
  const errors: Array<{ hook: string; error: Error }> = [];
  for (const message of messages) {
    if (message.type === "system" && message.subtype === "hook_error")
      errors.push({ hook: message.hook, error: message.error });
  }
  return errors;
}

/** Text of a message's content. */
export function messageText(message: ModelMessage | undefined): string {
  if (!message) return "";
  if (typeof message.content === "string") return message.content;
  return message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

/** A list the tools, hooks and permission callbacks of one test append to, to check their order. */
export type Trace = string[];

/** What the workshop tools ran with, by tool name. */
export type Executions = Array<{ tool: string; input: unknown }>;

/**
 * Three tools: `read_file` (read-only), `write_file` and `run_command` (not read-only). Each
 * records its execution in `executions` and in `trace` as `execute:<name>`.
 */
export function workshopTools(executions: Executions = [], trace: Trace = []) {
  const readFile = defineTool({
    name: "read_file",
    inputSchema: z.object({ path: z.string() }),
    readOnly: true,
    execute: ({ path }) => {
      executions.push({ tool: "read_file", input: { path } });
      trace.push("execute:read_file");
      return `contents of ${path}`;
    },
  });
  const writeFile = defineTool({
    name: "write_file",
    inputSchema: z.object({ path: z.string(), text: z.string() }),
    execute: ({ path, text }) => {
      executions.push({ tool: "write_file", input: { path, text } });
      trace.push("execute:write_file");
      return `wrote ${text.length} characters to ${path}`;
    },
  });
  const runCommand = defineTool({
    name: "run_command",
    inputSchema: z.object({ command: z.string() }),
    execute: ({ command }) => {
      executions.push({ tool: "run_command", input: { command } });
      trace.push("execute:run_command");
      return `ran ${command}`;
    },
  });
  const tools: Tool[] = [readFile, writeFile, runCommand];
  return { tools, executions, trace };
}
