/**
 * Helpers of the hook and permission tests: a few real tools that record what they ran with, a
 * trace shared by tools, hooks and `canUseTool`, and short readers of what a query yielded.
 */
import { z } from "zod";
import {
  defineTool,
  type ModelMessage,
  type SDKMessage,
  type SDKResultMessage,
  type Tool,
  type ToolResultBlock,
  type ToolUseBlock,
} from "../../src/index";

/** Pulls every message a query yields. */
export async function collect<T>(messages: AsyncIterable<SDKMessage<T>>): Promise<SDKMessage<T>[]> {
  const collected: SDKMessage<T>[] = [];
  for await (const message of messages) collected.push(message);
  return collected;
}

/** The result message, which must be the last one yielded. */
export function resultOf<T>(messages: SDKMessage<T>[]): SDKResultMessage<T> {
  const last = messages[messages.length - 1];
  if (last?.type !== "result") throw new Error("the query did not end with a result message");
  return last;
}

/** The `hook_error` system messages of a query. */
export function hookErrors<T>(messages: SDKMessage<T>[]): Array<{ hook: string; error: Error }> {
  const errors: Array<{ hook: string; error: Error }> = [];
  for (const message of messages) {
    if (message.type === "system" && message.subtype === "hook_error")
      errors.push({ hook: message.hook, error: message.error });
  }
  return errors;
}

/** A tool_use block. */
export function toolUse(id: string, name: string, input: unknown = {}): ToolUseBlock {
  return { type: "tool_use", id, name, input };
}

/** Every tool_result block of a history, in order. */
export function toolResults(history: readonly ModelMessage[]): ToolResultBlock[] {
  const results: ToolResultBlock[] = [];
  for (const message of history) {
    if (message.role !== "user" || typeof message.content === "string") continue;
    for (const block of message.content) if (block.type === "tool_result") results.push(block);
  }
  return results;
}

/** The tool_result answering `toolUseId`. */
export function resultFor(history: readonly ModelMessage[], toolUseId: string): ToolResultBlock {
  const block = toolResults(history).find((candidate) => candidate.tool_use_id === toolUseId);
  if (!block) throw new Error(`no tool_result for ${toolUseId}`);
  return block;
}

/** Text of a tool result's content. */
export function textOf(block: ToolResultBlock): string {
  return typeof block.content === "string"
    ? block.content
    : block.content.map((part) => (part.type === "text" ? part.text : "[image]")).join("");
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

/** A promise with its resolver, for hooks that wait on the test. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

/** A promise that never settles: a hook stuck forever. */
export function never<T = never>(): Promise<T> {
  return new Promise<T>(() => {});
}
