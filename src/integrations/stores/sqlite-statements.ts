/**
 * The tables of the SQLite store and every statement it runs on them: created when missing,
 * prepared once per store, and grouped into the transactions the store needs (a write is one
 * `BEGIN IMMEDIATE` transaction that claims the next version first).
 * @module
 */
import type Database from "better-sqlite3";
import { ConversationConflictError, InvalidOptionError } from "../../errors";
import { describeVersionConflict } from "../../history/store-kit/conversation-history-store";
import { tailPastTheEnd } from "../../history/store-kit/versioned-store";
import { quoteIdentifier } from "./sql-identifier";

/** The quoted names of the two tables. */
export interface TableNames {
  messages: string;
  conversations: string;
}

/** The message table `tableName` and its `<tableName>_conversations`. */
export function tableNamesFor(tableName: string): TableNames {
  return {
    messages: quoteIdentifier(tableName, "tableName"),
    conversations: quoteIdentifier(`${tableName}_conversations`, "tableName"),
  };
}

/** The version this store expects, and the message count that goes with it. */
export interface ConversationState {
  version: number;
  messageCount: number;
}

/** What the store runs: each call one transaction (reads deferred, writes `BEGIN IMMEDIATE`). */
export interface Statements {
  /** The conversation's state and its stored message lines, read together. */
  load(id: string): { state: ConversationState; rows: string[] };
  /** The message count and the lines of ordinals `start` to `start + limit` (exclusive), read together. */
  loadRange(
    id: string,
    range: { from?: number; limit: number },
  ): { total: number; start: number; rows: string[] };
  /**
   * Appends `lines` after the stored messages, or replaces the stored messages from ordinal `from`
   * on (0: all of them) with `lines`, once the version is claimed from `expected` (else the stored
   * one); returns the new state. Throws a ConversationConflictError, having written nothing, when
   * the version moved, and a RangeError when `from` is past the stored messages.
   */
  write(
    id: string,
    expected: ConversationState | undefined,
    lines: readonly string[],
    mode: "append" | "replace",
    from?: number,
  ): ConversationState;
  /** Deletes the conversation; whether it existed. */
  deleteConversation(id: string): boolean;
  /** Copies conversation `sourceId` to the new `newId`; refuses a `newId` that exists. */
  fork(sourceId: string, newId: string): void;
  /** Every conversation, the most recently updated first. */
  listConversations(): ConversationRow[];
}

/** A row of the conversations table. */
export type ConversationRow = { id: string; version: number; message_count: number; updated_at: string };

/** Creates the tables when they are missing. */
function createTables(database: Database.Database, { messages, conversations }: TableNames): void {
  database.exec(`
    CREATE TABLE IF NOT EXISTS ${conversations} (
      id TEXT PRIMARY KEY,
      version INTEGER NOT NULL,
      message_count INTEGER NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS ${messages} (
      conversation_id TEXT NOT NULL,
      ordinal INTEGER NOT NULL,
      message TEXT NOT NULL,
      PRIMARY KEY (conversation_id, ordinal)
    ) WITHOUT ROWID;`);
}

