/**
 * Live delivery of the messages a phase of the loop emits while the loop awaits it (stream events,
 * retry notices, hook errors): a push queue, followed phase by phase — {@link LiveMessages.follow},
 * then {@link LiveMessages.nextLive} until the phase ended, then its result — or through the
 * generator {@link LiveMessages.during} that does the same. The query's `OutgoingMessages` is built on it.
 * @module
 */

/** Receives messages a phase emits. */
export type Emit<M> = (message: M) => void;

/** What {@link LiveMessages.nextLive} gives once the followed phase ended and its messages were taken. */
export const PHASE_ENDED: unique symbol = Symbol("phase ended");

/** The next message of a followed phase, or {@link PHASE_ENDED}. */
export type LiveStep<M> = M | typeof PHASE_ENDED;

/** The messages of one query not yet taken, in the order they were pushed. */
export class LiveMessages<M> {
  private items: M[] = [];
  /** The first message not yet taken: taking one moves it, nothing is shifted. */
  private head = 0;
  /** Resolves the wait of {@link nextLive}, when it waits, with what came. */
  private wake: ((step: LiveStep<M>) => void) | undefined;
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
   * Follows `phase`: the messages pushed while it runs are taken with {@link nextLive}, then its
   * result with {@link phaseResult}. One phase at a time (the loop delivers its phases one after
   * another, and a consumer that leaves ends the query): its end is kept on the queue, by handlers
   * made once, so following a phase allocates no closure; a phase abandoned by its consumer never
   * fails unhandled (its handlers are attached at once).
   */
  follow(phase: Promise<unknown>): void {
    this.ended = false;
    phase.then(this.phaseResolved, this.phaseRejected);
  }

  /**
   * The next message pushed while the followed phase runs, in order — at once when one waits — or
   * {@link PHASE_ENDED} once the phase ended and every message pushed before its end was taken. At
   * most one promise per wait.
   */
  nextLive(): LiveStep<M> | Promise<LiveStep<M>> {
    if (this.waiting) return this.take();
    if (this.ended) return PHASE_ENDED;
    return new Promise<LiveStep<M>>((resolve) => {
      this.wake = resolve;
    });
  }

  /** What the followed phase resolved to, once {@link nextLive} gave {@link PHASE_ENDED}; its rejection is thrown. */
  phaseResult<R>(): R {
    const result = this.result;
    this.result = undefined;
    if (this.failed) throw result;
    return result as R;
  }

  /**
   * Yields every message pushed while `phase` runs, in order, then returns what it resolves to. A
   * rejection is thrown once the messages pushed before it were yielded. {@link follow} as a
   * generator, for `yield*` (the loop follows its model call itself: one generator less a turn).
   */
  async *during<R>(phase: Promise<R>): AsyncGenerator<M, R> {
    this.follow(phase);
    for (let step = await this.nextLive(); step !== PHASE_ENDED; step = await this.nextLive()) yield step;
    return this.phaseResult<R>();
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
    wake(this.waiting ? this.take() : PHASE_ENDED);
  }
}
