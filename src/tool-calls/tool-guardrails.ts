/**
 * Tool guardrails in the pipeline: `tool_input` guardrails see each call's name and input after
 * permissions and `preToolUse` hooks, before approval and execution; `tool_output` guardrails see
 * each result after the `postToolUse` hooks, before the model does. A refusal answers the model (an
 * error result, nothing runs; or the result replaced by the message); a tripwire is noted on the
 * query's {@link ToolGuardrails} — the calls not started yet are not run, and the query ends once
 * the batch is recorded.
 * @module
 */
import { redactContent, redactValue } from "../guardrails/apply-redactions";
import { runGuardrails } from "../guardrails/run-guardrails";
import type { ToolResultBlock, ToolUseBlock } from "../messages/types";
import { errorOutcome, type ToolCallOutcome, toolResultText } from "../tools/tool-output";
import type { ClearedCall, ToolGuardrails, ToolRuntime } from "./tool-runtime";

/**
 * The `tool_input` guardrails on a cleared call: the call as it will run (redacted, if asked), or
 * the error outcome that answers it unrun.
 */
export async function guardToolInput(
  call: ToolUseBlock,
  cleared: ClearedCall,
  runtime: ToolRuntime,
  guard: ToolGuardrails,
): Promise<ClearedCall | ToolCallOutcome> {
  const toolCall = { id: call.id, name: call.name, input: cleared.input };
  const decision = await runGuardrails(
    guard.input!,
    guard.context({ stage: "tool_input", text: jsonText(cleared.input), toolCall }),
    runtime.signal,
    guard.failOpen,
  );
  switch (decision.verdict) {
    case "cancelled":
      return errorOutcome(
        call.id,
        `The call to "${call.name}" was not run: the query was cancelled while its guardrails ran.`,
      );
    case "reject":
      guard.report(decision.record);
      return errorOutcome(
        call.id,
        decision.record.message ?? `A guardrail refused the call to "${call.name}".`,
      );
    case "tripwire":
      guard.trip ??= decision.record;
      guard.report(decision.record);
      return errorOutcome(call.id, stoppedMessage(call));
    case "allow": {
      if (!decision.redactions) return cleared;
      for (const redaction of decision.redactions) guard.report(redaction.record);
      const { redactions } = decision;
      return {
        ...cleared,
        input: redactValue(cleared.input, redactions),
        value: redactValue(cleared.value, redactions),
      };
    }
  }
}

/** The `tool_output` guardrails on a call's result: the outcome as the model will see it. */
export async function guardToolOutput(
  call: ToolUseBlock,
  input: unknown,
  outcome: ToolCallOutcome,
  runtime: ToolRuntime,
  guard: ToolGuardrails,
): Promise<ToolCallOutcome> {
  const toolCall = { id: call.id, name: call.name, input };
  const decision = await runGuardrails(
    guard.output!,
    guard.context({
      stage: "tool_output",
      text: toolResultText(outcome.block.content),
      toolCall,
      toolResult: outcome.block,
    }),
    runtime.signal,
    guard.failOpen,
  );
  switch (decision.verdict) {
    case "cancelled":
      return withContent(
        outcome,
        `The result of "${call.name}" was withheld: the query was cancelled while its guardrails ran.`,
        true,
      );
    case "reject":
      guard.report(decision.record);
      return withContent(
        outcome,
        decision.record.message ?? `A guardrail withheld the result of "${call.name}".`,
        true,
      );
    case "tripwire":
      guard.trip ??= decision.record;
      guard.report(decision.record);
      return withContent(outcome, stoppedMessage(call), true);
    case "allow": {
      if (!decision.redactions) return outcome;
      for (const redaction of decision.redactions) guard.report(redaction.record);
      return {
        ...outcome,
        block: { ...outcome.block, content: redactContent(outcome.block.content, decision.redactions) },
      };
    }
  }
}

function withContent(outcome: ToolCallOutcome, text: string, isError: boolean): ToolCallOutcome {
  const block: ToolResultBlock = {
    type: "tool_result",
    tool_use_id: outcome.block.tool_use_id,
    content: text,
  };
  if (isError) block.is_error = true;
  return { ...outcome, block, originalContent: undefined };
}

/** What answers a call a guardrail's tripwire stopped, or kept from starting. */
export function stoppedMessage(call: Pick<ToolUseBlock, "name">): string {
  return `The call to "${call.name}" was stopped: a guardrail tripped.`;
}

function jsonText(input: unknown): string {
  try {
    return JSON.stringify(input) ?? "";
  } catch {
    return "";
  }
}
