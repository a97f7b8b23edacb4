/**
 * One call of a subagent: a fresh child agent runs the rendered input under the parent query's
 * signal, interrupt and budget (shared live with the parent's other children); its messages go to
 * the parent's consumer tagged with the call's id, its cost to the parent's ledger as it comes, its
 * spans under the call's span, and its ending becomes the tool result.
 *
 * A child that pauses for approval suspends the call (run by the loop through `runAgentCall`): the
 * parent pauses with the child's pending calls, and a copy of the child's history when the child
 * has no store of its own. The parent's resume calls the tool again with the decisions
 * (`AgentCallSetup.resume`): the child is recreated — over the copy, or its own store — and resumed
 * with them. The loop's side of that story is `loop/approvals/child-pause.ts`.
 * @module
 */
import { type Agent, createAgent } from "../agent/create-agent";
import type { ApprovalInput, PendingApproval } from "../messages/approvals";
import type { PendingInput } from "../messages/pending-inputs";
import type { SDKMessage, SDKResultMessage } from "../messages/sdk-messages";
import { redact } from "../shared/redact";
import type { AgentToolContext } from "../tools/agent-context";
import type { ChildResume } from "../tools/child-suspension";
import type { AgentCallOutcome, AgentCallSetup, ToolContext, ToolOutput } from "../tools/tool";
import type { SubagentDefinition } from "./subagent-definition";

/**
 * Runs one child conversation for the call `context` answers, at `depth`. `setup` is the loop's,
 * when it runs the call (`runAgentCall`): then a child that pauses suspends the call; without it
 * (`execute`, called directly) nobody could resume it, and the pause is an error result.
 */
export async function runChild(
  definition: SubagentDefinition,
  prompt: string,
  context: ToolContext,
  depth: number,
  setup?: AgentCallSetup,
): Promise<AgentCallOutcome> {
  const host = context.agent;
  const model = definition.model ?? host?.model;
  if (!model) return failed(definition, "it has no model: give it one (it runs outside an agent's query)");
  if (host?.budget.remainingUsd() === 0)
    return failed(definition, "it was not run: the query's maxBudgetUsd is already spent");
  const child = createChild(definition, model, context, depth, setup?.tracing);
  const resume = setup?.resume;
  const stopOnInterrupt = () => child.interrupt();
  host?.interruption.addEventListener("abort", stopOnInterrupt, { once: true });
  let result: SDKResultMessage<unknown> | undefined;
  try {
    if (resume?.history) await child.replaceHistory(resume.history);
    const input = resume ? resumeInput(resume) : prompt;
    for await (const message of child.query(input, { signal: context.signal })) {
      // An interrupt that came before the child's query took its guard is passed on now.
      if (message.type === "system" && message.subtype === "init" && host?.interruption.aborted)
        child.interrupt();
      if (message.type === "result" && message.parent_tool_use_id === undefined) result = message;
      if (host) forward(host, message, context.toolUseId);
    }
    // Run by an agent's loop, the parent pauses with the child (otherwise nobody could resume it).
    const paused = result?.subtype === "requires_approval" || result?.subtype === "requires_input";
    if (paused && result && host && setup) return await suspend(definition, child, result, context.toolUseId);
  } finally {
    // The child's cost is already in the parent's ledger: its ledger passed each response on live.
    host?.interruption.removeEventListener("abort", stopOnInterrupt);
    await child.close();
  }
  if (!result) return failed(definition, "it ended without a result");
  return { kind: "result", output: toolOutputOf(definition, result) };
}

/**
 * The suspension of a call whose child paused: the child's pending calls, tagged with this call
 * (a grandchild's keep their own), and — the child having no store to keep its pause — its history.
 */
async function suspend(
  definition: SubagentDefinition,
  child: Agent<unknown>,
  result: SDKResultMessage<unknown>,
  toolUseId: string,
): Promise<AgentCallOutcome> {
  const pending = (result.pending_approvals ?? []).map(
    (call): PendingApproval =>
      call.parent_tool_use_id !== undefined
        ? call
        : { ...call, parent_tool_use_id: toolUseId, agent: definition.name },
  );
  const tagged = (result.pending_inputs ?? []).map(
    (input): PendingInput =>
      input.parent_tool_use_id !== undefined
        ? input
        : { ...input, parent_tool_use_id: toolUseId, agent: definition.name },
  );
  const inputs = tagged.length > 0 ? { inputs: tagged } : {};
  if (definition.historyStore)
    return { kind: "suspended", suspension: { agent: definition.name, pending, ...inputs } };
  const history = await child.getHistory();
  return { kind: "suspended", suspension: { agent: definition.name, pending, history, ...inputs } };
}

