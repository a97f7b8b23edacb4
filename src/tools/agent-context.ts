/**
 * What a tool that runs an agent of its own (a subagent) needs from the running query, besides
 * the plain {@link ToolContext}: the query's model and client, its message stream, its interrupt,
 * its budget (with its cost ledger) and how deep in a chain of subagents it runs.
 * @module
 */
import type { ModelUsage, SDKMessage } from "../messages/sdk-messages";
import type { ModelClient } from "../model/client";

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
   * The query's budget — the one budget API of a tool: what is left of it and of every budget up
   * the chain ({@link SharedBudget.remainingUsd}), cost spent on the query's behalf
   * ({@link SharedBudget.spend}), and whether one is crossed ({@link SharedBudget.exceeded}). A
   * child agent shares it live: it adds each response's cost as it comes and stops once a budget
   * up the chain is crossed.
   */
  readonly budget: SharedBudget;
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
