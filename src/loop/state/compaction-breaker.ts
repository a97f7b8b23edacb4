/**
 * The circuit breaker of automatic compaction: after {@link COMPACTION_FAILURE_LIMIT} consecutive
 * failures it turns automatic compaction off for the rest of the conversation (overflow recovery
 * still runs, once per query).
 * @module
 */

/** After this many consecutive failures automatic compaction stops (overflow recovery still runs). */
export const COMPACTION_FAILURE_LIMIT = 3;

/** Counts consecutive compaction failures of one conversation. */
export class CompactionBreaker {
  private consecutiveFailures = 0;
  private off = false;

  /** Consecutive failures so far (reset by a success). */
  get failures(): number {
    return this.consecutiveFailures;
  }

  /** Whether automatic compaction is off for this conversation. */
  get disabled(): boolean {
    return this.off;
  }

  /** Counts a failure; returns `true` when this one turned automatic compaction off. */
  recordFailure(): boolean {
    this.consecutiveFailures += 1;
    if (this.off || this.consecutiveFailures < COMPACTION_FAILURE_LIMIT) return false;
    this.off = true;
    return true;
  }

  /** A compaction succeeded: the count starts again. */
  recordSuccess(): void {
    this.consecutiveFailures = 0;
  }
}
