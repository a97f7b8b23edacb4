/**
 * Output guardrails (step 3): a response without tool calls — the final answer, or one part of it
 * — and a structured-output submission are checked before they enter history or reach the
 * consumer. Allowed, they go on (redacted if asked); refused, the answer is replaced by the
 * message; tripped, the response is recorded withdrawn and never handed over, and the query ends.
 * @module
 */
import { redactContent, redactText } from "../../guardrails/apply-redactions";
import { runGuardrails } from "../../guardrails/run-guardrails";
import type { AssistantModelMessage } from "../../messages/types";
import { SUBMIT_OUTPUT_TOOL_NAME } from "../../tools/submit-output";
import type { Ending } from "../ending";
import { cancelledEnding } from "../ending";
import type { LoopContext } from "../state/loop-context";
import type { QueryState } from "../state/query-state";
import { failOpenNotice, stageContext } from "./stage-context";
import { reportVerdict, withdrawTurn, withMeta } from "./withdraw-turn";

/** The response to record, or how the query ends instead. */
export type CheckedOutput =
  | { kind: "record"; response: AssistantModelMessage }
  | { kind: "ended"; ending: Ending<unknown> };

/** Whether the output guardrails look at `response`: no tool calls, or a submission. */
export function isCheckedOutput(response: AssistantModelMessage): boolean {
  let calls = false;
  for (const block of response.content) {
    if (block.type !== "tool_use") continue;
    if (block.name === SUBMIT_OUTPUT_TOOL_NAME) return true;
    calls = true;
  }
  return !calls;
}

/** Runs the output guardrails on `response` (whose text is `query.resultText` by now). */
export async function checkOutput(
  loop: LoopContext<unknown>,
  query: QueryState,
  response: AssistantModelMessage,
): Promise<CheckedOutput> {
  const submission = response.content.find(
    (block) => block.type === "tool_use" && block.name === SUBMIT_OUTPUT_TOOL_NAME,
  );
  const context = stageContext(loop, query, {
    stage: "output",
    text: query.resultText,
    structuredOutput: submission?.type === "tool_use" ? submission.input : undefined,
  });
  const decision = await runGuardrails(
    loop.config.guardrails!.output!,
    context,
    query.signals.model,
    failOpenNotice(query),
  );
  switch (decision.verdict) {
    case "cancelled":
      query.heldEvents = undefined;
      return { kind: "ended", ending: cancelledEnding(query.signals) };
    case "allow": {
      if (!decision.redactions) return { kind: "record", response };
      for (const redaction of decision.redactions) reportVerdict(query, redaction.record);
      query.heldEvents = undefined; // the stream showed what was redacted: the answer comes whole
      query.resultText = redactText(query.resultText, decision.redactions);
      const content = redactContent(response.content, decision.redactions);
      return {
        kind: "record",
        response: withMeta({ ...response, content }, false, decision.redactions.at(-1)!.record),
      };
    }
    case "reject": {
      reportVerdict(query, decision.record);
      query.heldEvents = undefined;
      const message = decision.record.message ?? "";
      query.resultText = message;
      const content = [{ type: "text" as const, text: message }];
      return { kind: "record", response: withMeta({ ...response, content }, false, decision.record) };
    }
    case "tripwire": {
      query.heldEvents = undefined;
      const history = loop.conversation.history;
      history.record(withMeta(response, true, undefined));
      const ending = await withdrawTurn(loop, query, decision.record);
      return { kind: "ended", ending };
    }
  }
}
