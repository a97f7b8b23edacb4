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
 * A write that failed — an `append`, or a `replace` (the crash repair, a compaction,
 * `replaceHistory`) — leaves the store's copy different from memory in a way later appends cannot
 * fix (they would leave a hole: a `tool_result` stored without its `tool_use`), so the history is
 * marked unsaved and the next write is a `replace` of the whole history instead of an `append`.
 * A write refused as a conflict with another writer is not: its history is not ours to overwrite.
 * @module
 */
import { ConcurrentQueryError, HistoryStoreError } from "../errors";
import type { SDKMessage } from "../messages/sdk-messages";
import type { ModelMessage } from "../messages/types";
import { repairHistoryTail } from "./repair";
import type { HistoryStore } from "./store";

type Notice = Extract<SDKMessage, { subtype: "store_error" }>;

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

  constructor(private readonly store: HistoryStore | undefined) {}

  /** Loads the store once it succeeds (calls during a load wait for it; a failed load is retried). */
  ensureLoaded(): Promise<void> {
    if (this.loaded) return Promise.resolve();
    this.loading ??= this.load().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
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
      this.fail("load", error); // throws with failOnError; either way the history stays not loaded
      return;
    }
    const { messages, repaired } = repairHistoryTail(stored);
    // Messages held back while the store could not be read come after the stored ones.
    const meanwhile = this.messages;
    this.messages = meanwhile.length > 0 ? [...messages, ...meanwhile] : messages;
    this.loaded = true;
    if (repaired > 0 || meanwhile.length > 0) {
      // Until this is written, nothing may be appended after the crashed tail or the unseen store.
      this.unsaved = true;
      await this.saveWholeHistory();
    }
  }

  /** Adds a message to history and appends it to the store. */
  append(message: ModelMessage): Promise<void> | undefined {
    this.messages.push(message);
    // Without a store there is nothing to wait for: no promise, no tick on the hot path.
    return this.store ? this.appendToStore(this.store, message) : undefined;
  }

  private async appendToStore(store: HistoryStore, message: ModelMessage): Promise<void> {
    // After a failed load, `message` is held back in memory: the next successful load writes it.
    if (!this.loaded) return;
    if (this.unsaved) return this.saveWholeHistory(); // memory holds `message` already
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
  async replace(messages: ModelMessage[]): Promise<void> {
    const written = await this.writeReplace(messages);
    this.messages = messages;
    this.loaded = true;
    this.unsaved = !written;
  }

  /** Writes the whole live history over the store's copy; the history stays unsaved if that fails. */
  private async saveWholeHistory(): Promise<void> {
    if (await this.writeReplace([...this.messages])) this.unsaved = false;
  }

  /** Whether the store took `messages`; a failure is thrown (`failOnError`) or reported. */
  private async writeReplace(messages: ModelMessage[]): Promise<boolean> {
    if (!this.store) return true;
    try {
      await this.store.replace(messages);
      return true;
    } catch (error) {
      if (!(error instanceof ConcurrentQueryError)) this.unsaved = true;
      this.fail("replace", error);
      return false;
    }
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

  async close(): Promise<void> {
    await this.store?.close?.();
  }

  private fail(operation: "load" | "append" | "replace", error: unknown): void {
    if (error instanceof ConcurrentQueryError) throw error;
    const wrapped = error instanceof HistoryStoreError ? error : new HistoryStoreError(operation, error);
    if (this.store?.failOnError) throw wrapped;
    this.pending.push({ type: "system", subtype: "store_error", operation, error: wrapped });
  }
}
