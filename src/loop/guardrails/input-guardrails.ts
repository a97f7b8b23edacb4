/**
 * Input guardrails (step 1): the blocking ones run on the prompt before it enters history — the
 * model is not called until they allow; the parallel ones start once it is recorded (marked
 * `withdrawn: "unchecked"` until they allow, so a process that stops mid-check never leaves an
 * unchecked prompt that a later request would send) and race the first request
 * (`parallel-input.ts`).
 * @module
 */
import { redactContent, textOfContent } from "../../guardrails/apply-redactions";
import { runGuardrails, type StageDecision } from "../../guardrails/run-guardrails";
import type { ContentBlock, GuardrailRecord, ModelMessage } from "../../messages/types";
import type { Ending } from "../ending";
import type { LoopContext } from "../state/loop-context";
import type { QueryState } from "../state/query-state";
import { failOpenNotice, stageContext } from "./stage-context";
import { reportVerdict, trippedEnding } from "./withdraw-turn";

/** What the blocking input guardrails left of a prompt. */
export type CheckedPrompt =
  | { kind: "allowed"; content: string | ContentBlock[]; record?: GuardrailRecord }
  | { kind: "blocked"; record: GuardrailRecord }
  | { kind: "cancelled" };

/** Runs the blocking input guardrails on `content`; redactions are applied to what is returned. */
export async function checkPrompt(
  loop: LoopContext<unknown>,
  query: QueryState,
  content: string | ContentBlock[],
): Promise<CheckedPrompt> {
  const guardrails = loop.config.guardrails?.input;
  if (!guardrails) return { kind: "allowed", content };
  const decision = await runGuardrails(
    guardrails,
    stageContext(loop, query, { stage: "input", text: textOfContent(content), prompt: content }),
    query.signals.model,
    failOpenNotice(query),
  );
  if (decision.verdict === "cancelled") return { kind: "cancelled" };
  if (decision.verdict !== "allow") return { kind: "blocked", record: decision.record };
  if (!decision.redactions) return { kind: "allowed", content };
  for (const redaction of decision.redactions) reportVerdict(query, redaction.record);
  return {
    kind: "allowed",
    content: redactContent(content, decision.redactions),
    record: decision.redactions.at(-1)!.record,
  };
}

/**
 * Starts the parallel input guardrails on the prompt just recorded (the last message of history),
 * which the caller marked unchecked: `query.inputCheck` is what the first request races.
 */
export function startParallelInput(
  loop: LoopContext<unknown>,
  query: QueryState,
  content: string | ContentBlock[],
  before: readonly ModelMessage[],
): void {
  const guardrails = loop.config.guardrails?.parallelInput;
  if (!guardrails) return;
  const context = stageContext(loop, query, {
    stage: "input",
    text: textOfContent(content),
    prompt: content,
    messages: before,
  });
  const decision: Promise<StageDecision> = runGuardrails(
    guardrails,
    context,
    query.signals.model,
    failOpenNotice(query),
  );
  query.inputCheck = decision;
}

/**
 * The prompt was refused before it was sent (it is in history, withdrawn, with the verdict): a
 * tripwire ends the query `guardrail_tripwire`; a reject answers with its message — an assistant
 * message recorded withdrawn too, and handed over — and ends the query a success.
 */
export async function answerBlockedPrompt<T>(
  loop: LoopContext<T>,
  query: QueryState,
  record: GuardrailRecord,
): Promise<Ending<T>> {
  reportVerdict(query, record);
  if (record.verdict !== "reject") return trippedEnding(record);
  const message = record.message ?? "";
  const history = loop.conversation.history;
  const entry = history.record({
    role: "assistant",
    content: [{ type: "text", text: message }],
    meta: { withdrawn: "guardrail", guardrail: record },
  });
  await history.save(entry);
  query.outgoing.handOver({ type: "assistant", message: entry });
  query.resultText = message;
  return { subtype: "success", result: message };
}
