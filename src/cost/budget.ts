/**
 * The budget check: whether a query's cost is over `maxBudgetUsd`.
 * @module
 */

/**
 * How far over the budget a cost may be and still count as equal to it: a micro-dollar. Costs are
 * sums of floating-point products (0.1 + 0.2 is 0.30000000000000004), so an exact comparison would
 * end a query that spent exactly its budget.
 */
export const BUDGET_TOLERANCE_USD = 1e-6;

/**
 * Whether `spentUsd` is over `budgetUsd`. Equal is not over, and neither is less than
 * {@link BUDGET_TOLERANCE_USD} above it.
 *
 * @example
 * isOverBudget(0.1 + 0.2, 0.3); // false
 * isOverBudget(0.300002, 0.3); // true
 */
export function isOverBudget(spentUsd: number, budgetUsd: number): boolean {
  return spentUsd - budgetUsd > BUDGET_TOLERANCE_USD;
}
