/**
 * `defineSubagent`: a tool whose every call runs a fresh child agent, inside the parent query's
 * limits — its signal, interrupt, deadline and budget — with the child's messages and cost handed
 * to the parent.
 * @module
 */

import { defineTool } from "../tools/define-tool";
import type { ParseWithJsonSchema, SchemaLike } from "../tools/schema";
import type { AgentCallOutcome, AgentCallSetup, Tool, ToolContext, ToolOutput } from "../tools/tool";
import { runChild } from "./run-child";
import { MAX_SUBAGENT_DEPTH, type SubagentDefinition } from "./subagent-definition";
import { SubagentSkills } from "./subagent-skills";

/**
 * `{ prompt: string }`, the input of a subagent without an `inputSchema` of its own. Written out
 * rather than with zod: the root entry exports `defineSubagent`, and importing it must not load a
 * schema library (start-up time, bench/startup.mjs).
 */
const DEFAULT_INPUT: ParseWithJsonSchema<{ prompt: string }> = {
  jsonSchema: {
    type: "object",
    properties: { prompt: { type: "string", description: "The task for the subagent, in full." } },
    required: ["prompt"],
    additionalProperties: false,
  },
  parse(input: unknown): { prompt: string } {
    const prompt = (input as { prompt?: unknown } | null | undefined)?.prompt;
    if (typeof input !== "object" || input === null || typeof prompt !== "string") {
      throw new TypeError("The input needs `prompt`: a string, the task for the subagent in full.");
    }
    return { prompt };
  },
};

/**
 * Defines a subagent: a {@link Tool} whose every call runs a fresh child agent (`createAgent`) with
 * its own system prompt, tools, model and history. The child's final text — or its structured
 * result as JSON — is the tool result; a child that ends in an error subtype gives an error result
 * saying how it ended, with its partial text. Its messages reach the parent's consumer with
 * `parent_tool_use_id` set, its cost counts in the parent's result and budget, and the parent's
 * signal, `interrupt()` and `toolTimeoutMs` stop it. Subagents nest to {@link MAX_SUBAGENT_DEPTH}.
 *
 * @throws InvalidToolError when the name or input schema is invalid (as `defineTool`).
 * @example
 * const researcher = defineSubagent({
 *   name: "researcher",
 *   description: "Answers one question about the codebase, with file references.",
 *   tools: [readFile, grep],
 *   readOnly: true,
 * });
 * const agent = createAgent({ model: "claude-sonnet-4-6", tools: [researcher] });
 */
export function defineSubagent(definition: SubagentDefinition): Tool {
  const skills = new SubagentSkills(definition); // skill folders are read once, at the first call
  // The loop runs each call through `runAgentCall`: the child's messages reach the parent's consumer
  // while it runs, and a call whose child pauses for approval is suspended, then resumed.
  const runAgentCall = async (
    input: unknown,
    context: ToolContext,
    setup?: AgentCallSetup,
  ): Promise<AgentCallOutcome> => {
    const depth = (context.agent?.depth ?? 0) + 1;
    if (depth > MAX_SUBAGENT_DEPTH) return { kind: "result", output: tooDeep(definition.name) };
    return runChild(await skills.forCall(), renderInput(input), context, depth, setup);
  };
  const tool = defineTool({
    name: definition.name,
    description: definition.description,
    inputSchema: (definition.inputSchema ?? DEFAULT_INPUT) as SchemaLike<unknown>,
    readOnly: definition.readOnly ?? false,
    ...(definition.needsApproval !== undefined ? { needsApproval: definition.needsApproval } : {}),
    // Called directly (outside the loop, over MCP), a call cannot be suspended: a pause is an error result.
    execute: (input: unknown, context: ToolContext): Promise<ToolOutput> =>
      runAgentCall(input, context).then(resultOf),
  });
  return { ...tool, runAgentCall };
}

/** The output of a call run without the loop: its child cannot suspend it. */
function resultOf(outcome: AgentCallOutcome): ToolOutput {
  if (outcome.kind === "result") return outcome.output;
  throw new Error("a subagent call run outside the loop was suspended"); // runChild never suspends it
}

/** The child's first prompt: the bare text of a `{ prompt }` input, else the input as JSON. */
export function renderInput(input: unknown): string {
  if (typeof input === "string") return input;
  if (input && typeof input === "object") {
    const keys = Object.keys(input);
    const prompt = (input as { prompt?: unknown }).prompt;
    if (keys.length === 1 && typeof prompt === "string") return prompt;
  }
  return JSON.stringify(input, null, 2);
}

function tooDeep(name: string): ToolOutput {
  return {
    content: `The subagent "${name}" was not run: subagents nest at most ${MAX_SUBAGENT_DEPTH} deep, and this call would be deeper. Do the task here instead.`,
    isError: true,
  };
}
