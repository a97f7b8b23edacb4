/**
 * US dollar amounts written for people: the CLI's closing line and `/cost`, budget errors and
 * notices. The numbers in results (`total_cost_usd`, `model_usage[…].cost_usd`) stay exact; only
 * their display is rounded.
 *
 * The rule: four decimals (`$0.0041`, `$3.0002`, `$1,234.5000`), because a single request often
 * costs a fraction of a cent; a positive amount that four decimals would show as zero is
 * `< $0.0001`, so a cost is never shown as free when it is not; zero is `$0.0000`.
 * @module
 */

/** The smallest amount {@link formatUsd} shows as a number. */
const SMALLEST_SHOWN_USD = 0.0001;
/** Decimals {@link formatUsd} shows. */
const DECIMALS = 4;
/** The most decimals any formatter here writes (a budget of `1e-12` is still written out). */
const MAX_DECIMALS = 20;

/**
 * A cost for people: four decimals with thousands separators; a positive amount under $0.0001 is
 * `< $0.0001`. Not a finite number: written as is (`$NaN`), never hidden.
 *
 * @example
 * formatUsd(0.0011849999999999999); // "$0.0012"
 * formatUsd(1e-7); // "< $0.0001"
 * formatUsd(1234.5); // "$1,234.5000"
 */
export function formatUsd(amount: number): string {
  if (!Number.isFinite(amount)) return `$${amount}`;
  if (amount < 0) return `-${formatUsd(-amount)}`;
  if (amount > 0 && amount < SMALLEST_SHOWN_USD) return `< $${SMALLEST_SHOWN_USD.toFixed(DECIMALS)}`;
  return `$${withDecimals(amount, DECIMALS, DECIMALS)}`;
}

/**
 * An amount someone chose — a budget, a price — written out in full without an exponent: at least
 * two decimals, no trailing zeros beyond them.
 *
 * @example
 * formatUsdExactly(1e-7); // "$0.0000001"
 * formatUsdExactly(0.5); // "$0.50"
 */
export function formatUsdExactly(amount: number): string {
  if (!Number.isFinite(amount)) return `$${amount}`;
  if (amount < 0) return `-${formatUsdExactly(-amount)}`;
  return `$${withDecimals(amount, 2, MAX_DECIMALS)}`;
}

/**
 * `spent` as {@link formatUsd} writes it, with more decimals when four would not show it above
 * `limit` (a budget of $0.0001 exceeded by $0.00012 reads `$0.00012`, not `$0.0001`).
 */
export function formatUsdAbove(spent: number, limit: number): string {
  if (!Number.isFinite(spent)) return formatUsdExactly(spent);
  for (let decimals = DECIMALS; decimals <= MAX_DECIMALS; decimals++) {
    if (Number(spent.toFixed(decimals)) > limit) return `$${withDecimals(spent, decimals, decimals)}`;
  }
  return formatUsdExactly(spent);
}

function withDecimals(amount: number, minimum: number, maximum: number): string {
  return amount.toLocaleString("en-US", { minimumFractionDigits: minimum, maximumFractionDigits: maximum });
}
