/**
 * An MCP tool as our {@link Tool}: its exposed name, description, an input schema the Messages API
 * accepts, and an `execute` that runs `tools/call` through the connection; deferred for tool search
 * when the server's config says `deferLoading`. On a connection that pauses for input, the loop runs
 * its calls through `runAgentCall`: a call whose server asked a question nobody answered comes back
 * suspended with the questions, and is issued again with the answers (`call-questions.ts`).
 * @module
 */
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { JsonSchema } from "../../model/client";
import type {
  AgentCallOutcome,
  AgentCallSetup,
  ParseResult,
  Tool,
  ToolContext,
  ToolOutput,
} from "../../tools/tool";
import { CallQuestions } from "./call-questions";

/** Runs `tools/call` for the server's tool `toolName`; never throws (see ServerConnection). */
export type CallMcpTool = (
  toolName: string,
  exposedName: string,
  input: Record<string, unknown>,
  context: ToolContext,
  questions?: CallQuestions,
) => Promise<ToolOutput>;

/** How a server's tools are adapted. */
export interface AdaptOptions {
  /** Deferred for tool search. */
  deferLoading?: boolean | undefined;
  /** Calls run by the loop may pause for input (`runAgentCall`). */
  pauseForInput?: boolean | undefined;
  /** The server's name (the suspension's `agent`). */
  server: string;
}

/**
 * The server's tool `tool`, offered to the model as `exposedName`. Any JSON object is accepted as
 * input: the server validates its arguments itself. Where the schema had to be simplified for the
 * Messages API, the server's own is kept as `sourceInputSchema`.
 */
export function adaptMcpTool(
  tool: McpTool,
  exposedName: string,
  callTool: CallMcpTool,
  { deferLoading, pauseForInput, server }: AdaptOptions,
): Tool<Record<string, unknown>> {
  const inputSchema = schemaForModel(tool.inputSchema);
  const simplified = Object.keys(inputSchema).length !== Object.keys(tool.inputSchema).length;
  const runAgentCall = async (
    input: Record<string, unknown>,
    context: ToolContext,
    setup: AgentCallSetup,
  ): Promise<AgentCallOutcome> => {
    const questions = new CallQuestions(context.toolUseId, setup.resume?.inputs);
    const output = await callTool(tool.name, exposedName, input, context, questions);
    if (questions.asked.length === 0 || context.signal.aborted) return { kind: "result", output };
    // The server was told `cancel`: its result is not the call's. The call runs again once answered.
    const suspension = { agent: server, pending: [], inputs: questions.asked };
    const answered = questions.answers;
    return {
      kind: "suspended",
      suspension: answered.length > 0 ? { ...suspension, answered: [...answered] } : suspension,
    };
  };
  return {
    ...(deferLoading === true ? { deferLoading: true } : {}),
    ...(pauseForInput === true ? { runAgentCall, quietAgentCall: true } : {}),
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
