/**
 * Backoff for transient provider failures: exponential with full jitter, `retry-after` honoured.
 * @module
 */

/** Resolved retry settings. */
export interface RetryPolicy {
  maxRetries: number;
  initialDelayMs: number;
  maxDelayMs: number;
}

/**
 * Delay before retry number `attempt` (1-based). A provider `retry-after` hint wins (capped at
 * `maxDelayMs`); otherwise a uniformly random delay up to `initialDelayMs * 2^(attempt-1)`.
 */
export function retryDelayMs(
  policy: RetryPolicy,
  attempt: number,
  retryAfterMs: number | undefined,
  random: () => number,
): number {
  if (retryAfterMs !== undefined && retryAfterMs >= 0) return Math.min(retryAfterMs, policy.maxDelayMs);
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (attempt - 1));
  return Math.floor(random() * ceiling);
}
