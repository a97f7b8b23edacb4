/**
 * Compaction inside the loop: summarise the older part of history with one model call and rebuild
 * it (automatic, between turns, or as overflow recovery), and summarise one huge tool result.
 * History is replaced only after a summary succeeded, so an abort or failure leaves it intact.
 * @module
 */
import type { AgentCore } from "../agent/agent-core";
import { findCompactionCut } from "../compaction/cut";
import { isContextWindowExceeded } from "../compaction/overflow";
import { DEFAULT_COMPACTION_PROMPT, DEFAULT_TOOL_RESULT_SUMMARY_PROMPT } from "../compaction/prompt";
import {
  buildToolResultSummaryMessages,
  formatCompactedToolResult,
  toolResultChars,
} from "../compaction/tool-results";
import { buildCompactionRequestMessages, rebuildHistory, summaryText } from "../compaction/transcript";
import { AgentLatticeError, ContextWindowExceededError } from "../errors";
import { runHookChain } from "../hooks/run-hooks";
import type { PreCompactOutput } from "../hooks/types";
import type { SDKMessage } from "../messages/sdk-messages";
import type { AssistantModelMessage, ModelMessage, ToolResultBlock, ToolUseBlock } from "../messages/types";
import type { SpanHandle } from "../telemetry/telemetry";
import type { Emit } from "./live-messages";
import { callModel, cancelledOutcome, type ModelOutcome } from "./model-call";
import type { QueryRun } from "./query-run";
import { recordUsage } from "./usage-step";

/** After this many consecutive failures automatic compaction stops (overflow recovery still runs). */
export const COMPACTION_FAILURE_LIMIT = 3;

/** How a compaction attempt ended. */
export type CompactionOutcome =
  | { kind: "compacted" }
  | { kind: "skipped" }
  | { kind: "failed"; error: Error }
  | { kind: "cancelled"; outcome: Extract<ModelOutcome, { kind: "aborted" | "interrupted" }> };

