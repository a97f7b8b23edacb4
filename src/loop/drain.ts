/**
 * Live delivery of the messages a phase of the loop emits while the loop awaits it (stream events,
 * retry notices, hook errors): the loop yields them as they arrive, then takes the phase's result.
 * @module
 */
import { invoke } from "../shared/maybe-async";

/** Receives messages a phase emits. */
export type Emit<M> = (message: M) => void;

function ignore(): void {}

/** What {@link LiveMessages.settle} gives when messages wait to be taken. */
export const MESSAGES_WAITING: unique symbol = Symbol("messages waiting");

/**
 * The emitted messages of one query, and the way to wait for either the next of them or the end of
 * the phase that emits them. One per query, reused by every phase: a model call costs no more
 * than one promise to wait on it.
 */
export class LiveMessages<M> {
  private queue: M[] = [];
  private wake: ((value: typeof MESSAGES_WAITING) => void) | undefined;

  /** Queues a message and wakes the waiting loop. */
  readonly emit: Emit<M> = (message) => {
    this.queue.push(message);
    const wake = this.wake;
    this.wake = undefined;
    wake?.(MESSAGES_WAITING);
  };

  /**
   * Resolves with what `phase` resolves to, or with {@link MESSAGES_WAITING} as soon as a message
   * waits (take them, then call again with the same phase). A rejection of the phase rejects here
   * once the messages emitted before it were taken.
   */
  settle<R>(phase: Promise<R>): R | typeof MESSAGES_WAITING | Promise<R | typeof MESSAGES_WAITING> {
    if (this.queue.length > 0) {
      // The consumer may stop while taking these: a later failure of the phase is then nobody's.
      phase.catch(ignore);
      return MESSAGES_WAITING;
    }
    return new Promise<R | typeof MESSAGES_WAITING>((resolve, reject) => {
      this.wake = resolve;
      phase.then(resolve, reject);
    });
  }

  /** The waiting messages, in order; the queue is left empty. */
  take(): M[] {
    const taken = this.queue;
    this.queue = [];
    return taken;
  }
}

/**
 * Runs `phase`, yielding every message it emits while it runs, in order, and returns what it
 * resolves to (for phases off the hot path; the model call of each turn does the same inline).
 * If the phase rejects, the messages emitted before the rejection are still yielded first.
 */
export async function* drain<M, R>(
  live: LiveMessages<M>,
  phase: (emit: Emit<M>) => Promise<R>,
): AsyncGenerator<M, R> {
  const running = invoke(() => phase(live.emit));
  let settled = await live.settle(running);
  while (settled === MESSAGES_WAITING) {
    for (const message of live.take()) yield message;
    settled = await live.settle(running);
  }
  return settled;
}
