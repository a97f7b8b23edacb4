/**
 * `/compact [instructions]`: replace the older part of the conversation with a summary the model
 * writes, now, between prompts.
 *
 * The Agent has no public compaction method — automatic compaction (`autoCompact`) runs inside a
 * query, between turns — so the command does what automatic compaction does through the Agent's
 * public surface: it reads the history (`getHistory`), sends the same summarising request
 * (`DEFAULT_COMPACTION_PROMPT` after a transcript of the older messages, the instructions after
 * it) through the agent's own client, and replaces the history — and the `--session` file — with
 * the summary followed by the {@link COMPACT_KEEP_RECENT_MESSAGES} most recent messages
 * (`replaceHistory`). Unlike automatic compaction it makes one attempt (no retries) and runs no
 * `preCompact` hooks (the command has none). History changes only once a summary came back.
 * The summary request carries the model settings automatic compaction's would: the agent's
 * sampling, effort and prompt caching, thinking when it fits the summary's budget, never a tool
 * choice or stop sequences ({@link compactionRequestSettings}).
 * @module
 */
import type { Agent } from "../agent/create-agent";
import { DEFAULT_KEEP_RECENT_MESSAGES } from "../agent/options";
import { findCompactionCut } from "../compaction/cut";
import { isContextWindowExceeded } from "../compaction/overflow";
import { DEFAULT_COMPACTION_PROMPT } from "../compaction/prompt";
import { buildCompactionRequestMessages, rebuildHistory, summaryText } from "../compaction/transcript";
import { DEFAULT_PRICING, type ModelPricing } from "../cost/pricing";
import { CostLedger } from "../cost/usage";
import { summaryRequestSettings } from "../loop/model-call/request-settings";
import type { RequestSettings } from "../loop/state/loop-config";
import type { AssistantModelMessage, Usage } from "../messages/types";
import type { ModelClient } from "../model/client";
import type { CliModelSettings } from "./model-flags";

/** Messages kept verbatim after the summary: as many as automatic compaction keeps by default. */
export const COMPACT_KEEP_RECENT_MESSAGES = DEFAULT_KEEP_RECENT_MESSAGES;
/** Output budget of the summary, as automatic compaction's default. */
export const COMPACT_MAX_TOKENS = 4096;

/** What the summary request cost, when one was answered. */
export interface CompactSpending {
  model: string;
  usage: Usage;
  costUsd: number;
  /** False when the model has no price: its cost counts as $0. */
  priced: boolean;
}

/** How a `/compact` ended. */
export type CompactOutcome =
  | { kind: "compacted"; compactedMessages: number; keptMessages: number; spent: CompactSpending }
  | { kind: "nothing-to-compact"; messages: number }
  | { kind: "failed"; error: Error; spent?: CompactSpending }
  | { kind: "cancelled"; spent?: CompactSpending };

/** What {@link compactConversation} needs besides the agent and its client. */
export interface CompactOptions {
  /** Aborted by Ctrl-C (or a termination signal): the request stops, history is untouched. */
  signal: AbortSignal;
  /** Added after the summarising prompt (`/compact keep every ticket number`). */
  instructions?: string;
  /** The prices from the command line, merged over the built-in table, for the request's cost. */
  pricing?: Record<string, ModelPricing>;
  /** The model settings of the summary request ({@link compactionRequestSettings}). */
  settings?: RequestSettings;
}

/**
 * The settings a summary request of `maxTokens` carries for the command line's model settings, as
 * the agent resolves them for automatic compaction: the subset summary requests keep
 * (`summaryRequestSettings`; no prompt caching, whatever `--no-cache` says).
 */
export function compactionRequestSettings(settings: CliModelSettings, maxTokens: number): RequestSettings {
  const { promptCaching: _caching, maxTokens: _mainMaxTokens, ...rest } = settings;
  return summaryRequestSettings(rest, maxTokens);
}

/** Summarises all but the recent messages of `agent`'s conversation and rebuilds its history. */
export async function compactConversation(
  agent: Agent<unknown>,
  client: ModelClient,
  options: CompactOptions,
): Promise<CompactOutcome> {
  const history = await agent.getHistory();
  const cut = findCompactionCut(history, COMPACT_KEEP_RECENT_MESSAGES);
  if (cut === undefined) return { kind: "nothing-to-compact", messages: history.length };
  const model = agent.model;
  let response: AssistantModelMessage;
  try {
    response = await client.createMessage({
      ...options.settings,
      model,
      messages: buildCompactionRequestMessages(
        history.slice(0, cut),
        DEFAULT_COMPACTION_PROMPT,
        options.instructions,
      ),
      maxTokens: COMPACT_MAX_TOKENS,
      signal: options.signal,
    });
  } catch (error) {
    if (options.signal.aborted) return { kind: "cancelled" };
    return { kind: "failed", error: error instanceof Error ? error : new Error(String(error)) };
  }
  const spent = spendingOf(model, response, options.pricing);
  if (options.signal.aborted) return { kind: "cancelled", spent };
  let summary: string;
  try {
    if (isContextWindowExceeded(response))
      throw new Error("the summarising request did not fit in the model's context window either");
    summary = summaryText(response);
  } catch (error) {
    return { kind: "failed", error: error as Error, spent };
  }
  try {
    await agent.replaceHistory(rebuildHistory(summary, history.slice(cut)));
  } catch (error) {
    return { kind: "failed", error: error as Error, spent };
  }
  return { kind: "compacted", compactedMessages: cut, keptMessages: history.length - cut, spent };
}

function spendingOf(
  model: string,
  response: AssistantModelMessage,
  pricing: Record<string, ModelPricing> | undefined,
): CompactSpending {
  const ledger = new CostLedger(pricing ? { ...DEFAULT_PRICING, ...pricing } : DEFAULT_PRICING);
  const priced = ledger.record(model, response.usage);
  return { model, usage: ledger.usage, costUsd: ledger.totalCostUsd, priced };
}
