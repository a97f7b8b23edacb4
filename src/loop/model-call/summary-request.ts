/**
 * A summary request — compaction of history, or of one oversized tool result: one model call with
 * the settings a summary keeps, without stream events or `onModelRequest` hooks.
 * @module
 */
import type { ModelMessage } from "../../messages/types";
import type { SpanHandle } from "../../telemetry/telemetry";
import type { LoopContext } from "../state/loop-context";
import type { QueryState } from "../state/query-state";
import { callModel } from "./call-model";
import type { ModelOutcome } from "./model-outcome";
import { summaryRequestSettings } from "./request-settings";

/** What a summary request (compaction of history or of a tool result) is given. */
export interface SummaryRequest {
  readonly messages: ModelMessage[];
  /** The summary's settings: its output budget, and its model (undefined: the conversation's). */
  readonly settings: { readonly maxTokens: number; readonly model: string | undefined };
  /** The `compaction` span the request's `chat` span is a child of. */
  readonly span: SpanHandle;
}

/**
 * Makes a summary request: the query's settings a summary keeps ({@link summaryRequestSettings}),
 * no stream events, no `onModelRequest` hooks.
 */
export function callSummaryModel(
  loop: LoopContext<unknown>,
  query: QueryState,
  summary: SummaryRequest,
): Promise<ModelOutcome> {
  const { maxTokens, model } = summary.settings;
  const base = {
    messages: summary.messages,
    maxTokens,
    settings: summaryRequestSettings(query.settings, maxTokens),
  };
  const settings = { model: model ?? loop.conversation.model, streamEvents: false, applyRequestHooks: false };
  return callModel(loop, query, base, { ...settings, parentSpan: summary.span });
}
