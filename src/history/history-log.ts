/**
 * History as the loop uses it: the conversation in memory (`ConversationMemory`, the redaction
 * boundary) and, when the agent has a store, the writer that keeps the store in step with it
 * (`HistoryWriter`: the load, the ordered writes, the notices). Each verb here redacts through
 * memory, writes through the writer, and changes memory — for a rewrite, only once the store was
 * written, so a thrown store failure (`failOnError`) leaves memory as it was.
 * @module
 */
import type { Redacted } from "../messages/redact-message";
import type { MessageMeta, ModelMessage } from "../messages/types";
import { ConversationMemory } from "./conversation-memory";
import { HistoryWriter, type StoreNotice } from "./history-writer";
import { sharedPrefixLength } from "./shared-prefix";
import type { HistoryStore } from "./store";

/** What {@link HistoryLog.save} returns when there is no store: one promise, settled already. */
const NOTHING_TO_WRITE: Promise<void> = Promise.resolve();
const NO_NOTICES: StoreNotice[] = [];

/** History plus its store. */
export class HistoryLog {
  private readonly memory: ConversationMemory;
  /** Absent when history is kept in memory only. */
  private readonly writer: HistoryWriter | undefined;

  /**
   * `secrets` are replaced by `[redacted]` in everything history records — appended, replaced or
   * loaded: what is stored and sent to the model never holds them (see `redactMessage`).
   */
  constructor(store: HistoryStore | undefined, secrets: readonly string[] = []) {
    this.memory = new ConversationMemory(secrets);
    this.writer = store ? new HistoryWriter(store, this.memory) : undefined;
  }

  /** The live history. Read it; change it only through this class. */
  get messages(): ModelMessage[] {
    return this.memory.messages;
  }

  /** Whether history is kept in a store (what a crash would leave behind), not in memory only. */
  get durable(): boolean {
    return this.writer !== undefined;
  }

  /** Whether memory stands for the stored conversation (always, without a store). */
  private get loaded(): boolean {
    return this.writer?.loaded ?? true;
  }

  /**
   * Binds the running query's signal (or `undefined` when it ends): store calls still running when it
   * aborts are abandoned rather than waited for.
   */
  bindSignal(signal: AbortSignal | undefined): void {
    this.writer?.bindSignal(signal);
  }

  /**
   * Loads the store once it succeeds (calls during a load wait for it; a failed load is retried).
   * When the bound signal aborts first, resolves with the history still not loaded.
   */
  async ensureLoaded(): Promise<void> {
    await this.writer?.ensureLoaded();
  }

  /** Adds a message to history and appends it to the store. */
  append(raw: ModelMessage): Promise<void> {
    return this.save(this.record(raw));
  }

  /**
   * Adds a message to history — redacted — and returns the entry as history holds it, which a step
   * hands over as it is (not walked again). `loopMeta`: `raw.meta` when the loop built it from its
   * own clock and arithmetic alone (see `redactMessage`), so it is not walked. {@link save} it next.
   */
  record<M extends ModelMessage>(raw: M, loopMeta?: MessageMeta): Redacted<M> {
    return this.memory.record(raw, loopMeta);
  }

  /**
   * Appends to the store the entry {@link record} just added (see {@link append}). Without a store,
   * the one promise settled already: nothing to write, nothing allocated.
   */
  save(entry: ModelMessage): Promise<void> {
    return this.writer ? this.writer.append(entry) : NOTHING_TO_WRITE;
  }

  /**
   * Replaces the whole history (compaction, `replaceHistory`) and the store's copy. The store is
   * written first: when its failure is thrown (`failOnError`), memory keeps the history it holds.
   */
  async replace(raw: ModelMessage[]): Promise<void> {
    const kept = sharedPrefixLength(this.memory.messages, raw);
    const messages = this.memory.clean(raw);
    const written = this.writer ? await this.writer.replace(messages, kept) : true;
    this.memory.set(messages);
    this.writer?.replaced(written);
  }

  /**
   * Replaces the messages from index `from` on with `raw` (redacted), returned as recorded: the store
   * writes that tail (`replaceTail`) when it can, else the whole history; a thrown failure leaves
   * memory as it was. While the store could not be loaded, only memory changes (held back).
   */
  async replaceFrom<M extends ModelMessage>(from: number, raw: M[]): Promise<Redacted<M>[]> {
    const entries = this.memory.clean(raw);
    const messages = [...this.memory.messages.slice(0, from), ...entries];
    if (this.writer?.loaded) {
      const written = await this.writer.replace(messages, from);
      this.memory.set(messages);
      this.writer.replaced(written);
    } else this.memory.set(messages);
    return entries;
  }

  /**
   * Replaces the whole history only once the store has taken it: any failure — a conflict with
   * another writer included — is thrown, and memory keeps what it held. Resolving a pause for
   * approval claims it this way, so two processes resolving it cannot both run its calls.
   * @throws ConversationConflictError, HistoryStoreError
   */
  async replaceOrThrow(messages: ModelMessage[]): Promise<void> {
    await this.writer?.replaceOrThrow(messages, sharedPrefixLength(this.memory.messages, messages));
    this.memory.set(messages);
    this.writer?.replaced(true);
  }

  /**
   * Rewrites the history the agent holds (compaction). Unlike {@link replace} it does not stand for
   * the stored conversation: while that could not be loaded, the rewritten messages are held back
   * like appended ones — nothing is written over the conversation the agent never saw, and the next
   * successful load puts them after it.
   */
  async rewrite(raw: ModelMessage[]): Promise<void> {
    if (this.loaded) return this.replace(raw);
    this.memory.set(this.memory.clean(raw));
  }

  /** Whether store notices wait to be taken. */
  hasNotices(): boolean {
    return this.writer?.hasNotices() === true;
  }

  /** Store failures reported since the last call, as system messages. */
  takeNotices(): StoreNotice[] {
    return this.writer ? this.writer.takeNotices() : NO_NOTICES;
  }

  /** Waits for a background write (and its catch-up), then closes the store. */
  async close(): Promise<void> {
    await this.writer?.close();
  }
}
