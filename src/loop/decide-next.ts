/**
 * The one place that turns what a step of the loop produced (a {@link StepResult}) into the next
 * step or an ending: the limits checked before each request, automatic compaction, overflow
 * recovery, the turn count, the budget, and whether the tool calls run.
 * @module
 */
import { isContextWindowExceeded } from "../compaction/overflow";
import { ContextWindowExceededError } from "../errors";
import type { AssistantModelMessage, ToolUseBlock } from "../messages/types";
import { isNoResponseFailure } from "../model/errors";
import type { CompactionResult } from "./compaction/compact-history";
import { abortEnding, budgetEnding, type Ending, endingForFailure, maxTurnsEnding } from "./ending";
import type { ModelFailure, ModelReply } from "./model-call/model-outcome";
import { fellBackFromToolSearch } from "./model-call/tool-search-fallback";
import type { LoopContext } from "./state/loop-context";
import { budgetCrossing } from "./state/query-budget";
import type { QueryState } from "./state/query-state";

/** What a step of the loop produced. */
export type StepResult<T> =
  /** The query began; nothing is recorded yet. */
  | { kind: "started" }
  /** The next request is due: the prompt, the tool results or a continuation is in history. */
  | { kind: "ready" }
  /** The main request's answer ({@link ModelReply}): the usage is counted, the response not recorded yet. */
  | ModelReply
  /** The response is in history (when it had content) and handed over; these are its calls. */
  | { kind: "recorded"; response: AssistantModelMessage; calls: ToolUseBlock[] }
  | { kind: "compaction"; after: CompactStep<T>; result: CompactionResult }
  | { kind: "ended"; ending: Ending<T> };

/** A compaction to run: automatic, or recovering from an overflow (`unrecovered` ends the query if it fails). */
export type CompactStep<T> =
  | { step: "compact"; trigger: "auto" }
  | { step: "compact"; trigger: "overflow"; unrecovered: Ending<T> };

/** The next step of the loop, or its end. */
export type NextStep<T> =
  | { step: "add_prompt" }
  | { step: "call_model" }
  | { step: "record_response"; response: AssistantModelMessage }
  | { step: "run_tools"; response: AssistantModelMessage; calls: ToolUseBlock[] }
  /** Answers the calls of a response that went over the budget, unrun, then ends. */
  | { step: "refuse_tools"; calls: ToolUseBlock[]; ending: Ending<T> }
  /** The model stopped calling tools: end, unless something asks for one more request. */
  | { step: "finish"; response: AssistantModelMessage }
  | CompactStep<T>
  | { step: "end"; ending: Ending<T> };

/** The first outcome of every query. */
export const STARTED: StepResult<never> = Object.freeze({ kind: "started" });
/** The next request is due (shared: no allocation per turn). */
export const READY: StepResult<never> = Object.freeze({ kind: "ready" });
const ADD_PROMPT: NextStep<never> = Object.freeze({ step: "add_prompt" });
const CALL_MODEL: NextStep<never> = Object.freeze({ step: "call_model" });
const AUTO_COMPACT: NextStep<never> = Object.freeze({ step: "compact", trigger: "auto" });
/** What a main request's outcome decides when the same request is to be made again. */
const SAME_REQUEST_AGAIN: unique symbol = Symbol("same request again");
type AfterRequest<T> = NextStep<T> | typeof SAME_REQUEST_AGAIN;

/** Decides what follows `outcome`. */
export function decideNext<T>(loop: LoopContext<T>, query: QueryState, outcome: StepResult<T>): NextStep<T> {
  switch (outcome.kind) {
    case "started":
      // Cancelled before the query starts: it ends at once, leaving history untouched.
      if (query.signals.aborted) return end(abortEnding(query.signals));
      if (query.signals.interrupted) return end({ subtype: "interrupted" });
      return ADD_PROMPT;
    case "ready":
      return nextRequest(loop, query);
    case "recorded":
      return afterRecord(loop, query, outcome.response, outcome.calls);
    case "ended":
      return end(outcome.ending);
    case "compaction":
      if (outcome.after.trigger === "auto") return afterAutoCompaction(loop, query, outcome.result);
      return afterRequest(loop, query, outcome);
    default:
      return afterRequest(loop, query, outcome);
  }
}

/**
 * After a main request (or the compaction recovering from its overflow): the same request again,
 * a compaction first, or the turn is over — counted here, the one place a turn is counted, unless
 * the request got no response at all (a retried request counts once).
 */
function afterRequest<T>(
  loop: LoopContext<T>,
  query: QueryState,
  outcome: ModelReply | (StepResult<T> & { kind: "compaction" }),
): NextStep<T> {
  const next =
    outcome.kind === "answered"
      ? afterAnswer(loop, query, outcome.response)
      : outcome.kind === "unanswered"
        ? afterFailure(loop, query, outcome.failure)
        : afterOverflowCompaction(outcome.after, outcome.result);
  if (next === SAME_REQUEST_AGAIN) return nextRequest(loop, query);
  const noResponse = outcome.kind === "unanswered" && gotNoResponse(outcome.failure);
  if (next.step !== "compact" && !noResponse) query.turns += 1;
  return next;
}

