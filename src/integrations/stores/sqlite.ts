/**
 * `agent-lattice/stores/sqlite`: conversations in a SQLite database, on `better-sqlite3` (an
 * optional peer dependency, imported only by this entry).
 *
 * Two tables, created on first use: `<tableName>_conversations` (one row per conversation: its
 * version and message count) and `<tableName>` (one row per message: conversation id, ordinal, the
 * message as JSON text). Load order is the ordinal order, exactly.
 *
 * **One writer per conversation, across processes: optimistic versioning.** Every write is one
 * `BEGIN IMMEDIATE` transaction that first runs
 * `UPDATE … SET version = version + 1 WHERE id = ? AND version = <the version seen at load>`; when
 * no row matches, another writer got there first, the transaction rolls back (nothing written) and
 * the store throws {@link ConversationConflictError}. An append inserts only the new rows (O(1) per
 * message); a replace deletes and inserts in the same transaction, so readers see the old history
 * or the new one, never a mix.
 * @module
 */

import { closeSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { InvalidOptionError } from "../../errors";
import { claimRunWith } from "../../history/run-claim";
import {
  assertConversationId,
  type ConversationHistoryStore,
  type ConversationInfo,
} from "../../history/store-kit/conversation-history-store";
import { parseStoredMessage } from "../../history/store-kit/message-codec";
import {
  borrowedResource,
  ownedResource,
  type SharedResource,
} from "../../history/store-kit/shared-resource";
import {
  createVersionedStoreCore,
  type DeletableVersionedBackend,
} from "../../history/store-kit/versioned-store";
import type { ModelMessage } from "../../messages/types";
import { assertKnownOptions } from "../../shared/known-options";
import { sqliteRunClaimRecord } from "./sqlite-run-claims";
import {
  type ConversationState,
  prepareStatements,
  type Statements,
  type TableNames,
  tableNamesFor,
} from "./sqlite-statements";
import { useWriteAheadLog } from "./sqlite-wal";

export type {
  ConversationHistoryStore,
  ConversationInfo,
} from "../../history/store-kit/conversation-history-store";

/** Default table name (the conversations table adds `_conversations`). */
export const DEFAULT_SQLITE_TABLE_NAME = "agent_lattice_messages";
/** Default wait for a lock held by another connection, in milliseconds. */
export const DEFAULT_SQLITE_BUSY_TIMEOUT_MS = 5_000;

/** Options of {@link createSqliteHistoryStore}. Give `path` or `database`. */
export interface SqliteHistoryStoreOptions {
  /**
   * The database file, opened (and created, with its folders, mode 0600) by the store, in WAL mode
   * with `synchronous = NORMAL`, and closed by `close()`.
   */
  path?: string;
  /** An open `better-sqlite3` database; used as configured and never closed by the store. */
  database?: Database.Database;
  /** The conversation this store reads and writes. */
  conversationId: string;
  /** Propagate store failures out of `query()` / `prompt()`. @default false */
  failOnError?: boolean;
  /** The message table's name; the conversations table is `<tableName>_conversations`. @default "agent_lattice_messages" */
  tableName?: string;
  /** How long a write waits for another connection's lock (only for a database opened from `path`). @default 5000 */
  busyTimeoutMs?: number;
}

/** A SQLite history store. */
export interface SqliteHistoryStore extends ConversationHistoryStore {
  fork(newConversationId: string): Promise<SqliteHistoryStore>;
}

/**
 * Every option name of `createSqliteHistoryStore` — the one list to extend when an option is added; any other
 * name is refused, naming the closest of these.
 */
export const SQLITE_STORE_OPTION_NAMES: readonly string[] = [
  "path",
  "database",
  "conversationId",
  "failOnError",
  "tableName",
  "busyTimeoutMs",
];

/**
 * Creates a history store for one conversation of a SQLite database.
 *
 * @example
 * import { createSqliteHistoryStore } from "agent-lattice/stores/sqlite";
 * const historyStore = createSqliteHistoryStore({ path: "data/agents.db", conversationId: "user-42" });
 */
export function createSqliteHistoryStore(options: SqliteHistoryStoreOptions): SqliteHistoryStore {
  assertKnownOptions("createSqliteHistoryStore", options, SQLITE_STORE_OPTION_NAMES);
  assertConversationId(options?.conversationId, "createSqliteHistoryStore");
  const tableName = options.tableName ?? DEFAULT_SQLITE_TABLE_NAME;
  const tables = { ...tableNamesFor(tableName), name: tableName };
  return createStore(openDatabase(options), tables, options.conversationId, options.failOnError ?? false);
}

function openDatabase(options: SqliteHistoryStoreOptions): SharedResource<Database.Database> {
  if (options.database && options.path)
    throw new InvalidOptionError("Give createSqliteHistoryStore `path` or `database`, not both.");
  if (options.database) return borrowedResource(options.database);
  if (typeof options.path !== "string" || options.path === "") {
    throw new InvalidOptionError("createSqliteHistoryStore needs `path` or `database`.");
  }
  if (options.path !== ":memory:") createPrivateFile(options.path);
  const timeout = options.busyTimeoutMs ?? DEFAULT_SQLITE_BUSY_TIMEOUT_MS;
  const database = new Database(options.path, { timeout });
  useWriteAheadLog(database, timeout);
  database.pragma("synchronous = NORMAL");
  return ownedResource(database, (opened) => {
    opened.close();
  });
}

/** Creates the database file (and its folders) readable by its owner only, when it does not exist yet. */
function createPrivateFile(path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  closeSync(openSync(path, "a", 0o600));
}

/** The public store of one conversation: the versioned core, plus listing, deleting and forking. */
function createStore(
  resource: SharedResource<Database.Database>,
  tables: TableNames & { name: string },
  conversationId: string,
  failOnError: boolean,
): SqliteHistoryStore {
  const statements = prepareStatements(resource.value, tables);
  const backend = createBackend(resource, statements, conversationId);
  const core = createVersionedStoreCore(backend, { failOnError });
  const runRecord = sqliteRunClaimRecord(resource.value, tables.name, conversationId);

  return {
    conversationId,
    failOnError: core.failOnError,
    load: core.load,
    loadRange: core.loadRange!,
    append: core.append,
    replace: core.replace,
    replaceTail: core.replaceTail!,
    close: core.close,
    claimRun: (claimOptions) => claimRunWith(runRecord, claimOptions),
    isRunClaimed: () => runRecord.isHeld(),
    async listConversations(): Promise<ConversationInfo[]> {
      return statements.listConversations().map((row) => ({
        conversationId: row.id,
        messageCount: row.message_count,
        updatedAt: new Date(row.updated_at),
      }));
    },
    deleteConversation(id = conversationId): Promise<boolean> {
      assertConversationId(id, "deleteConversation");
      return core.exclusive(async () => {
        const existed = statements.deleteConversation(id);
        if (id === conversationId) backend.forgetConversation();
        return existed;
      });
    },
    fork(newConversationId: string): Promise<SqliteHistoryStore> {
      assertConversationId(newConversationId, "fork");
      return core.exclusive(async () => {
        statements.fork(conversationId, newConversationId);
        return createStore(resource.share(), tables, newConversationId, failOnError);
      });
    },
  };
}

/** The storage of one conversation behind the versioned store core. */
function createBackend(
  resource: SharedResource<Database.Database>,
  statements: Statements,
  conversationId: string,
) {
  let expected: ConversationState | undefined;

  const backend: DeletableVersionedBackend = {
    async load(): Promise<ModelMessage[]> {
      const { state, rows } = statements.load(conversationId);
      expected = state;
      return rows.flatMap((text) => parseStoredMessage(text) ?? []);
    },
    async loadRange(range) {
      const { total, start, rows } = statements.loadRange(conversationId, range);
      return { messages: rows.flatMap((text) => parseStoredMessage(text) ?? []), from: start, total };
    },
    async append(serializedMessages) {
      expected = statements.write(conversationId, expected, serializedMessages, "append");
    },
    async replace(serializedMessages) {
      expected = statements.write(conversationId, expected, serializedMessages, "replace");
    },
    async replaceTail(from, serializedMessages) {
      expected = statements.write(conversationId, expected, serializedMessages, "replace", from);
    },
    async close() {
      await resource.release();
    },
    forgetConversation() {
      expected = { version: 0, messageCount: 0 };
    },
  };
  return backend;
}
