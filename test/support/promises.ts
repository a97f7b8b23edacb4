/**
 * Waiting in tests without guessing durations: deferred promises a test settles itself, a signal's
 * abort, the end of pending callbacks, a condition, and a liveness bound for hang tests.
 */

/** A promise with its resolve and reject functions exposed. */
export interface Deferred<T = void> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(reason: unknown): void;
}

/** Creates a {@link Deferred}. */
export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((settle, fail) => {
    resolve = settle;
    reject = fail;
  });
  return { promise, resolve, reject };
}

/** A promise that never settles: a hook, tool or validator stuck forever. */
export function never<T = never>(): Promise<T> {
  return new Promise<T>(() => {});
}

/** Resolves once `signal` aborts. */
export function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}

/** Lets pending promise callbacks and timers of zero delay run. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * The shortest liveness bound `within` and `until` use, whatever a test asks. On a busy 2-core
 * machine (CI, a colleague's run beside yours) a step that takes milliseconds alone can take
 * seconds; a bound only turns a hang into a clear failure, so a long one costs a passing test
 * nothing, and a short one fails it under load.
 */
export const LIVENESS_FLOOR_MS = 20_000;

/**
 * `promise`, or "still pending" when it has not settled within `ms` (at least {@link LIVENESS_FLOOR_MS}) — a liveness bound for hang
 * tests, not a speed assertion. The bound's timer is cleared as soon as `promise` settles.
 */
export function within<T>(promise: Promise<T>, ms: number): Promise<T | "still pending"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<"still pending">((resolve) => {
    timer = setTimeout(() => resolve("still pending"), Math.max(ms, LIVENESS_FLOOR_MS));
  });
  return Promise.race([promise, bound]).finally(() => clearTimeout(timer));
}

/**
 * Resolves once `condition()` holds, checking it every few milliseconds — for state another
 * process or a server updates, which no promise announces. Rejects after `timeoutMs` (at least
 * {@link LIVENESS_FLOOR_MS}: a liveness bound for a condition never reached, not a speed assertion).
 */
export async function until(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 5_000,
  everyMs = 2,
): Promise<void> {
  const bound = Math.max(timeoutMs, LIVENESS_FLOOR_MS);
  const giveUpAt = Date.now() + bound;
  while (!(await condition())) {
    if (Date.now() > giveUpAt) throw new Error(`condition not reached within ${bound} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
