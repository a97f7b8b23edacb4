/**
 * Which timers a piece of code leaves behind: `trackTimers()` watches the `setTimeout` calls made
 * from then on, so a test counts only its own timers — not every timer of the process (vitest's,
 * another test's bound), which made a count of `process.getActiveResourcesInfo()` flaky.
 */

/** The timers started since {@link trackTimers} was called. */
export interface TimerTracker {
  /** The delays (ms) of the tracked timers that have neither fired nor been cleared, in start order. */
  pending(): number[];
  /** Puts the real `setTimeout` and `clearTimeout` back. */
  stop(): void;
}

/**
 * Wraps the global `setTimeout` and `clearTimeout` until `stop()`, recording every timer started in
 * between and whether it has fired or been cleared since. Code that took its own reference to the
 * functions before the call (an import from `node:timers`) is not seen.
 */
export function trackTimers(): TimerTracker {
  const realSetTimeout = globalThis.setTimeout;
  const realClearTimeout = globalThis.clearTimeout;
  const live = new Map<unknown, number>();

  const tracked = (callback: (...args: unknown[]) => void, delay?: number, ...args: unknown[]) => {
    const timer = realSetTimeout(() => {
      live.delete(timer);
      callback(...args);
    }, delay);
    live.set(timer, delay ?? 0);
    return timer;
  };
  const clear = (timer: Parameters<typeof clearTimeout>[0]) => {
    if (timer !== undefined && timer !== null) forget(live, timer);
    realClearTimeout(timer);
  };

  globalThis.setTimeout = Object.assign(tracked, realSetTimeout) as unknown as typeof setTimeout;
  globalThis.clearTimeout = clear as typeof clearTimeout;
  return {
    pending: () => [...live.values()],
    stop: () => {
      globalThis.setTimeout = realSetTimeout;
      globalThis.clearTimeout = realClearTimeout;
    },
  };
}

/** Removes `timer` — a timer object or its numeric id — from `live`. */
function forget(live: Map<unknown, number>, timer: unknown): void {
  if (live.delete(timer)) return;
  for (const candidate of live.keys()) if (Number(candidate) === Number(timer)) live.delete(candidate);
}
