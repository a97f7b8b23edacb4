/**
 * Runs an async phase of the loop that emits messages through a callback (stream events, retry
 * notices, hook errors) and yields those messages as they arrive, then returns the phase's result.
 * @module
 */

/** Receives messages a phase emits. */
export type Emit<M> = (message: M) => void;

/**
 * Yields every message `phase` emits while it runs, in order, and returns what it resolves to.
 * If the phase rejects, the messages emitted before the rejection are still yielded first.
 * It runs on every turn, so it allocates little: one queue, one settle handler, one wake-up
 * promise per wait.
 */
export async function* drain<M, R>(phase: (emit: Emit<M>) => Promise<R>): AsyncGenerator<M, R> {
  const queue: M[] = [];
  let wake: (() => void) | undefined;
  let settled = false;
  let failed = false;
  let value: R | undefined;
  let failure: unknown;
  const wakeUp = () => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  const emit: Emit<M> = (message) => {
    queue.push(message);
    wakeUp();
  };
  invoke(() => phase(emit)).then(
    (result) => {
      settled = true;
      value = result;
      wakeUp();
    },
    (error) => {
      settled = failed = true;
      failure = error;
      wakeUp();
    },
  );
  let next = 0;
  while (true) {
    while (next < queue.length) yield queue[next++]!;
    if (settled) break;
    await new Promise<void>((resolve) => {
      wake = resolve;
    });
  }
  while (next < queue.length) yield queue[next++]!; // emitted between the last wake and settling
  if (failed) throw failure;
  return value as R;
}

/**
 * Calls `work` now and returns its promise; a synchronous throw becomes a rejection. Cheaper than
 * `Promise.resolve().then(work)`, which defers the start by a tick and allocates twice.
 */
export function invoke<T>(work: () => T | PromiseLike<T>): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error);
  }
}
