/**
 * What a guardrail of the running query is given and where its reports go: the conversation as the
 * model sees it, the agent's name, model and client, the query's ledger for a judge's usage, and
 * the query's outgoing messages for a check that failed open.
 * @module
 */

import type { GuardrailError } from "../../errors";
import type { Guardrail } from "../../guardrails/guardrail";
import type { FailOpenReport, StageContext } from "../../guardrails/run-guardrails";
import { withoutWithdrawnTurns } from "../../history/withdrawn-turns";
import type { ModelMessage, Usage } from "../../messages/types";
import { recordUsage } from "../model-call/record-usage";
import type { LoopContext } from "../state/loop-context";
import type { QueryState } from "../state/query-state";

/** The parts of a guardrail's context that depend on its stage. */
export type StageFields = Omit<StageContext, "messages" | "agent" | "model" | "client" | "reportUsage"> & {
  /** The conversation before this point; default: history as the next request sends it. */
  messages?: readonly ModelMessage[];
};

/** The context of one stage's checks in this query. */
export function stageContext(
  loop: LoopContext<unknown>,
  query: QueryState,
  fields: StageFields,
): StageContext {
  const { conversation } = loop;
  return {
    ...fields,
    messages: fields.messages ?? withoutWithdrawnTurns(conversation.history.messages),
    agent: loop.config.agentName,
    model: conversation.model,
    client: loop.services.client,
    reportUsage: (model: string, usage: Usage) => {
      recordUsage(conversation, query, model, usage, query.outgoing.emit);
    },
  };
}

/** A check that failed open is reported on the query's outgoing messages as a `guardrail_error` notice. */
export function failOpenNotice(query: QueryState): FailOpenReport {
  return (guardrail: Guardrail, error: GuardrailError) =>
    query.outgoing.emit({
      type: "system",
      subtype: "guardrail_error",
      guardrail: guardrail.name,
      stage: error.stage as Guardrail["stages"][number],
      error,
    });
}
