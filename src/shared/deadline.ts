/**
 * The one deadline helper: a signal that follows a parent signal and aborts with a reason of the
 * caller's choosing once a time limit passes. Model requests, tool calls and hooks all bound their
 * work with it, so every deadline is started, reported and cleared the same way.
 * @module
 */
import { type LinkedController, linkSignals } from "./signals";

/** A running deadline. `clear()` stops its timer and detaches it from the parent (idempotent). */
export interface Deadline {
  /** Aborts when the parent aborts (with the parent's reason) or when time runs out (with `reason()`). */
  readonly signal: AbortSignal;
  /** The limit it was started with, in milliseconds. */
  readonly timeoutMs: number;
  /** Whether it was the time limit, not the parent, that aborted the signal. */
  readonly expired: boolean;
  clear(): void;
}

/**
 * Starts a deadline of `timeoutMs` under `parent` (none: only the time limit aborts it). When the
 * time runs out, the signal aborts with `reason()` — a `TimeoutError` for a model request, for
 * instance. Always `clear()` it once the bounded work has settled: the timer keeps the process alive.
 */
export function startDeadline(
  parent: AbortSignal | undefined,
  timeoutMs: number,
  reason: (timeoutMs: number) => unknown,
): Deadline {
  const link: LinkedController = linkSignals(parent);
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    link.abort(reason(timeoutMs));
  }, timeoutMs);
  return {
    signal: link.signal,
    timeoutMs,
    get expired() {
      return expired;
    },
    clear() {
      clearTimeout(timer);
      link.dispose();
    },
  };
}
