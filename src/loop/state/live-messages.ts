/**
 * Live delivery of the messages a phase of the loop emits while the loop awaits it (stream events,
 * retry notices, hook errors): the loop yields them as they arrive, then takes the phase's result.
 * The query's `NoticeChannel` is built on it.
 * @module
 */
import { invoke } from "../../shared/maybe-async";

/** Receives messages a phase emits. */
export type Emit<M> = (message: M) => void;

/** What {@link LiveMessages.settle} gives when messages wait to be taken. */
export const MESSAGES_WAITING: unique symbol = Symbol("messages waiting");

/** A pending wait of the loop. */
interface Wait {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  map(settled: unknown): unknown;
}

function unchanged<V>(value: V): V {
  return value;
}

/** How the watched phase ended, once it has. */
type Settlement = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * The emitted messages of one query, and the way to wait for either the next of them or the end of
 * the phase that emits them. One per query, reused by every phase: waiting costs one promise, and
 * each phase is watched once however many messages it emits (a streamed response emits hundreds).
 */
export class LiveMessages<M> {
  private queue: M[] = [];
  /** The phase being watched, and how it ended (undefined while it runs). */
  private watched: Promise<unknown> | undefined;
  private settlement: Settlement | undefined;
  /** The loop's pending wait, if it is waiting: resolved with `map` of what woke it. */
  private wait: Wait | undefined;

  /** Queues a message and wakes the waiting loop. */
  readonly emit: Emit<M> = (message) => {
    this.queue.push(message);
    const wait = this.endWait();
    if (wait) wait.resolve(wait.map(MESSAGES_WAITING));
  };

  /**
   * Resolves with what `phase` resolves to, or with {@link MESSAGES_WAITING} as soon as a message
   * waits (take them, then call again with the same phase). A rejection of the phase rejects here
   * once the messages emitted before it were taken.
   */
  settle<R>(phase: Promise<R>): R | typeof MESSAGES_WAITING | Promise<R | typeof MESSAGES_WAITING> {
    return this.waitFor(
      phase,
      unchanged as (settled: R | typeof MESSAGES_WAITING) => R | typeof MESSAGES_WAITING,
    );
  }

  /**
   * {@link settle}, with what it would resolve with passed through `map` — called when the wait
   * ends, before the waiter runs (so `map` may take the message that woke it). One promise per wait.
   */
  waitFor<R, V>(phase: Promise<R>, map: (settled: R | typeof MESSAGES_WAITING) => V): V | Promise<V> {
    this.watch(phase);
    if (this.queue.length > 0) return map(MESSAGES_WAITING);
    const settlement = this.settlement;
    if (settlement) return settlement.ok ? map(settlement.value as R) : Promise.reject(settlement.error);
    return new Promise<V>((resolve, reject) => {
      this.wait = {
        resolve: resolve as (value: unknown) => void,
        reject,
        map: map as (settled: unknown) => unknown,
      };
    });
  }

  /** Whether messages wait to be taken. */
  get waiting(): boolean {
    return this.queue.length > 0;
  }

  /** The first waiting message, taken off the queue (undefined when none waits). */
  shift(): M | undefined {
    return this.queue.shift();
  }

  /** The waiting messages, in order; the queue is left empty. */
  take(): M[] {
    const taken = this.queue;
    this.queue = [];
    return taken;
  }

  /** Starts watching `phase`, unless it already is; its end wakes the loop's wait. */
  private watch(phase: Promise<unknown>): void {
    if (this.watched === phase) return;
    this.watched = phase;
    this.settlement = undefined;
    // Handlers are attached at once, so a phase abandoned by its consumer never fails unhandled.
    phase.then(
      (value) => this.settleWith(phase, { ok: true, value }),
      (error: unknown) => this.settleWith(phase, { ok: false, error }),
    );
  }

  private settleWith(phase: Promise<unknown>, settlement: Settlement): void {
    if (this.watched !== phase) return; // a phase nobody waits for any more
    this.settlement = settlement;
    const wait = this.endWait();
    if (!wait) return;
    if (settlement.ok) wait.resolve(wait.map(settlement.value));
    else wait.reject(settlement.error);
  }

  private endWait() {
    const wait = this.wait;
    this.wait = undefined;
    return wait;
  }
}

/**
 * The live delivery of one phase as an iterator `yield*` delegates to: one per channel, reused by
 * every phase, so a model call's delivery allocates no generator. Its `next()` may return a result
 * rather than a promise of one (`yield*` awaits either).
 */
export class LiveDelivery<M> {
  private phase: Promise<unknown> | undefined;

  constructor(private readonly live: LiveMessages<M>) {}

  /** Delivers the messages of `phase` from now on; `yield*` the result. */
  start<R>(phase: Promise<R>): AsyncIterable<M, R> {
    this.phase = phase;
    return this as unknown as AsyncIterable<M, R>;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** The next message, or the phase's end. */
  next(): IteratorResult<M, unknown> | Promise<IteratorResult<M, unknown>> {
    return this.live.waitFor(this.phase!, this.resultOf);
  }

  /** The consumer stopped the query (`return()`): nothing of the phase is waited for. */
  return(value?: unknown): IteratorResult<M, unknown> {
    return { done: true, value };
  }

  /** The consumer threw into the query (`throw()`): the loop receives the error. */
  throw(error?: unknown): Promise<never> {
    return Promise.reject(error);
  }

  /** A message waits: it is the next value; else the phase ended with `settled`. */
  private readonly resultOf = (settled: unknown): IteratorResult<M, unknown> =>
    settled === MESSAGES_WAITING
      ? { done: false, value: this.live.shift()! }
      : { done: true, value: settled };
}

/**
 * Runs `phase`, yielding every message it emits while it runs, in order, and returns what it
 * resolves to. If the phase rejects, the messages emitted before the rejection are still yielded
 * first; a synchronous throw of `phase` is a rejection too.
 */
export async function* drain<M, R>(
  live: LiveMessages<M>,
  phase: (emit: Emit<M>) => Promise<R>,
): AsyncGenerator<M, R> {
  return yield* new LiveDelivery(live).start(invoke(() => phase(live.emit)));
}
