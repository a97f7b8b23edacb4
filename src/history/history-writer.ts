/**
 * Keeps a `HistoryStore` in step with the conversation in memory (`ConversationMemory`): one lazy
 * load (with crash repair of the tail), an append after every message, a replace — of the tail
 * (`replaceTail`) when it can — on rewrites, and the writes kept in order. Store failures become
 * `store_error` notices, or are thrown when the store was created with `failOnError` — and a write
 * conflict with another Agent is always thrown.
 *
 * A failed load leaves the history not loaded, and nothing is written over the stored conversation
 * the agent never saw: the query goes on in memory and its messages are held back. The load is
 * retried before the next query (the store is never read during one); once it succeeds, the
 * messages held back follow the stored ones, and the whole is written with `replace`.
 *
 * A write that failed — an `append`, or a `replace` (the crash repair, a compaction,
 * `replaceHistory`) — leaves the store's copy different from memory in a way later appends cannot
 * fix (they would leave a hole: a `tool_result` stored without its `tool_use`), so the history is
 * marked unsaved and the next write is a `replace` of the whole history instead of an `append`.
 * A write refused as a conflict with another writer is not: its history is not ours to overwrite.
 *
 * The running query's cancellation bounds its store calls too. Once it is cancelled, a write — one
 * running then, or one made after — is waited for at most {@link STORE_GRACE_AFTER_CANCEL_MS} (a
 * healthy store answers well within it, so an aborted turn is still saved), then left to finish in
 * the background: the query ends; nothing waits for a hung store. Until it settles later writes are
 * not sent — memory is marked unsaved, and one `replace` of the whole history catches the store up
 * afterwards, so writes never overtake each other. `close()` waits for it.
 * @module
 */
import { ConcurrentQueryError, HistoryStoreError } from "../errors";
import type { SDKMessage } from "../messages/sdk-messages";
import type { ModelMessage } from "../messages/types";
import { raceWithSignal, settlesWithin } from "../shared/signals";
import type { ConversationMemory } from "./conversation-memory";
import { repairHistoryTail } from "./repair";
import type { HistoryStore } from "./store";

/** A store failure reported as a message (`store_error`). */
export type StoreNotice = Extract<SDKMessage, { subtype: "store_error" }>;
type StoreWrite = "append" | "replace";

/** How long a store write may still take once the query is cancelled, before it is left to the background. */
export const STORE_GRACE_AFTER_CANCEL_MS = 1_000;

/** The serial writer of one conversation's store. */
export class HistoryWriter {
  private isLoaded = false;
  /** The store's copy differs from memory beyond what appends fix: the next write is a replace. */
  private unsaved = false;
  private loading: Promise<void> | undefined;
  /** Failures that happened outside a query, reported at the start of the next one. */
  private pending: StoreNotice[] = [];
  /** The running query's signal: a store call still running when it aborts is abandoned. */
  private signal: AbortSignal | undefined;
  /** A write abandoned by a cancelled query (or the catch-up after it), still running. */
  private background: Promise<void> | undefined;

  constructor(
    private readonly store: HistoryStore,
    private readonly memory: ConversationMemory,
  ) {}

  /** Whether memory stands for the stored conversation (it was loaded, or replaced as a whole). */
  get loaded(): boolean {
    return this.isLoaded;
  }

  /**
   * Binds the running query's signal (or `undefined` when it ends): store calls still running when it
   * aborts are abandoned rather than waited for.
   */
  bindSignal(signal: AbortSignal | undefined): void {
    this.signal = signal;
  }

  /**
   * Loads the store once it succeeds (calls during a load wait for it; a failed load is retried).
   * When the bound signal aborts first, resolves with the history still not loaded; the load goes on
   * and the next call waits for it.
   */
  async ensureLoaded(): Promise<void> {
    if (this.isLoaded) return;
    this.loading ??= this.load().finally(() => {
      this.loading = undefined;
    });
    await this.unlessAborted(this.loading);
  }