/** Before each request: the query's cancellation and limits, then whether compaction is due. */
function nextRequest<T>(loop: LoopContext<T>, query: QueryState): NextStep<T> {
  const { signals } = query;
  if (signals.aborted) return end(abortEnding(signals));
  if (signals.interrupted) return end({ subtype: "interrupted" });
  // A summary or compaction response may have crossed the budget — or, for a subagent's child,
  // another child sharing the parent's: no further request is made.
  const over = overBudget(loop, query);
  if (over) return over;
  const { maxTurns } = loop.config.limits;
  if (query.turns >= maxTurns) return end(maxTurnsEnding(maxTurns));
  return shouldAutoCompact(loop) ? AUTO_COMPACT : CALL_MODEL;
}

/** A context that crossed the threshold is compacted before the request (unless the breaker is off). */
function shouldAutoCompact<T>(loop: LoopContext<T>): boolean {
  const settings = loop.config.compaction.history;
  const { conversation } = loop;
  const tokens = conversation.lastInputTokens;
  return (
    settings !== undefined &&
    !conversation.compaction.disabled &&
    !conversation.context.providerCompacts && // server compaction: the provider compacts
    tokens !== undefined &&
    tokens > settings.thresholdTokens
  );
}

function afterAnswer<T>(
  loop: LoopContext<T>,
  query: QueryState,
  response: AssistantModelMessage,
): NextStep<T> {
  // The context the next request starts from — noted once the consumer took the answer's notices.
  loop.conversation.noteUsage(response.usage);
  // The response says the context window overflowed: it is unusable and never enters history.
  if (isContextWindowExceeded(response)) return recoverOrEnd(loop, query, overflowEnding(loop));
  return { step: "record_response", response };
}

function afterFailure<T>(loop: LoopContext<T>, query: QueryState, failure: ModelFailure): AfterRequest<T> {
  // The provider refused server compaction: the same turn again, the SDK compacting.
  if (loop.conversation.context.takeCompactionRetry()) return SAME_REQUEST_AGAIN;
  if (failure.kind === "failed" && failure.promptTooLong)
    return recoverOrEnd(loop, query, endingForFailure(failure));
  // The provider refused the tool-search fields: the same turn again, searched on our side.
  if (fellBackFromToolSearch(loop, query, failure)) return SAME_REQUEST_AGAIN;
  return end(endingForFailure(failure));
}

/**
 * Whether the failed request got nothing of a response: no status, no streamed part (the
 * connection never opened, or dropped before the response headers). It is no answered turn.
 */
function gotNoResponse(failure: ModelFailure): boolean {
  return failure.kind === "failed" && !failure.unfinished?.received && isNoResponseFailure(failure.error);
}

/**
 * Overflow recovery: compacts once per query, then the same turn is retried (and counted once).
 * `unrecovered` ends the query when recovery cannot run or does not compact.
 */
function recoverOrEnd<T>(loop: LoopContext<T>, query: QueryState, unrecovered: Ending<T>): NextStep<T> {
  if (!loop.config.compaction.history || query.overflowRecoveryUsed) return end(unrecovered);
  // The overflowing response itself may have spent the budget: no summarising request after it.
  const over = overBudget(loop, query);
  if (over) return over;
  query.overflowRecoveryUsed = true;
  return { step: "compact", trigger: "overflow", unrecovered };
}

function afterOverflowCompaction<T>(after: CompactStep<T>, result: CompactionResult): AfterRequest<T> {
  if (result.kind === "compacted") return SAME_REQUEST_AGAIN;
  if (result.kind === "cancelled") return end(endingForFailure(result.outcome));
  return end((after as CompactStep<T> & { trigger: "overflow" }).unrecovered);
}

function afterAutoCompaction<T>(
  loop: LoopContext<T>,
  query: QueryState,
  result: CompactionResult,
): NextStep<T> {
  if (result.kind === "cancelled") return end(endingForFailure(result.outcome));
  // One attempt per turn: compacted, skipped or failed, the trigger re-arms with the next usage.
  loop.conversation.forgetUsage();
  return nextRequest(loop, query);
}

function afterRecord<T>(
  loop: LoopContext<T>,
  query: QueryState,
  response: AssistantModelMessage,
  calls: ToolUseBlock[],
): NextStep<T> {
  const crossed = budgetCrossing(loop, query);
  if (crossed) {
    const ending = budgetEnding<T>(crossed, query.ledger.totalCostUsd);
    return calls.length > 0 ? { step: "refuse_tools", calls, ending } : end(ending);
  }
  return calls.length === 0 ? { step: "finish", response } : { step: "run_tools", response, calls };
}

/** The ending of an overflow that recovery did not fix. */
function overflowEnding<T>(loop: LoopContext<T>): Ending<T> {
  const advice = loop.config.compaction.history
    ? "Compaction could not recover it (recovery runs once per query, and needs something left to summarise); start a new conversation or lower autoCompact.thresholdTokens."
    : undefined;
  return { subtype: "error_during_execution", error: new ContextWindowExceededError(advice) };
}

/** The ending of a query over its budget (its own, or a parent's it shares as a subagent's child), if it is. */
function overBudget<T>(loop: LoopContext<T>, query: QueryState): NextStep<T> | undefined {
  const crossed = budgetCrossing(loop, query);
  return crossed ? end(budgetEnding(crossed, query.ledger.totalCostUsd)) : undefined;
}

function end<T>(ending: Ending<T>): NextStep<T> {
  return { step: "end", ending };
}