/** Every single statement the store runs, prepared. */
function prepareSingleStatements(database: Database.Database, { messages, conversations }: TableNames) {
  return {
    selectState: database.prepare<[string], ConversationRow>(`SELECT * FROM ${conversations} WHERE id = ?`),
    selectMessages: database
      .prepare<[string], string>(`SELECT message FROM ${messages} WHERE conversation_id = ? ORDER BY ordinal`)
      .pluck(),
    selectWindow: database
      .prepare<[string, number, number], string>(
        `SELECT message FROM ${messages} WHERE conversation_id = ? AND ordinal >= ? AND ordinal < ? ORDER BY ordinal`,
      )
      .pluck(),
    createConversation: database.prepare<[string, number, string, string]>(
      `INSERT INTO ${conversations} (id, version, message_count, created_at, updated_at) VALUES (?, 1, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
    ),
    bumpVersion: database.prepare<[number, string, string, number]>(
      `UPDATE ${conversations} SET version = version + 1, message_count = ?, updated_at = ? WHERE id = ? AND version = ?`,
    ),
    insertMessage: database.prepare<[string, number, string]>(
      `INSERT INTO ${messages} (conversation_id, ordinal, message) VALUES (?, ?, ?)`,
    ),
    deleteMessagesFrom: database.prepare<[string, number]>(
      `DELETE FROM ${messages} WHERE conversation_id = ? AND ordinal >= ?`,
    ),
    deleteConversationRow: database.prepare<[string]>(`DELETE FROM ${conversations} WHERE id = ?`),
    copyConversation: database.prepare<[string, string, string, string]>(
      `INSERT INTO ${conversations} (id, version, message_count, created_at, updated_at)
       SELECT ?, 1, message_count, ?, ? FROM ${conversations} WHERE id = ?`,
    ),
    copyMessages: database.prepare<[string, string]>(
      `INSERT INTO ${messages} (conversation_id, ordinal, message) SELECT ?, ordinal, message FROM ${messages} WHERE conversation_id = ?`,
    ),
    listConversations: database.prepare<[], ConversationRow>(
      `SELECT * FROM ${conversations} ORDER BY updated_at DESC, id`,
    ),
  };
}

/** A window of a conversation and its message count, read in one (deferred) transaction. */
function windowTransaction(
  database: Database.Database,
  stateOf: (id: string) => ConversationState,
  selectWindow: Database.Statement<[string, number, number], string>,
) {
  return database.transaction((id: string, range: { from?: number; limit: number }) => {
    const total = stateOf(id).messageCount;
    const start = range.from === undefined ? Math.max(0, total - range.limit) : Math.min(range.from, total);
    return { total, start, rows: selectWindow.all(id, start, start + range.limit) };
  });
}

/** Statements already prepared, by database and tables: one set serves every store of a database. */
const prepared = new WeakMap<Database.Database, Map<string, Statements>>();

/**
 * Creates the tables (when missing) and prepares every statement the store runs — once per
 * database and table names: the next store of the same database and tables reuses them (opening a
 * store per conversation, as a server or the studio does, costs no preparing).
 */
export function prepareStatements(database: Database.Database, tables: TableNames): Statements {
  let byTables = prepared.get(database);
  if (byTables === undefined) prepared.set(database, (byTables = new Map()));
  const key = `${tables.messages}\u0000${tables.conversations}`;
  let statements = byTables.get(key);
  if (statements === undefined) byTables.set(key, (statements = prepareAll(database, tables)));
  return statements;
}

function prepareAll(database: Database.Database, tables: TableNames): Statements {
  createTables(database, tables);
  const statement = prepareSingleStatements(database, tables);

  const stateOf = (id: string): ConversationState => {
    const row = statement.selectState.get(id);
    return row ? { version: row.version, messageCount: row.message_count } : { version: 0, messageCount: 0 };
  };

  /** Advances the version from `from`, or throws a conflict (rolling the transaction back). */
  const claimNextVersion = (id: string, from: ConversationState, messageCount: number): void => {
    const now = new Date().toISOString();
    const claimed =
      from.version === 0
        ? statement.createConversation.run(id, messageCount, now, now)
        : statement.bumpVersion.run(messageCount, now, id, from.version);
    if (claimed.changes === 0) {
      throw new ConversationConflictError(id, describeVersionConflict(from.version, stateOf(id).version));
    }
  };

  const load = database.transaction((id: string) => ({
    state: stateOf(id),
    rows: statement.selectMessages.all(id),
  }));

  const loadRange = windowTransaction(database, stateOf, statement.selectWindow);
  const write = database.transaction(
    (
      id: string,
      expected: ConversationState | undefined,
      lines: readonly string[],
      mode: "append" | "replace",
      keep = 0,
    ) => {
      const from = expected ?? stateOf(id);
      if (keep > from.messageCount) throw tailPastTheEnd(keep, from.messageCount);
      const firstOrdinal = mode === "append" ? from.messageCount : keep;
      claimNextVersion(id, from, firstOrdinal + lines.length);
      if (mode === "replace") statement.deleteMessagesFrom.run(id, keep);
      for (const [index, line] of lines.entries())
        statement.insertMessage.run(id, firstOrdinal + index, line);
      return { version: from.version + 1, messageCount: firstOrdinal + lines.length };
    },
  );

  const deleteConversation = database.transaction((id: string) => {
    statement.deleteMessagesFrom.run(id, 0);
    return statement.deleteConversationRow.run(id).changes > 0;
  });

  const fork = database.transaction((sourceId: string, newId: string) => {
    if (statement.selectState.get(newId))
      throw new InvalidOptionError(`Cannot fork into conversation "${newId}": it already exists.`);
    const now = new Date().toISOString();
    statement.copyConversation.run(newId, now, now, sourceId);
    statement.copyMessages.run(newId, sourceId);
  });

  return {
    load: (id: string) => load.deferred(id),
    loadRange: (id: string, range: { from?: number; limit: number }) => loadRange.deferred(id, range),
    write: (
      id: string,
      expected: ConversationState | undefined,
      lines: readonly string[],
      mode: "append" | "replace",
      keep?: number,
    ) => write.immediate(id, expected, lines, mode, keep),
    deleteConversation: (id: string) => deleteConversation.immediate(id),
    fork: (sourceId: string, newId: string) => fork.immediate(sourceId, newId),
    listConversations: () => statement.listConversations.all(),
  };
}
