/**
 * Pass rates over trials. With `n` trials of which `c` passed:
 * - pass@k = 1 − C(n−c, k) / C(n, k): the chance that at least one of k trials drawn from the n passes;
 * - pass^k = C(c, k) / C(n, k): the chance that all k drawn trials pass (how reliably the agent
 *   succeeds every time).
 * With k = n (the default), pass@k is 1 when any trial passed and pass^k is 1 only when all did.
 * @module
 */

/** The unbiased pass@k estimate for `passed` of `trials`. */
export function passAtK(trials: number, passed: number, k: number): number {
  if (trials === 0 || k < 1 || k > trials) return 0;
  if (trials - passed < k) return 1;
  return 1 - choose(trials - passed, k) / choose(trials, k);
}

/** The pass^k estimate for `passed` of `trials`. */
export function passHatK(trials: number, passed: number, k: number): number {
  if (trials === 0 || k < 1 || k > trials || passed < k) return 0;
  return choose(passed, k) / choose(trials, k);
}

function choose(n: number, k: number): number {
  let value = 1;
  for (let index = 1; index <= k; index++) value = (value * (n - k + index)) / index;
  return value;
}
