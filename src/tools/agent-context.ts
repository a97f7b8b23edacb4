/**
 * What a tool that runs an agent of its own (a subagent) needs from the running query, besides
 * the plain {@link ToolContext}: the query's model and client, its message stream, its interrupt,
 * its budget, its cost ledger and how deep in a chain of subagents it runs.
 * @module
 */
import type { ModelUsage, SDKMessage } from "../messages/sdk-messages";
import type { ModelClient } from "../model/client";

/**
 * Marks a tool whose calls emit messages while they run (a subagent): the loop delivers the
 * messages of a batch holding such a call live, as they come. Other batches hand their notices
 * (hook errors, summaries) over once their results are in history, so a consumer that stops on
 * one loses no result.
 */
export const EMITS_LIVE_MESSAGES: unique symbol = Symbol.for("agent-lattice.emitsLiveMessages");

/** Whether `tool` was marked with {@link EMITS_LIVE_MESSAGES}. */
export function emitsLiveMessages(tool: object | undefined): boolean {
  return (tool as { [EMITS_LIVE_MESSAGES]?: boolean } | undefined)?.[EMITS_LIVE_MESSAGES] === true;
}

/**
 * `ToolContext.agent`: built once per query by the loop and shared by every call of it, so a
 * plain tool pays nothing for it. Absent when a tool runs outside an agent's query (served over
 * MCP, called directly).
 */
export interface AgentToolContext {
  /** The query's current model (what `setModel` last chose). */
  readonly model: string;
  /** The model client the query's requests go to. */
  readonly client: ModelClient;
  /** The secrets the query redacts: a child agent redacts them too. */
  readonly secrets?: readonly string[];
  /** Whether the query's consumer asked for `stream_event` messages (`includePartialMessages`). */
  readonly includePartialMessages: boolean;
  /** How many subagents up the chain the running query is: 0 for a top-level agent's query. */
  readonly depth: number;
  /** Aborted when the query is interrupted (`interrupt()`); the tool's own signal is not. */
  readonly interruption: AbortSignal;
  /**
   * Hands a message to the query's consumer, live, while the tool still runs. A subagent tags
   * each message of its child with `parent_tool_use_id` first.
   */
  emit(message: SDKMessage<unknown>): void;
  /**
   * What is left of the query's `maxBudgetUsd` — and of every budget up the chain of subagents
   * that started it — never below 0; undefined without any budget.
   */
  remainingBudgetUsd(): number | undefined;
  /** Adds usage and cost spent on the query's behalf (a child's `model_usage`) to its ledger. */
  addUsage(modelUsage: Readonly<Record<string, ModelUsage>>): void;
  /**
   * The query's budget, as a child agent shares it live: the child adds each response's cost as
   * it comes and stops once {@link SharedBudget.exceeded} says a budget up the chain is crossed.
   */
  readonly budget: SharedBudget;
  /**
   * The tracing a child agent nests in — the query's tracing settings and the `execute_tool` span
   * of this call — set only on the context of a call of a tool marked {@link EMITS_LIVE_MESSAGES},
   * with tracing on. Opaque here: the agent that the child runs on reads it.
   */
  readonly tracing?: unknown;
}

/** A budget crossed: the `maxBudgetUsd` and what was spent against it. */
export interface BudgetCrossing {
  readonly maxBudgetUsd: number;
  readonly spentUsd: number;
  /** Set when the budget is a query's up the chain (a subagent's child sharing its parent's). */
  readonly inherited?: true;
}

/**
 * A query's budget as the child agents it starts share it (`AgentToolContext.budget`). Several
 * children running at once spend it together: each adds its cost as its responses come, so each
 * sees what the others spent.
 */
export interface SharedBudget {
  /** Adds cost spent on the query's behalf (one child response's usage, priced), to its ledger. */
  spend(modelUsage: Readonly<Record<string, ModelUsage>>): void;
  /** The budget crossed — the query's own, or one up the chain — or undefined when none is. */
  exceeded(): BudgetCrossing | undefined;
  /** What is left of the tightest budget up the chain (never below 0); undefined without any. */
  remainingUsd(): number | undefined;
}
