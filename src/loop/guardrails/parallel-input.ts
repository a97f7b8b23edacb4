/**
 * Step 2 while parallel input guardrails run: the first request races them. No tool starts early
 * (streaming tool execution is off for this request) and its stream events are held back; a
 * refusal aborts the request at once and withdraws the turn — nothing of its response is recorded,
 * handed over or run. Once they allow, the prompt's `unchecked` mark is taken back (its redactions
 * applied to what later requests send) and the turn goes on as without them.
 * @module
 */
import { redactContent } from "../../guardrails/apply-redactions";
import type { StageDecision } from "../../guardrails/run-guardrails";
import type { ContentBlock, MessageMeta, ModelMessage } from "../../messages/types";
import { linkSignals } from "../../shared/signals";
import type { StepResult } from "../decide-next";
import { cancelledEnding } from "../ending";
import type { MainRequest } from "../model-call/main-request";
import type { LoopContext } from "../state/loop-context";
import type { QueryState } from "../state/query-state";
import { answerBlockedPrompt } from "./input-guardrails";
import { reportVerdict, withMeta } from "./withdraw-turn";

/** The abort reason of a request a guardrail's refusal cancelled. */
export class GuardrailTripReason extends Error {
  constructor() {
    super("A parallel input guardrail refused the prompt.");
    this.name = "GuardrailTripReason";
  }
}

/** Makes the first request while `query.inputCheck` runs; the decision settles the turn. */
export async function callRacingInputCheck<T>(
  loop: LoopContext<T>,
  query: QueryState,
  request: MainRequest,
): Promise<StepResult<T>> {
  const check = query.inputCheck!;
  query.inputCheck = undefined;
  const link = linkSignals(query.signals.model);
  const decided = check.then((decision) => {
    if (decision.verdict === "reject" || decision.verdict === "tripwire")
      link.abort(new GuardrailTripReason());
    return decision;
  });
  try {
    const reply = await request.call(undefined, link.signal);
    return await settle(loop, query, await decided, reply);
  } finally {
    link.dispose();
  }
}

async function settle<T>(
  loop: LoopContext<T>,
  query: QueryState,
  decision: StageDecision,
  reply: StepResult<T>,
): Promise<StepResult<T>> {
  if (decision.verdict === "cancelled") return { kind: "ended", ending: cancelledEnding(query.signals) };
  const history = loop.conversation.history;
  const index = lastPromptIndex(history.messages);
  if (decision.verdict !== "allow") {
    query.heldEvents = undefined; // nothing of the refused turn's response reaches the consumer
    query.resultText = query.partialText = "";
    const messages = history.messages.slice();
    if (index >= 0) messages[index] = withMeta(marked(messages[index]!, "guardrail"), true, decision.record);
    await history.replace(messages);
    return { kind: "ended", ending: await answerBlockedPrompt(loop, query, decision.record) };
  }
  if (index >= 0) {
    const messages = history.messages.slice();
    let prompt = marked(messages[index]!, undefined);
    if (decision.redactions) {
      for (const redaction of decision.redactions) reportVerdict(query, redaction.record);
      const record = decision.redactions.at(-1)!.record;
      prompt = {
        ...prompt,
        content: redactContent(prompt.content as string | ContentBlock[], decision.redactions),
        meta: { ...prompt.meta, guardrail: record },
      } as ModelMessage;
    }
    messages[index] = prompt;
    await history.replace(messages);
  }
  return reply;
}

/** The prompt this query recorded unchecked: the last message marked so. */
function lastPromptIndex(messages: readonly { meta?: MessageMeta }[]): number {
  for (let index = messages.length - 1; index >= 0; index--)
    if (messages[index]!.meta?.withdrawn === "unchecked") return index;
  return -1;
}

function marked<M extends { meta?: MessageMeta }>(message: M, withdrawn: MessageMeta["withdrawn"]): M {
  const meta: MessageMeta = { ...message.meta };
  if (withdrawn) meta.withdrawn = withdrawn;
  else delete meta.withdrawn;
  return { ...message, meta };
}
