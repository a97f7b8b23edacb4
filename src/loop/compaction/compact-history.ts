/**
 * Compacting history: summarise its older part with one model call and rebuild it around the
 * summary — automatically between turns, or once per query to recover from an overflow. History
 * is replaced only after a summary succeeded, so an abort or failure leaves it intact.
 * @module
 */
import { findCompactionCut } from "../../compaction/cut";
import { isContextWindowExceeded } from "../../compaction/overflow";
import { DEFAULT_COMPACTION_PROMPT } from "../../compaction/prompt";
import { buildCompactionRequestMessages, rebuildHistory, summaryText } from "../../compaction/transcript";
import { ContextWindowExceededError } from "../../errors";
import { withoutWithdrawnTurns } from "../../history/withdrawn-turns";
import { meetHookFailure } from "../../hooks/hook-failure";
import { runHookChain } from "../../hooks/run-hooks";
import type { PreCompactOutput } from "../../hooks/types";
import type { SDKMessage } from "../../messages/sdk-messages";
import type { AssistantModelMessage, ModelMessage } from "../../messages/types";
import type { SpanHandle } from "../../telemetry/telemetry";
import { type Cancelled, cancelledOutcome } from "../model-call/model-outcome";
import { recordUsage } from "../model-call/record-usage";
import { callSummaryModel } from "../model-call/summary-request";
import type { CompactionSettings } from "../state/loop-config";
import type { LoopContext } from "../state/loop-context";
import type { QueryState } from "../state/query-state";

/** What started a compaction. */
export type CompactionTrigger = "auto" | "overflow";

/** How a compaction attempt ended. */
export type CompactionResult =
  | { kind: "compacted" }
  | { kind: "skipped" }
  | { kind: "failed"; error: Error }
  | { kind: "cancelled"; outcome: Cancelled };

/** What one compaction works with. */
interface Compaction {
  readonly loop: LoopContext<unknown>;
  readonly query: QueryState;
  readonly settings: CompactionSettings;
  readonly trigger: CompactionTrigger;
  /** Messages before this index are summarised. */
  readonly cut: number;
}

/**
 * Summarises all but the recent messages and rebuilds history; reports it on the query's outgoing messages
 * (`compaction`, or `compaction_failed` and maybe `compaction_disabled`). Needs `autoCompact`.
 */
export async function compactHistory(
  loop: LoopContext<unknown>,
  query: QueryState,
  trigger: CompactionTrigger,
): Promise<CompactionResult> {
  const settings = loop.config.compaction.history!;
  const history = loop.conversation.history.messages;
  const cut = findCompactionCut(history, settings.keepRecentMessages);
  if (cut === undefined) return { kind: "skipped" };

  let skip = false;
  let customInstructions: string | undefined;
  const hookFailure = await runHookChain({
    event: "preCompact",
    hooks: loop.config.hooks?.preCompact,
    input: () => ({ trigger, messages: history }),
    onOutput: (output: PreCompactOutput) => {
      if (output.skip) skip = true;
      if (output.customInstructions)
        customInstructions = [customInstructions, output.customInstructions].filter(Boolean).join("\n");
    },
    signal: query.signals.model,
  });
  if (hookFailure && meetHookFailure(hookFailure, query.signals.model, query.outgoing.emit) === "cancelled")
    return { kind: "cancelled", outcome: cancelledOutcome(query.signals) };
  if (skip) return { kind: "skipped" };

  const compaction: Compaction = { loop, query, settings, trigger, cut };
  const span = loop.conversation.telemetry.compaction(query.span, trigger);
  try {
    const outcome = await summariseAndRebuild(compaction, customInstructions, span);
    if (outcome.kind === "failed") span.fail(outcome.error);
    span.set({ "agent_lattice.compaction.outcome": outcome.kind, "agent_lattice.compaction.messages": cut });
    return outcome;
  } catch (error) {
    // A store created with failOnError threw the rewrite: the query throws it too.
    span.fail(error);
    span.set({ "agent_lattice.compaction.outcome": "failed", "agent_lattice.compaction.messages": cut });
    throw error;
  } finally {
    span.end();
  }
}

async function summariseAndRebuild(
  compaction: Compaction,
  customInstructions: string | undefined,
  span: SpanHandle,
): Promise<CompactionResult> {
  const { loop, query, settings, trigger, cut } = compaction;
  const { conversation } = loop;
  const history = conversation.history.messages;
  // Turns a guardrail withdrew are never sent: not in a summary either.
  const messages = buildCompactionRequestMessages(
    withoutWithdrawnTurns(history.slice(0, cut)),
    settings.prompt ?? DEFAULT_COMPACTION_PROMPT,
    customInstructions,
  );
  const outcome = await callSummaryModel(loop, query, { messages, settings, span });
  if (outcome.kind === "aborted" || outcome.kind === "interrupted") return { kind: "cancelled", outcome };
  if (outcome.kind !== "response") return recordFailure(compaction, outcome.error);
  // Notices about the response (a model without a price) wait until history is rewritten: the
  // consumer may stop the query at any message it is given, and a rewrite still running then would
  // overwrite the history of the next query.
  const held: SDKMessage<unknown>[] = [];
  const usage = recordUsage(conversation, query, outcome.model, outcome.message.usage, (notice) => {
    held.push(notice);
  });
  let failure: Error | undefined;
  try {
    failure = await rewriteWithSummary(compaction, outcome.message, history);
  } finally {
    for (const notice of held) query.outgoing.emit(notice);
  }
  if (failure) return recordFailure(compaction, failure); // the summary was unusable: nothing was rewritten
  conversation.compaction.recordSuccess();
  conversation.forgetUsage();
  // Posted: a store that refused the rewrite is reported before it.
  query.outgoing.post({ type: "system", subtype: "compaction", compacted_messages: cut, usage, trigger });
  return { kind: "compacted" };
}

/** Rebuilds history around the summary in `message`; returns why it could not. */
async function rewriteWithSummary(
  compaction: Compaction,
  message: AssistantModelMessage,
  history: ModelMessage[],
): Promise<Error | undefined> {
  if (isContextWindowExceeded(message)) {
    // the summary request itself did not fit
    return new ContextWindowExceededError("The summarising request was too long as well.");
  }
  let summary: string;
  try {
    summary = summaryText(message);
  } catch (error) {
    return error as Error;
  }
  await compaction.loop.conversation.history.rewrite(rebuildHistory(summary, history.slice(compaction.cut)));
  return undefined;
}

function recordFailure(compaction: Compaction, error: Error): CompactionResult {
  const { loop, query } = compaction;
  const breaker = loop.conversation.compaction;
  const justDisabled = breaker.recordFailure();
  query.outgoing.emit({
    type: "system",
    subtype: "compaction_failed",
    error,
    consecutive_failures: breaker.failures,
  });
  if (justDisabled) {
    query.outgoing.emit({
      type: "system",
      subtype: "compaction_disabled",
      reason: `Automatic compaction failed ${breaker.failures} times in a row and is now off for this agent; overflow recovery still runs once per query.`,
    });
  }
  return { kind: "failed", error };
}