  private async load(): Promise<void> {
    let stored: ModelMessage[];
    try {
      stored = await this.store.load();
    } catch (error) {
      if (this.isLoaded) return; // replaced meanwhile (replaceHistory after an abandoned load)
      this.fail("load", error); // throws with failOnError; either way the history stays not loaded
      return;
    }
    // A load abandoned by a cancelled query may end after a replace set the history: it is stale.
    if (this.isLoaded) return;
    const { messages, repaired } = repairHistoryTail(this.memory.clean(stored));
    // Messages held back while the store could not be read come after the stored ones.
    const meanwhile = this.memory.messages;
    this.memory.set(meanwhile.length > 0 ? [...messages, ...meanwhile] : messages);
    this.isLoaded = true;
    if (repaired > 0 || meanwhile.length > 0) {
      // Until this is written, nothing may be appended after the crashed tail or the unseen store.
      this.unsaved = true;
      await this.saveWholeHistory();
    }
  }

  /** Appends to the store the entry memory just recorded (it holds `message` already). */
  async append(message: ModelMessage): Promise<void> {
    // After a failed load, `message` is held back in memory: the next successful load writes it.
    if (!this.isLoaded) return;
    if (this.deferredBehindBackground()) return;
    if (this.unsaved) return this.saveWholeHistory();
    await this.bounded(this.appendNow(message), "append");
  }

  private async appendNow(message: ModelMessage): Promise<void> {
    try {
      await this.store.append(message);
    } catch (error) {
      if (!(error instanceof ConcurrentQueryError)) this.unsaved = true;
      this.fail("append", error);
    }
  }

  /**
   * Writes `messages` — the history memory is about to hold, whose first `kept` messages it holds
   * already — over the store's copy. Whether the store took it; a failure is thrown (`failOnError`)
   * or reported. `false` too when the write is deferred behind a background write, or abandoned to
   * the background. Then call {@link replaced}.
   */
  async replace(messages: ModelMessage[], kept: number): Promise<boolean> {
    if (this.deferredBehindBackground()) return false;
    return (await this.bounded(this.replaceNow(messages, kept), "replace")) ?? false;
  }

  /**
   * Memory took a whole history after {@link replace} (`written`: whether the store took it) or
   * {@link replaceOrThrow}: it stands for the stored conversation, which differs unless written.
   */
  replaced(written: boolean): void {
    this.isLoaded = true;
    this.unsaved = !written;
  }

  /**
   * Writes `messages` over the store's copy once background writes settled; any failure — a conflict
   * with another writer included — is thrown. Then call {@link replaced}.
   * @throws ConcurrentQueryError, HistoryStoreError
   */
  async replaceOrThrow(messages: ModelMessage[], kept: number): Promise<void> {
    while (this.background) await this.background;
    try {
      await this.writeTo(messages, kept);
    } catch (error) {
      if (error instanceof ConcurrentQueryError || error instanceof HistoryStoreError) throw error;
      throw new HistoryStoreError("replace", error);
    }
  }

  /**
   * Writes the whole live history over the store's copy; the history stays unsaved if that fails,
   * or if memory changed while it was written (a write deferred behind it meanwhile).
   */
  private async saveWholeHistory(): Promise<void> {
    const version = this.memory.version;
    const written = await this.replace([...this.memory.messages], 0);
    if (written && this.memory.version === version) this.unsaved = false;
  }

  private async replaceNow(messages: ModelMessage[], kept: number): Promise<boolean> {
    try {
      await this.writeTo(messages, kept);
      return true;
    } catch (error) {
      if (!(error instanceof ConcurrentQueryError)) this.unsaved = true;
      this.fail("replace", error);
      return false;
    }
  }

  /**
   * Writes `messages` over the store's copy. While the store holds exactly what memory holds (loaded,
   * nothing unsaved) and it can, only the part after the `kept` leading messages is written
   * (`replaceTail`): a write in proportion to the change, not to the conversation.
   */
  private async writeTo(messages: ModelMessage[], kept: number): Promise<void> {
    if (kept > 0 && this.isLoaded && !this.unsaved && this.store.replaceTail) {
      await this.store.replaceTail(kept, messages.slice(kept));
    } else await this.store.replace(messages);
  }

  /**
   * While a background write runs nothing else is sent (it would overtake it): memory is marked
   * unsaved, and the catch-up after the background write replaces the whole history.
   */
  private deferredBehindBackground(): boolean {
    if (!this.background) return false;
    this.unsaved = true;
    return true;
  }

