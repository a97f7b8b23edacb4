/**
 * What the database-backed stores (SQLite, PostgreSQL, Redis) have beyond {@link HistoryStore}:
 * many conversations per database, each named by a `conversationId`, which can be listed, deleted
 * and forked.
 * @module
 */

import type { HistoryRange, HistoryWindow } from "../history-window";
import type { RunClaim, RunClaimOptions } from "../run-claim";
import type { ClosableHistoryStore } from "./versioned-store";

/** One stored conversation, as {@link ConversationHistoryStore.listConversations} reports it. */
export interface ConversationInfo {
  /** The conversation's id. */
  conversationId: string;
  /** How many messages it holds. */
  messageCount: number;
  /** When it was last written. */
  updatedAt: Date;
}

/** A history store for one conversation of a database that holds many. */
export interface ConversationHistoryStore extends ClosableHistoryStore {
  /** The conversation this store reads and writes. */
  readonly conversationId: string;
  /**
   * A window of this conversation and its message count, read together in one statement or
   * script, by message position (see `HistoryStore.loadRange`).
   */
  loadRange(range: HistoryRange): Promise<HistoryWindow>;
  /** Every conversation in the database (under this store's tables or key prefix), most recently written first. */
  listConversations(): Promise<ConversationInfo[]>;
  /**
   * Deletes a conversation — this store's own when no id is given — and reports whether it
   * existed. Another writer of a deleted conversation gets a conflict on its next write.
   */
  deleteConversation(conversationId?: string): Promise<boolean>;
  /**
   * Copies this conversation's stored history under `newConversationId` (which must not exist yet)
   * and returns a store for the copy. The fork shares this store's connection, which stays open
   * until both are closed. Writes issued on this store before the call are included.
   */
  fork(newConversationId: string): Promise<ConversationHistoryStore>;
  /** Claims this conversation for one run across processes (see {@link HistoryStore.claimRun}). */
  claimRun(options?: RunClaimOptions): Promise<RunClaim | undefined>;
  /** Whether a run's claim holds this conversation now (see {@link HistoryStore.isRunClaimed}). */
  isRunClaimed(): Promise<boolean>;
}

/** A UTF-16 surrogate not paired with its partner (the `u` flag matches a pair as one code point). */
const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * Checks a conversation id: a non-empty string of well-formed Unicode. A lone surrogate is refused:
 * the drivers send ids as UTF-8, where every lone surrogate becomes U+FFFD, so two different ids
 * would name one conversation.
 */
export function assertConversationId(
  conversationId: unknown,
  factoryName: string,
): asserts conversationId is string {
  if (typeof conversationId !== "string" || conversationId === "") {
    throw new TypeError(`${factoryName} needs a non-empty string \`conversationId\`.`);
  }
  if (LONE_SURROGATE.test(conversationId)) {
    throw new TypeError(
      `${factoryName} needs a \`conversationId\` of well-formed Unicode, got ${JSON.stringify(conversationId)} (it holds a lone surrogate).`,
    );
  }
}

/** The detail of a conflict error: what the store found instead of the version it expected. */
export function describeVersionConflict(expectedVersion: number, storedVersion: number): string {
  if (storedVersion === 0) return "the conversation was deleted (or expired) since this store loaded it";
  if (expectedVersion === 0) return `it was created by another writer (now at version ${storedVersion})`;
  return `stored version ${storedVersion}, this store expected ${expectedVersion}`;
}
