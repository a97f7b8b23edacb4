/**
 * A query's budget as the loop checks it: its own `maxBudgetUsd`, and — for a subagent's child —
 * the budget of the query that started it, shared live with that query's other children.
 * @module
 */
import type { BudgetCrossing, SharedBudget } from "../../tools/agent-context";
import type { LoopContext } from "./loop-context";
import type { QueryState } from "./query-state";

/** The budget `query` has crossed — its own first, then one up the chain — or undefined. */
export function budgetCrossing<T>(loop: LoopContext<T>, query: QueryState): BudgetCrossing | undefined {
  const { maxBudgetUsd, sharedBudget } = loop.config.limits;
  if (maxBudgetUsd !== undefined && query.ledger.isOverBudget(maxBudgetUsd))
    return { maxBudgetUsd, spentUsd: query.ledger.totalCostUsd };
  const above = sharedBudget?.exceeded();
  return above && { maxBudgetUsd: above.maxBudgetUsd, spentUsd: above.spentUsd, inherited: true };
}

/**
 * `query`'s budget as the child agents it starts share it: what they spend goes to its ledger
 * (and on up the chain, through the ledger's own sink), and they stop once any budget up the
 * chain is crossed.
 */
export function sharedBudgetOf<T>(loop: LoopContext<T>, query: QueryState): SharedBudget {
  const { maxBudgetUsd, sharedBudget } = loop.config.limits;
  return {
    spend: (modelUsage) => query.ledger.add(modelUsage),
    exceeded: () => budgetCrossing(loop, query),
    remainingUsd: () => {
      const above = sharedBudget?.remainingUsd();
      if (maxBudgetUsd === undefined) return above;
      const own = Math.max(0, maxBudgetUsd - query.ledger.totalCostUsd);
      return above === undefined ? own : Math.min(own, above);
    },
  };
}