  /**
   * Waits for a store write; once the bound signal has aborted, for at most
   * {@link STORE_GRACE_AFTER_CANCEL_MS} more. A write still running then goes on in the background
   * (its failure reported later) and this resolves with `undefined`.
   */
  private async bounded<R>(writing: Promise<R>, operation: StoreWrite): Promise<R | undefined> {
    const signal = this.signal;
    if (!signal) return writing;
    if (!signal.aborted) {
      try {
        return await raceWithSignal(writing, signal);
      } catch (error) {
        if (!signal.aborted) throw error; // the write itself failed (failOnError)
      }
    }
    if (await settlesWithin(writing, STORE_GRACE_AFTER_CANCEL_MS)) return writing;
    this.continueInBackground(writing, operation);
    return undefined;
  }

  /**
   * Resolves when the load settles (rethrowing its failure) or when the bound signal aborts first.
   * An abandoned load goes on like an abandoned write: its own repair or merge `replace` may be
   * running, so later writes wait for it and the catch-up after it writes the latest history.
   */
  private async unlessAborted(loading: Promise<void>): Promise<void> {
    const signal = this.signal;
    if (!signal) return loading;
    try {
      await raceWithSignal(loading, signal);
    } catch (error) {
      if (!signal.aborted) throw error;
      if (!this.background) this.continueInBackground(loading, "replace");
    }
  }

  /**
   * Tracks an abandoned write; once it settles, the store is caught up with memory — unless it was
   * refused as a conflict with another writer, whose history must not be overwritten: the next
   * write is then an append, and meets the conflict again.
   */
  private continueInBackground(writing: Promise<unknown>, operation: StoreWrite): void {
    this.unsaved = true;
    this.background = writing.then(
      () => this.catchUp(),
      (error) => {
        this.reportLater(operation, error);
        if (!isConflict(error)) return this.catchUp();
        this.unsaved = false;
        this.background = undefined;
      },
    );
  }

  /**
   * Replaces the whole stored history with memory — again while that succeeds and memory changed
   * meanwhile; after a failure the history stays unsaved, for the next write to retry.
   */
  private async catchUp(): Promise<void> {
    try {
      while (this.unsaved && this.isLoaded) {
        const version = this.memory.version;
        let written = false;
        try {
          written = await this.replaceNow([...this.memory.messages], 0);
        } catch (error) {
          this.reportLater("replace", error);
          if (isConflict(error)) this.unsaved = false;
        }
        if (!written) break;
        if (this.memory.version === version) this.unsaved = false;
      }
    } finally {
      this.background = undefined;
    }
  }

  /** A background write's failure: nobody can be thrown to any more, so it becomes a notice. */
  private reportLater(operation: StoreWrite, error: unknown): void {
    const wrapped = error instanceof HistoryStoreError ? error : new HistoryStoreError(operation, error);
    this.pending.push({
      type: "system",
      subtype: "store_error",
      operation: wrapped.operation,
      error: wrapped,
    });
  }

  /** Whether store notices wait to be taken. */
  hasNotices(): boolean {
    return this.pending.length > 0;
  }

  /** Store failures reported since the last call, as system messages. */
  takeNotices(): StoreNotice[] {
    if (this.pending.length === 0) return this.pending;
    const notices = this.pending;
    this.pending = [];
    return notices;
  }

  /** Waits for a background write (and its catch-up), then closes the store. */
  async close(): Promise<void> {
    while (this.background) await this.background;
    await this.store.close?.();
  }

  private fail(operation: "load" | "append" | "replace", error: unknown): void {
    if (error instanceof ConcurrentQueryError) throw error;
    const wrapped = error instanceof HistoryStoreError ? error : new HistoryStoreError(operation, error);
    if (this.store.failOnError) throw wrapped;
    this.pending.push({ type: "system", subtype: "store_error", operation, error: wrapped });
  }
}

/** Whether a store error is (or wraps) a conflict with another writer. */
function isConflict(error: unknown): boolean {
  return (
    error instanceof ConcurrentQueryError ||
    (error instanceof HistoryStoreError && error.cause instanceof ConcurrentQueryError)
  );
}
