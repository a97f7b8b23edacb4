/**
 * Summarising one oversized tool result before it enters history (`compactToolResults`), by one
 * model call under a `compaction` span (trigger `tool_result`) that is a child of the call's span.
 * On failure or cancellation the original result is kept.
 * @module
 */
import { DEFAULT_TOOL_RESULT_SUMMARY_PROMPT } from "../../compaction/prompt";
import {
  buildToolResultSummaryMessages,
  formatCompactedToolResult,
  toolResultChars,
} from "../../compaction/tool-results";
import { summaryText } from "../../compaction/transcript";
import { AgentLatticeError } from "../../errors";
import type { ToolResultBlock, ToolUseBlock } from "../../messages/types";
import type { SpanHandle } from "../../telemetry/telemetry";
import { recordUsage } from "../model-call/record-usage";
import { callSummaryModel } from "../model-call/summary-request";
import type { ToolResultCompactionSettings } from "../state/loop-config";
import type { LoopContext } from "../state/loop-context";
import { budgetCrossing } from "../state/query-budget";
import type { QueryState } from "../state/query-state";

/** Summarises a result over the threshold; returns the block history gets. */
export type ToolResultCompactor = (
  call: ToolUseBlock,
  block: ToolResultBlock,
  parentSpan: SpanHandle,
) => Promise<ToolResultBlock>;

/** The compactor of this query's tool results, or undefined when `compactToolResults` is off. */
export function toolResultCompactor(
  loop: LoopContext<unknown>,
  query: QueryState,
): ToolResultCompactor | undefined {
  const settings = loop.config.compaction.toolResults;
  if (!settings) return undefined;
  return async (call, block, parentSpan) => {
    const originalChars = toolResultChars(block.content);
    if (originalChars <= settings.thresholdChars) return block;
    // No request once the budget is spent (an earlier summary may have spent it): the original is
    // kept, and the query ends over budget after this batch.
    if (budgetCrossing(loop, query)) return block;
    const span = loop.conversation.telemetry.compaction(parentSpan, "tool_result");
    try {
      const summarised = { loop, query, settings, call, block, originalChars, span };
      const compacted = await summariseToolResult(summarised);
      span.set({ "agent_lattice.compaction.outcome": compacted === block ? "kept_original" : "compacted" });
      return compacted;
    } finally {
      span.end();
    }
  };
}

/** One result being summarised. */
interface Summarised {
  readonly loop: LoopContext<unknown>;
  readonly query: QueryState;
  readonly settings: ToolResultCompactionSettings;
  readonly call: ToolUseBlock;
  readonly block: ToolResultBlock;
  readonly originalChars: number;
  readonly span: SpanHandle;
}

async function summariseToolResult(summarised: Summarised): Promise<ToolResultBlock> {
  const { loop, query, settings, call, block, originalChars, span } = summarised;
  const messages = buildToolResultSummaryMessages(
    call.name,
    call.input,
    block.content,
    DEFAULT_TOOL_RESULT_SUMMARY_PROMPT,
  );
  const outcome = await callSummaryModel(loop, query, { messages, settings, span });
  if (outcome.kind === "aborted" || outcome.kind === "interrupted") return block;
  if (outcome.kind !== "response") return keptOriginal(summarised, outcome.error);
  const emit = query.outgoing.emit;
  const usage = recordUsage(loop.conversation, query, outcome.model, outcome.message.usage, emit);
  let summary: string;
  try {
    summary = summaryText(outcome.message);
  } catch (error) {
    return keptOriginal(summarised, error as Error);
  }
  const content = formatCompactedToolResult(summary, originalChars);
  if (content.length >= originalChars) {
    return keptOriginal(
      summarised,
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

/** The summary failed: the original result enters history unchanged. */
function keptOriginal(summarised: Summarised, error: Error): ToolResultBlock {
  const { query, call, block, span } = summarised;
  query.outgoing.emit({
    type: "system",
    subtype: "tool_result_compaction_failed",
    tool_use_id: call.id,
    tool_name: call.name,
    error,
  });
  span.fail(error);
  return block;
}