/** What resumes the child: the decisions for its calls and the answers to its questions, each when any. */
function resumeInput(resume: ChildResume): ApprovalInput {
  const answers = resume.inputs ?? [];
  if (answers.length === 0) return { approvals: resume.approvals };
  const inputs = Object.fromEntries(answers.map(({ input, answer }) => [input.id, answer]));
  return Object.keys(resume.approvals).length > 0 ? { approvals: resume.approvals, inputs } : { inputs };
}

/** The child agent: the definition's options, under the parent query's client, secrets and budget. */
function createChild(
  definition: SubagentDefinition,
  model: string,
  { agent: host, toolUseId }: ToolContext,
  depth: number,
  tracing: unknown,
): Agent<unknown> {
  const { name, description, readOnly, needsApproval, inputSchema, historyStore, tools, ...options } =
    definition;
  return createAgent<unknown>({
    ...options,
    name, // the child's guardrails are told who answers
    model,
    client: definition.client ?? host?.client,
    // The parent's secrets are the child's too: its spans, its store and its pause marker redact them.
    secrets: [...(definition.secrets ?? []), ...(host?.secrets ?? [])],
    tools: tools ?? [],
    includePartialMessages: host?.includePartialMessages ?? false,
    historyStore: historyStore?.({ toolUseId }),
    // The parent's budget is shared live (each child response's cost goes to the parent's ledger
    // as it comes, and the child stops once it is crossed); its own `maxBudgetUsd` bounds it too.
    _internal: host
      ? {
          ...definition._internal,
          parent: {
            budget: host.budget,
            depth,
            tracing,
            agentName: name,
            ownClient: !!definition.client,
          },
        }
      : definition._internal,
  });
}

/** Hands a child's message to the parent's consumer, tagged with the call's id (a grandchild's keeps its own). */
function forward(host: AgentToolContext, message: SDKMessage<unknown>, toolUseId: string): void {
  if (message.parent_tool_use_id !== undefined) host.emit(message);
  else host.emit({ ...message, parent_tool_use_id: toolUseId });
}

/** The tool result of the child's ending: its text (or structured result), an error saying how it ended. */
function toolOutputOf(definition: SubagentDefinition, result: SDKResultMessage<unknown>): ToolOutput {
  if (result.subtype === "success") {
    if (definition.outputSchema) return JSON.stringify(result.structuredResult ?? null);
    return result.result;
  }
  if (result.subtype === "requires_approval") {
    // Only outside an agent's query (a tool called directly, served over MCP): nobody can resume it.
    const pending = result.pending_approvals ?? [];
    const calls = pending.map((call) => `"${call.name}" (${call.tool_use_id})`).join(", ");
    const one = pending.length === 1;
    return failure(
      definition,
      `its ${one ? "call" : "calls"} to ${calls} ${one ? "needs" : "need"} a person's approval, which cannot be waited for outside an agent's query; ${one ? "it" : "they"} did not run.`,
    );
  }
  if (result.subtype === "interrupted")
    return result.result || `The subagent "${definition.name}" was interrupted before it wrote any text.`;
  const why = result.error?.message ? ` (${result.error.message})` : "";
  const partial = result.result ? ` Its partial text:\n${result.result}` : " It wrote no text.";
  return failure(definition, `it ended with ${result.subtype}${why}.${partial}`);
}

function failure(definition: SubagentDefinition, why: string): ToolOutput {
  const secrets = definition.apiKey ? [definition.apiKey] : [];
  return { content: redact(`The subagent "${definition.name}" failed: ${why}`, secrets), isError: true };
}

/** A call that failed before or after its child ran: its error result. */
function failed(definition: SubagentDefinition, why: string): AgentCallOutcome {
  return { kind: "result", output: failure(definition, why) };
}
