/**
 * The agent's in-memory history, mirrored to an optional store. It owns the store lifecycle: one
 * lazy `load()` (with crash repair of the tail), `append` after every message, `replace` on
 * rewrites. Store failures are reported as `store_error` messages, or thrown when the store was
 * created with `failOnError` — and a write conflict with another Agent is always thrown.
 *
 * A `replace` that failed (the crash repair, a compaction, `replaceHistory`) leaves the store's copy
 * different from memory in a way appends cannot fix, so the history is marked unsaved and the next
 * write is a `replace` of the whole history instead of an `append`.
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

  /** Loads the store once (later calls wait for the first). */
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
      this.fail("load", error); // throws with failOnError
      this.loaded = true;
      return;
    }
    this.loaded = true;
    const { messages, repaired } = repairHistoryTail(stored);
    this.messages = messages;
    if (repaired > 0) {
      this.unsaved = true; // until the repair is written, nothing may be appended after the crashed tail
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
    if (this.unsaved) return this.saveWholeHistory(); // memory holds `message` already
    try {
      await store.append(message);
    } catch (error) {
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
