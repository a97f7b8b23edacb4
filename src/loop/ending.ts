/**
 * How a query ends: every way out is an {@link Ending}, mapped to a result subtype here.
 * @module
 */
import { AbortError, BudgetExceededError, MaxTurnsError } from "../errors";
import type { PendingApproval } from "../messages/approvals";
import type { PendingInput } from "../messages/pending-inputs";
import type { GuardrailTrip, ResultSubtype } from "../messages/sdk-messages";
import type { BudgetCrossing } from "../tools/agent-context";
import { cancelledOutcome, type ModelFailure } from "./model-call/model-outcome";
import type { QuerySignals } from "./state/query-signals";

/** How a query ends. */
export interface Ending<T> {
  subtype: ResultSubtype;
  error?: Error;
  structured?: { value: T };
  /** Overrides the result text (an `endTurn` tool's content, a submission). */
  result?: string;
  /** `requires_approval`: the calls waiting for a decision. */
  pendingApprovals?: PendingApproval[];
  /** `requires_input`: the questions waiting for an answer. */
  pendingInputs?: PendingInput[];
  /** `guardrail_tripwire`: the guardrail that tripped. */
  guardrail?: GuardrailTrip;
}

/** The ending of a model request (or a compaction) that got no response. */
export function endingForFailure<T>(outcome: ModelFailure): Ending<T> {
  switch (outcome.kind) {
    case "aborted":
      return { subtype: "error_abort", error: new AbortError(outcome.reason) };
    case "interrupted":
      return { subtype: "interrupted" };
    case "timeout":
      return { subtype: "error_timeout", error: outcome.error };
    case "failed":
    case "hook_failed":
      return { subtype: "error_during_execution", error: outcome.error };
  }
}

/** The ending of a query cancelled outside a model request: by its signal, an interrupt, or its consumer. */
export function cancelledEnding<T>(signals: QuerySignals): Ending<T> {
  return endingForFailure(cancelledOutcome(signals));
}

/** The caller's signal aborted. */
export function abortEnding<T>(signals: QuerySignals): Ending<T> {
  return { subtype: "error_abort", error: new AbortError(signals.user.reason) };
}

/** `maxBudgetUsd` was crossed: the query's own (it spent `spentUsd`), or one up the chain (it spent `ownSpentUsd` of it). */
export function budgetEnding<T>(crossed: BudgetCrossing, ownSpentUsd: number): Ending<T> {
  const { maxBudgetUsd, spentUsd } = crossed;
  const parent = crossed.inherited ? { ownSpentUsd } : undefined;
  return { subtype: "error_max_budget_usd", error: new BudgetExceededError(maxBudgetUsd, spentUsd, parent) };
}

/** `maxTurns` requests were answered. */
export function maxTurnsEnding<T>(maxTurns: number): Ending<T> {
  return { subtype: "error_max_turns", error: new MaxTurnsError(maxTurns) };
}
