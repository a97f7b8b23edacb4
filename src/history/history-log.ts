/**
 * The agent's in-memory history, mirrored to an optional store. It owns the store lifecycle: one
 * lazy `load()` (with crash repair of the tail), `append` after every message, `replace` on
 * rewrites. Store failures are reported as `store_error` messages, or thrown when the store was
 * created with `failOnError` — and a write conflict with another Agent is always thrown.
 *
 * A failed load leaves the history not loaded, and nothing is written over the stored conversation
 * the agent never saw: the query goes on in memory and its messages are held back. The load is
 * retried before the next query (the store is never read during one); once it succeeds, the
 * messages held back follow the stored ones, and the whole is written with `replace`.
 *
 * A failed write (an `append`, or a `replace`: crash repair, compaction, `replaceHistory`) leaves
 * the store's copy different from memory in a way later appends cannot fix (a `tool_result` stored
 * without its `tool_use`), so the history is marked unsaved and the next write is a `replace` of
 * the whole history — not after a conflict with another writer: that history is not ours to overwrite.
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
import { type Redacted, redactMessage } from "../messages/redact-message";
import type { SDKMessage } from "../messages/sdk-messages";
import type { MessageMeta, ModelMessage } from "../messages/types";
import { raceWithSignal, settlesWithin } from "../shared/signals";
import { repairHistoryTail } from "./repair";
import { sharedPrefixLength } from "./shared-prefix";
import type { HistoryStore } from "./store";

type Notice = Extract<SDKMessage, { subtype: "store_error" }>;
type StoreWrite = "append" | "replace";

/** How long a store write may still take once the query is cancelled, before it is left to the background. */
export const STORE_GRACE_AFTER_CANCEL_MS = 1_000;

/** History plus its store. */
export class HistoryLog {
  /** The live history. Read it; change it only through this class. */
  messages: ModelMessage[] = [];
  private loaded = false;
  /** The store's copy differs from memory beyond what appends fix: the next write is a replace. */
  private unsaved = false;
  private loading: Promise<void> | undefined;
  /** Failures that happened outside a query, reported at the start of the next one. */
  private pending: Notice[] = [];
  /** The running query's signal: a store call still running when it aborts is abandoned. */
  private signal: AbortSignal | undefined;
  /** A write abandoned by a cancelled query (or the catch-up after it), still running. */
  private background: Promise<void> | undefined;
  /** Counts changes of the in-memory history, so a catch-up knows whether it wrote the latest. */
  private version = 0;

  /**
   * `secrets` are replaced by `[redacted]` in everything history records — appended, replaced or
   * loaded: what is stored and sent to the model never holds them (see `redactMessage`).
   */
  constructor(
    private readonly store: HistoryStore | undefined,
    private readonly secrets: readonly string[] = [],
  ) {}

  /** Whether history is kept in a store (what a crash would leave behind), not in memory only. */
  get durable(): boolean {
    return this.store !== undefined;
  }

  /** The redaction boundary of history: every message it takes in passes here. */
  private clean(messages: ModelMessage[]): ModelMessage[] {
    return redactMessage(messages, this.secrets);
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
    if (this.loaded) return;
    this.loading ??= this.load().finally(() => {
      this.loading = undefined;
    });
    await this.unlessAborted(this.loading);
  }

  private async load(): Promise<void> {
    if (!this.store) {
      this.loaded = true;
      return;
    }
    let stored: ModelMessage[];
    try {
      stored = await this.store.load();
    } catch (error) {
      if (this.loaded) return; // replaced meanwhile (replaceHistory after an abandoned load)
      this.fail("load", error); // throws with failOnError; either way the history stays not loaded
      return;
    }
    // A load abandoned by a cancelled query may end after `replace()` set the history: it is stale.
    if (this.loaded) return;
    const { messages, repaired } = repairHistoryTail(this.clean(stored));
    // Messages held back while the store could not be read come after the stored ones.
    const meanwhile = this.messages;
    this.messages = meanwhile.length > 0 ? [...messages, ...meanwhile] : messages;
    this.version++;
    this.loaded = true;
    if (repaired > 0 || meanwhile.length > 0) {
      // Until this is written, nothing may be appended after the crashed tail or the unseen store.
      this.unsaved = true;
      await this.saveWholeHistory();
    }
  }

  /** Adds a message to history and appends it to the store. */
  append(raw: ModelMessage): Promise<void> | undefined {
    return this.save(this.record(raw));
  }

  /**
   * Adds a message to history — redacted — and returns the entry as history holds it, which a step
   * hands over as it is (not walked again). `loopMeta`: `raw.meta` when the loop built it from its
   * own clock and arithmetic alone (see `redactMessage`), so it is not walked. {@link save} it next.
   */
  record<M extends ModelMessage>(raw: M, loopMeta?: MessageMeta): Redacted<M> {
    const entry = redactMessage(raw, this.secrets, raw.meta === loopMeta ? loopMeta : undefined);
    this.messages.push(entry);
    this.version++;
    return entry;
  }

  /** Appends to the store the entry {@link record} just added (see {@link append}). */
  save(entry: ModelMessage): Promise<void> | undefined {
    // Without a store there is nothing to wait for: no promise, no tick on the hot path.
    return this.store ? this.appendToStore(this.store, entry) : undefined;
  }

