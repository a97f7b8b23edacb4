/**
 * Live delivery of the messages a phase of the loop emits while the loop awaits it (stream events,
 * retry notices, hook errors): a push queue, and a plain async generator that yields what is pushed
 * while the phase runs, then returns the phase's result. The query's `OutgoingMessages` is built on it.
 * @module
 */

/** Receives messages a phase emits. */
export type Emit<M> = (message: M) => void;

/** The messages of one query not yet taken, in the order they were pushed. */
export class LiveMessages<M> {
  private items: M[] = [];
  /** The first message not yet taken: taking one moves it, nothing is shifted. */
  private head = 0;
  /** Resolves the wait of {@link during}, when it waits. */
  private wake: (() => void) | undefined;
  /** Whether the phase being delivered ended, and how. */
  private ended = false;
  private failed = false;
  private result: unknown;

  /** Queues a message and wakes the waiting phase delivery. */
  readonly emit: Emit<M> = (message) => {
    this.items.push(message);
    this.wakeUp();
  };

  /** Whether messages wait to be taken. */
  get waiting(): boolean {
    return this.head < this.items.length;
  }

  /** The oldest waiting message, taken off the queue (call it while {@link waiting}). */
  take(): M {
    const { items } = this;
    const message = items[this.head++]!;
    if (this.head === items.length) {
      // Usually the one message a step handed over: `pop` empties it without the runtime call
      // (and heap trim) that setting `length` costs.
      if (items.length === 1) items.pop();
      else items.length = 0;
      this.head = 0;
    }
    return message;
  }

  /**
   * Yields every message pushed while `phase` runs, in order, then returns what it resolves to. A
   * rejection is thrown once the messages pushed before it were yielded. One phase at a time (the
   * loop delivers its phases one after another, and a consumer that leaves ends the query): its
   * end is kept on the queue, by handlers made once, so a phase allocates no closure. At most one
   * promise per wait; a phase abandoned by its consumer never fails unhandled (its handlers are
   * attached at once).
   */
  async *during<R>(phase: Promise<R>): AsyncGenerator<M, R> {
    this.ended = false;
    phase.then(this.phaseResolved, this.phaseRejected);
    for (;;) {
      while (this.waiting) yield this.take();
      if (this.ended) {
        const result = this.result;
        this.result = undefined;
        if (this.failed) throw result;
        return result as R;
      }
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }

  private readonly phaseResolved = (value: unknown): void => {
    this.phaseEnded(false, value);
  };

  private readonly phaseRejected = (error: unknown): void => {
    this.phaseEnded(true, error);
  };

  private phaseEnded(failed: boolean, result: unknown): void {
    this.ended = true;
    this.failed = failed;
    this.result = result;
    this.wakeUp();
  }

  private wakeUp(): void {
    const wake = this.wake;
    if (!wake) return;
    this.wake = undefined;
    wake();
  }
}
