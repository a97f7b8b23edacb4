/**
 * How one logical model request ends: a response, or one of the ways to get none. Model calls
 * never throw for provider failures; every way out is a {@link ModelOutcome}.
 * @module
 */
import type { HookFailure, ProviderError, TimeoutError } from "../../errors";
import type { AssistantModelMessage } from "../../messages/types";
import { InterruptReason, type QuerySignals } from "../state/query-signals";
import type { UnfinishedResponse } from "./unfinished-response";

/** How a model request ended. */
export type ModelOutcome =
  | { kind: "response"; message: AssistantModelMessage; model: string; timing?: ModelCallTiming }
  | ({ kind: "aborted"; reason: unknown } & CutOff)
  | ({ kind: "interrupted" } & CutOff)
  | ({ kind: "timeout"; error: TimeoutError } & CutOff)
  | ({ kind: "failed"; error: ProviderError; promptTooLong: boolean } & CutOff)
  /** An `onModelRequest` hook threw or timed out: the request was not sent. */
  | { kind: "hook_failed"; error: HookFailure };

/** When a logical request that got a response ran (the agent's clock, ms since the epoch). */
export interface ModelCallTiming {
  startedAt: number;
  endedAt: number;
  /** Retries after transient failures, all models together. */
  retries: number;
  /** The model tried first, when the fallback served the response. */
  fallbackFrom?: string;
}

/** A model request that got no response. */
export type ModelFailure = Exclude<ModelOutcome, { kind: "response" }>;

/** What the main request of a turn came to, as the loop's decision reads it. */
export type ModelReply =
  /** The model answered; the usage is counted, the response not recorded yet. */
  { kind: "answered"; response: AssistantModelMessage } | { kind: "unanswered"; failure: ModelFailure };

/** A model request (or other work) ended by the query's cancellation. */
export type Cancelled = Extract<ModelOutcome, { kind: "aborted" | "interrupted" }>;

/** A request that got no response may have streamed part of one before it was cut off. */
interface CutOff {
  /** What the last attempt's stream had shown; its usage is already counted in the query's ledger. */
  unfinished?: UnfinishedResponse;
}

/** What the request that ended a call without a response had streamed, if anything. */
export function unfinishedOf(outcome: ModelOutcome): UnfinishedResponse | undefined {
  return outcome.kind === "response" || outcome.kind === "hook_failed" ? undefined : outcome.unfinished;
}

/** How cancelled work ends: aborted by the caller's signal (or the consumer), or interrupted. */
export function cancelledOutcome(signals: QuerySignals): Cancelled {
  if (signals.aborted) return { kind: "aborted", reason: signals.user.reason };
  if (signals.interrupted || signals.model.reason instanceof InterruptReason) return { kind: "interrupted" };
  return { kind: "aborted", reason: signals.model.reason };
}
