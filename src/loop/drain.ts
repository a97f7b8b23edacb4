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
 */
export async function* drain<M, R>(phase: (emit: Emit<M>) => Promise<R>): AsyncGenerator<M, R> {
  const queue: M[] = [];
  let wake: (() => void) | undefined;
  let settled = false;
  const emit: Emit<M> = (message) => {
    queue.push(message);
    wake?.();
  };
  const running = phase(emit).finally(() => {
    settled = true;
    wake?.();
  });
  running.catch(() => {}); // observed below
  while (true) {
    while (queue.length > 0) yield queue.shift()!;
    if (settled) break;
    await new Promise<void>((resolve) => {
      wake = resolve;
      if (queue.length > 0 || settled) resolve();
    });
    wake = undefined;
  }
  return await running;
}