  private async appendToStore(store: HistoryStore, message: ModelMessage): Promise<void> {
    // After a failed load, `message` is held back in memory: the next successful load writes it.
    if (!this.loaded) return;
    if (this.deferredBehindBackground()) return;
    if (this.unsaved) return this.saveWholeHistory(); // memory holds `message` already
    await this.bounded(this.appendNow(store, message), "append");
  }

  private async appendNow(store: HistoryStore, message: ModelMessage): Promise<void> {
    try {
      await store.append(message);
    } catch (error) {
      if (!(error instanceof ConcurrentQueryError)) this.unsaved = true;
      this.fail("append", error);
    }
  }

  /**
   * Replaces the whole history (compaction, `replaceHistory`) and the store's copy. The store is
   * written first: when its failure is thrown (`failOnError`), memory keeps the history it holds.
   */
  async replace(raw: ModelMessage[]): Promise<void> {
    const kept = sharedPrefixLength(this.messages, raw);
    const messages = this.clean(raw);
    const written = await this.writeReplace(messages, kept);
    this.messages = messages;
    this.version++;
    this.loaded = true;
    this.unsaved = !written;
  }

  /**
   * Replaces the messages from index `from` on with `raw` (redacted), returned as recorded: the store
   * writes that tail (`replaceTail`) when it can, else the whole history; a thrown failure leaves
   * memory as it was. While the store could not be loaded, only memory changes (held back).
   */
  async replaceFrom<M extends ModelMessage>(from: number, raw: M[]): Promise<Redacted<M>[]> {
    const entries = this.clean(raw) as Redacted<M>[];
    const messages = [...this.messages.slice(0, from), ...entries];
    const written = this.loaded ? await this.writeReplace(messages, from) : true;
    this.messages = messages;
    this.version++;
    if (this.loaded) this.unsaved = !written;
    return entries;
  }

  /**
   * Replaces the whole history only once the store has taken it: any failure — a conflict with
   * another writer included — is thrown, and memory keeps what it held. Resolving a pause for
   * approval claims it this way, so two processes resolving it cannot both run its calls.
   * @throws ConversationConflictError, HistoryStoreError
   */
  async replaceOrThrow(messages: ModelMessage[]): Promise<void> {
    if (this.store) {
      while (this.background) await this.background;
      try {
        await this.writeTo(this.store, messages, sharedPrefixLength(this.messages, messages));
      } catch (error) {
        if (error instanceof ConcurrentQueryError || error instanceof HistoryStoreError) throw error;
        throw new HistoryStoreError("replace", error);
      }
    }
    this.messages = messages;
    this.version++;
    this.loaded = true;
    this.unsaved = false;
  }

  /**
   * Rewrites the history the agent holds (compaction). Unlike {@link replace} it does not stand for
   * the stored conversation: while that could not be loaded, the rewritten messages are held back
   * like appended ones — nothing is written over the conversation the agent never saw, and the next
   * successful load puts them after it.
   */
  async rewrite(raw: ModelMessage[]): Promise<void> {
    if (this.loaded) return this.replace(raw);
    this.messages = this.clean(raw);
    this.version++;
  }

  /**
   * Writes the whole live history over the store's copy; the history stays unsaved if that fails,
   * or if memory changed while it was written (a write deferred behind it meanwhile).
   */
  private async saveWholeHistory(): Promise<void> {
    const version = this.version;
    if ((await this.writeReplace([...this.messages])) && this.version === version) this.unsaved = false;
  }

  /**
   * Whether the store took `messages`; a failure is thrown (`failOnError`) or reported. `false` too
   * when the write is deferred behind a background write, or abandoned to the background.
   */
  private async writeReplace(messages: ModelMessage[], kept = 0): Promise<boolean> {
    if (!this.store) return true;
    if (this.deferredBehindBackground()) return false;
    return (await this.bounded(this.replaceNow(this.store, messages, kept), "replace")) ?? false;
  }

  private async replaceNow(store: HistoryStore, messages: ModelMessage[], kept: number): Promise<boolean> {
    try {
      await this.writeTo(store, messages, kept);
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
  private async writeTo(store: HistoryStore, messages: ModelMessage[], kept: number): Promise<void> {
    if (kept > 0 && this.loaded && !this.unsaved && store.replaceTail) {
      await store.replaceTail(kept, messages.slice(kept));
    } else await store.replace(messages);
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
      while (this.unsaved && this.loaded && this.store) {
        const version = this.version;
        let written = false;
        try {
          written = await this.replaceNow(this.store, [...this.messages], 0);
        } catch (error) {
          this.reportLater("replace", error);
          if (isConflict(error)) this.unsaved = false;
        }
        if (!written) break;
        if (this.version === version) this.unsaved = false;
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
  takeNotices(): Notice[] {
    if (this.pending.length === 0) return this.pending;
    const notices = this.pending;
    this.pending = [];
    return notices;
  }

  /** Waits for a background write (and its catch-up), then closes the store. */
  async close(): Promise<void> {
    while (this.background) await this.background;
    await this.store?.close?.();
  }

  private fail(operation: "load" | "append" | "replace", error: unknown): void {
    if (error instanceof ConcurrentQueryError) throw error;
    const wrapped = error instanceof HistoryStoreError ? error : new HistoryStoreError(operation, error);
    if (this.store?.failOnError) throw wrapped;
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
