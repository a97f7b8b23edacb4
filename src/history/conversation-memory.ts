/**
 * The conversation as the agent holds it in memory: the messages the loop reads and appends to, and
 * the redaction boundary of history — every message that enters it (recorded, replaced or loaded
 * from a store) has the agent's secrets replaced by `[redacted]` first. It knows nothing of stores:
 * `HistoryWriter` keeps a store in step with it, and `HistoryLog` puts the two together.
 * @module
 */
import { type Redacted, redactMessage } from "../messages/redact-message";
import type { MessageMeta, ModelMessage } from "../messages/types";

/** The in-memory history: its messages, redacted, and a count of its changes. */
export class ConversationMemory {
  private list: ModelMessage[] = [];
  private changes = 0;

  /** `secrets` are replaced by `[redacted]` in every message history takes in (see `redactMessage`). */
  constructor(private readonly secrets: readonly string[] = []) {}

  /** The live history. Read it; change it only through {@link record} and {@link set}. */
  get messages(): ModelMessage[] {
    return this.list;
  }

  /** Counts changes of the history, so a writer knows whether what it wrote is still the latest. */
  get version(): number {
    return this.changes;
  }

  /** `raw` as history would hold it: without the agent's secrets. */
  clean<M extends ModelMessage>(raw: M[]): Redacted<M>[] {
    const messages: ModelMessage[] = redactMessage(raw, this.secrets);
    return messages as Redacted<M>[];
  }

  /** Adds a message — redacted — and returns the entry as history holds it. */
  record<M extends ModelMessage>(raw: M, loopMeta?: MessageMeta): Redacted<M> {
    const entry = redactMessage(raw, this.secrets, raw.meta === loopMeta ? loopMeta : undefined);
    this.list.push(entry);
    this.changes++;
    return entry;
  }

  /** Puts `messages` in place of the whole history; they were redacted already ({@link clean}). */
  set(messages: ModelMessage[]): void {
    this.list = messages;
    this.changes++;
  }
}
