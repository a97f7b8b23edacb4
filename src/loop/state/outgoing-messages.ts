/**
 * The one channel by which a query's messages reach its consumer, besides the steps' own results:
 * notices (store errors, hook errors, retries, fallbacks, compaction, pricing) and the messages a
 * step hands over (the assistant message, the tool results). Steps put messages in; the loop takes
 * them out — live while a model call or compaction runs, and at each hand-over between two steps.
 *
 * It is the redaction boundary of what a query yields: every message it delivers — and the `init`
 * and result messages, through {@link OutgoingMessages.clean} — has the agent's secrets replaced by
 * `[redacted]`, whatever produced it (a hook, a permission callback, a tool, a store, a provider).
 * A history entry handed over ({@link OutgoingMessages.handOver}) passed history's redaction already:
 * it is delivered as history holds it, not walked a second time.
 * @module
 */
import { type Redacted, redactMessage } from "../../messages/redact-message";
import type { AssistantModelMessage, UserModelMessage } from "../../messages/types";
import { type Emit, LiveMessages, type LiveStep } from "./live-messages";

/** Where the history store leaves the failures it reports (see `HistoryLog`). */
export interface StoreNotices<M> {
  hasNotices(): boolean;
  takeNotices(): M[];
}

/** A history entry as its SDK message: made of nothing but the entry (redacted) and its kind. */
export type RecordedHandOver =
  | { type: "assistant"; message: Redacted<AssistantModelMessage> }
  | { type: "user"; message: Redacted<UserModelMessage> };

/** The messages of one query on their way to the consumer, in the order they were put in. */
export class OutgoingMessages<M> {
  private readonly live = new LiveMessages<M>();
  /**
   * Puts a notice in (redacted). Reaches the consumer live while a phase is followed, else at the next
   * hand-over.
   */
  readonly emit: Emit<M>;

  constructor(
    private readonly store: StoreNotices<M>,
    private readonly secrets: readonly string[] = [],
  ) {
    const deliver = this.live.emit;
    this.emit = (message) => deliver(redactMessage(message, secrets));
  }

  /** `message` as the consumer may see it: without the agent's secrets. */
  clean<X>(message: X): X {
    return redactMessage(message, this.secrets);
  }

  /**
   * Puts in a message that follows everything so far, the store's failures included: the message a
   * step recorded in history (its write's failure is reported before it).
   */
  post(message: M): void {
    this.putStoreNotices();
    this.emit(message);
  }

  /**
   * {@link post} for the message a step recorded in history, wrapped as its `assistant` or `user`
   * message: the entry is redacted already (history's boundary), so the consumer gets the very
   * object history holds and the message is walked once, not twice.
   */
  handOver(message: RecordedHandOver): void {
    this.putStoreNotices();
    this.live.emit(message as M);
  }

  private putStoreNotices(): void {
    if (this.store.hasNotices()) for (const notice of this.store.takeNotices()) this.emit(notice);
  }

  /** Whether anything waits for the consumer. */
  get waiting(): boolean {
    return this.live.waiting || this.store.hasNotices();
  }

  /**
   * The next message that waits (call it while {@link waiting}): what was put in, in order, then
   * the store's failures. Taken one by one, so a hand-over allocates nothing.
   */
  next(): M {
    if (!this.live.waiting) this.putStoreNotices();
    return this.live.take();
  }

  /**
   * Follows `phase`: what is put in while it runs is taken with {@link nextLive} as it comes, then
   * {@link phaseResult} returns what `phase` resolved to (or throws its rejection, once the messages
   * put in before it were taken). How the loop yields its model call's messages without a
   * generator of its own; {@link during} is the same for `yield*`.
   */
  follow(phase: Promise<unknown>): void {
    this.live.follow(phase);
  }

  /** The next message put in while the followed phase runs, or `PHASE_ENDED` once it ended. */
  nextLive(): LiveStep<M> | Promise<LiveStep<M>> {
    return this.live.nextLive();
  }

  /** What the followed phase resolved to, once {@link nextLive} gave `PHASE_ENDED`; its rejection is thrown. */
  phaseResult<R>(): R {
    return this.live.phaseResult<R>();
  }

  /**
   * Yields what is put in while `phase` runs, as it comes, then returns what `phase` resolves to
   * (or throws its rejection, once the messages put in before it were yielded). For `yield*`.
   */
  during<R>(phase: Promise<R>): AsyncGenerator<M, R> {
    return this.live.during(phase);
  }
}