/** Summarises all but the recent messages and rebuilds history; reports it with a system message. */
export async function compactHistory<T>(
  core: AgentCore<T>,
  run: QueryRun,
  trigger: "auto" | "overflow",
  emit: Emit<SDKMessage<T>>,
): Promise<CompactionOutcome> {
  const settings = core.autoCompact!;
  const history = core.history.messages;
  const cut = findCompactionCut(history, settings.keepRecentMessages);
  if (cut === undefined) return { kind: "skipped" };

  let skip = false;
  let customInstructions: string | undefined;
  const hookFailure = await runHookChain({
    event: "preCompact",
    hooks: core.hooks?.preCompact,
    input: () => ({ trigger, messages: history }),
    onOutput: (output: PreCompactOutput) => {
      if (output.skip) skip = true;
      if (output.customInstructions)
        customInstructions = [customInstructions, output.customInstructions].filter(Boolean).join("\n");
    },
    signal: run.modelSignal,
  });
  if (hookFailure && run.modelSignal.aborted) return { kind: "cancelled", outcome: cancelledOutcome(run) };
  if (hookFailure) emit({ type: "system", subtype: "hook_error", hook: "preCompact", error: hookFailure });
  if (skip) return { kind: "skipped" };

  const span = core.telemetry.compaction(run.span, trigger);
  try {
    const outcome = await summariseAndRebuild(core, run, trigger, cut, customInstructions, span, emit);
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

async function summariseAndRebuild<T>(
  core: AgentCore<T>,
  run: QueryRun,
  trigger: "auto" | "overflow",
  cut: number,
  customInstructions: string | undefined,
  span: SpanHandle,
  emit: Emit<SDKMessage<T>>,
): Promise<CompactionOutcome> {
  const settings = core.autoCompact!;
  const history = core.history.messages;
  const model = settings.model ?? core.model;
  const outcome = await callModel(
    core,
    run,
    {
      messages: buildCompactionRequestMessages(
        history.slice(0, cut),
        settings.prompt ?? DEFAULT_COMPACTION_PROMPT,
        customInstructions,
      ),
      maxTokens: settings.maxTokens,
    },
    {
      model,
      timeoutMs: run.requestTimeoutMs,
      streamEvents: false,
      applyRequestHooks: false,
      parentSpan: span,
    },
    emit,
  );
  if (outcome.kind === "aborted" || outcome.kind === "interrupted") return { kind: "cancelled", outcome };
  if (outcome.kind !== "response") return recordFailure(core, outcome.error, emit);
  // Notices about the response (a model without a price) wait until history is rewritten: the
  // consumer may stop the query at any message it is given, and a rewrite still running then would
  // overwrite the history of the next query.
  const held: SDKMessage<T>[] = [];
  const usage = recordUsage(core, run, outcome.model, outcome.message.usage, (notice) => {
    held.push(notice);
  });
  let failure: Error | undefined;
  try {
    failure = await rewriteWithSummary(core, outcome.message, history, cut);
  } finally {
    for (const notice of held) emit(notice);
  }
  // A store that refused the rewrite is reported now: the query may end before another write.
  for (const notice of core.history.takeNotices()) emit(notice as SDKMessage<T>);
  if (failure) return recordFailure(core, failure, emit);
  core.compactionFailures = 0;
  core.lastInputTokens = undefined;
  emit({ type: "system", subtype: "compaction", compacted_messages: cut, usage, trigger });
  return { kind: "compacted" };
}

/** Rebuilds history around the summary in `message`; returns why it could not. */
async function rewriteWithSummary<T>(
  core: AgentCore<T>,
  message: AssistantModelMessage,
  history: ModelMessage[],
  cut: number,
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
  await core.history.rewrite(rebuildHistory(summary, history.slice(cut)));
  return undefined;
}

function recordFailure<T>(core: AgentCore<T>, error: Error, emit: Emit<SDKMessage<T>>): CompactionOutcome {
  core.compactionFailures += 1;
  emit({
    type: "system",
    subtype: "compaction_failed",
    error,
    consecutive_failures: core.compactionFailures,
  });
  if (core.compactionFailures >= COMPACTION_FAILURE_LIMIT && !core.compactionDisabled) {
    core.compactionDisabled = true;
    emit({
      type: "system",
      subtype: "compaction_disabled",
      reason: `Automatic compaction failed ${core.compactionFailures} times in a row and is now off for this agent; overflow recovery still runs once per query.`,
    });
  }
  return { kind: "failed", error };
}

/**
 * Builds the `compactResult` step for tool calls: a successful result longer than the threshold is
 * summarised by one model call, under a `compaction` span (trigger `tool_result`) that is a child of
 * the call's span. On failure (or cancellation) the original result is kept.
 */
export function toolResultCompactor<T>(core: AgentCore<T>, run: QueryRun, emit: Emit<SDKMessage<T>>) {
  const settings = core.compactToolResults;
  if (!settings) return undefined;
  return async (
    call: ToolUseBlock,
    block: ToolResultBlock,
    parentSpan: SpanHandle,
  ): Promise<ToolResultBlock> => {
    const originalChars = toolResultChars(block.content);
    if (originalChars <= settings.thresholdChars) return block;
    // No request once the budget is spent (an earlier summary may have spent it): the original is
    // kept, and the query ends over budget after this batch.
    if (core.maxBudgetUsd !== undefined && run.ledger.isOverBudget(core.maxBudgetUsd)) return block;
    const span = core.telemetry.compaction(parentSpan, "tool_result");
    try {
      const compacted = await summariseToolResult(core, run, call, block, originalChars, span, emit);
      span.set({ "agent_lattice.compaction.outcome": compacted === block ? "kept_original" : "compacted" });
      return compacted;
    } finally {
      span.end();
    }
  };
}

async function summariseToolResult<T>(
  core: AgentCore<T>,
  run: QueryRun,
  call: ToolUseBlock,
  block: ToolResultBlock,
  originalChars: number,
  span: SpanHandle,
  emit: Emit<SDKMessage<T>>,
): Promise<ToolResultBlock> {
  const settings = core.compactToolResults!;
  const outcome = await callModel(
    core,
    run,
    {
      messages: buildToolResultSummaryMessages(
        call.name,
        call.input,
        block.content,
        DEFAULT_TOOL_RESULT_SUMMARY_PROMPT,
      ),
      maxTokens: settings.maxTokens,
    },
    {
      model: settings.model ?? core.model,
      timeoutMs: run.requestTimeoutMs,
      streamEvents: false,
      applyRequestHooks: false,
      parentSpan: span,
    },
    emit,
  );
  if (outcome.kind === "aborted" || outcome.kind === "interrupted") return block;
  const kept = (error: Error) => {
    emit({
      type: "system",
      subtype: "tool_result_compaction_failed",
      tool_use_id: call.id,
      tool_name: call.name,
      error,
    });
    span.fail(error);
    return block; // the original result enters history unchanged
  };
  if (outcome.kind !== "response") return kept(outcome.error);
  const usage = recordUsage(core, run, outcome.model, outcome.message.usage, emit);
  let summary: string;
  try {
    summary = summaryText(outcome.message);
  } catch (error) {
    return kept(error as Error);
  }
  const content = formatCompactedToolResult(summary, originalChars);
  if (content.length >= originalChars) {
    return kept(
      new AgentLatticeError(
        `the condensed result (${content.length} characters) was not shorter than the original (${originalChars})`,
      ),
    );
  }
  emit({
    type: "system",
    subtype: "tool_result_compaction",
    tool_use_id: call.id,
    tool_name: call.name,
    original_chars: originalChars,
    compacted_chars: content.length,
    usage,
  });
  return { ...block, content };
}
