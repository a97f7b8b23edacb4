/**
 * `agent-lattice/stores/postgres`: conversations in PostgreSQL, on `pg` (an optional peer
 * dependency, imported only by this entry).
 *
 * Two tables, created on first use (under an advisory lock, so processes starting together do not
 * race): `<prefix>conversations` (one row per conversation: version, message count, timestamps) and
 * `<prefix>messages` (conversation id, ordinal, the message as `json`). Messages are stored as
 * `json`, not `jsonb`: `json` keeps the text exactly, and `jsonb` refuses the `\u0000` escape that
 * tool output from binary files can contain.
 *
 * **One writer per conversation, across processes: optimistic versioning.** An append is a single
 * statement — `WITH claimed AS (UPDATE conversations SET version = version + 1 … WHERE id = $1 AND
 * version = <the version seen at load> RETURNING …) INSERT INTO messages SELECT … FROM claimed, …` —
 * so the version check and the insert commit together, and when another writer moved the version,
 * nothing is inserted and the store throws {@link ConversationConflictError}. Appends insert only the
 * new rows (O(1) per message). A replace claims the version, deletes and inserts in one transaction.
 * @module
 */

import type pg from "pg";
import { InvalidOptionError } from "../../errors";
import { claimRunWith } from "../../history/run-claim";
import {
  assertConversationId,
  type ConversationHistoryStore,
  type ConversationInfo,
} from "../../history/store-kit/conversation-history-store";
import type { SharedResource } from "../../history/store-kit/shared-resource";
import { createVersionedStoreCore } from "../../history/store-kit/versioned-store";
import { assertKnownOptions } from "../../shared/known-options";
import { createPostgresBackend, stateOf } from "./postgres-backend";
import { connectionSecrets, inTransaction, openPool } from "./postgres-connection";
import { createQueries, type Tables, tablesFor } from "./postgres-queries";
import { postgresRunClaimRecord } from "./postgres-run-claims";
import { ensureSchema } from "./postgres-schema";

export type {
  ConversationHistoryStore,
  ConversationInfo,
} from "../../history/store-kit/conversation-history-store";

/** Default prefix of the two table names. */
export const DEFAULT_POSTGRES_TABLE_PREFIX = "agent_lattice_";

/** Options of {@link createPostgresHistoryStore}. Give `pool` or `connectionString`. */
export interface PostgresHistoryStoreOptions {
  /**
   * A `pg` pool; used as configured and never ended by the store. Give it an `'error'` listener, as
   * `pg` asks of every pool: the server ending an idle connection emits one.
   */
  pool?: pg.Pool;
  /**
   * Opens a pool of its own, ended by `close()` (after every fork of the store is closed too). An
   * idle connection the server ends is dropped from it quietly; the next query reconnects.
   */
  connectionString?: string;
  /** The conversation this store reads and writes. */
  conversationId: string;
  /** Propagate store failures out of `query()` / `prompt()`. @default false */
  failOnError?: boolean;
  /** The schema of the tables, created when missing. @default the connection's search_path (usually "public") */
  schema?: string;
  /** Prefix of the table names: `<prefix>conversations`, `<prefix>messages`. @default "agent_lattice_" */
  tablePrefix?: string;
}

/** A PostgreSQL history store. */
export interface PostgresHistoryStore extends ConversationHistoryStore {
  fork(newConversationId: string): Promise<PostgresHistoryStore>;
}

/**
 * Every option name of `createPostgresHistoryStore` — the one list to extend when an option is added; any other
 * name is refused, naming the closest of these.
 */
export const POSTGRES_STORE_OPTION_NAMES: readonly string[] = [
  "pool",
  "connectionString",
  "conversationId",
  "failOnError",
  "schema",
  "tablePrefix",
];

/**
 * Creates a history store for one conversation of a PostgreSQL database.
 *
 * @example
 * import { createPostgresHistoryStore } from "agent-lattice/stores/postgres";
 * const historyStore = createPostgresHistoryStore({ pool, conversationId: `user-${userId}` });
 */
export function createPostgresHistoryStore(options: PostgresHistoryStoreOptions): PostgresHistoryStore {
  assertKnownOptions("createPostgresHistoryStore", options, POSTGRES_STORE_OPTION_NAMES);
  assertPostgresConversationId(options?.conversationId, "createPostgresHistoryStore");
  const tables = tablesFor(options.schema, options.tablePrefix ?? DEFAULT_POSTGRES_TABLE_PREFIX);
  return createStore(openPool(options), tables, options.conversationId, options.failOnError ?? false);
}

/** {@link assertConversationId}, and no NUL: PostgreSQL text cannot hold it, so every write would fail. */
function assertPostgresConversationId(
  conversationId: unknown,
  name: string,
): asserts conversationId is string {
  assertConversationId(conversationId, name);
  if (conversationId.includes("\u0000")) {
    throw new TypeError(
      `${name} needs a \`conversationId\` without NUL characters: PostgreSQL text cannot hold them.`,
    );
  }
}

/** The public store of one conversation: the versioned core, plus listing, deleting and forking. */
function createStore(
  resource: SharedResource<pg.Pool>,
  tables: Tables,
  conversationId: string,
  failOnError: boolean,
): PostgresHistoryStore {
  const pool = resource.value;
  const queries = createQueries(tables);
  const backend = createPostgresBackend(resource, tables, queries, conversationId);
  const core = createVersionedStoreCore(backend, { failOnError, secrets: connectionSecrets(pool) });
  const runRecord = postgresRunClaimRecord(pool, tables, conversationId);
  return {
    conversationId,
    failOnError: core.failOnError,
    load: core.load,
    loadRange: core.loadRange!,
    append: core.append,
    replace: core.replace,
    replaceTail: core.replaceTail!,
    close: core.close,
    claimRun: (claimOptions) => core.withoutSecrets(() => claimRunWith(runRecord, claimOptions)),
    isRunClaimed: () => core.withoutSecrets(() => runRecord.isHeld()),
    listConversations(): Promise<ConversationInfo[]> {
      return core.withoutSecrets(async () => {
        await ensureSchema(pool, tables);
        const { rows } = await pool.query(queries.listConversations);
        return rows.map((row) => ({
          conversationId: row.id,
          messageCount: row.message_count,
          updatedAt: row.updated_at,
        }));
      });
    },
    deleteConversation(id = conversationId): Promise<boolean> {
      assertPostgresConversationId(id, "deleteConversation");
      return core.exclusive(async () => {
        await ensureSchema(pool, tables);
        const { rowCount } = await pool.query(queries.deleteConversation, [id]);
        if (id === conversationId) backend.forgetConversation();
        return (rowCount ?? 0) > 0;
      });
    },
    fork(newConversationId: string): Promise<PostgresHistoryStore> {
      assertPostgresConversationId(newConversationId, "fork");
      return core.exclusive(async () => {
        await ensureSchema(pool, tables);
        await inTransaction(pool, async (client) => {
          await client.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
          if ((await stateOf(client, queries, newConversationId)).version > 0) {
            throw new InvalidOptionError(
              `Cannot fork into conversation "${newConversationId}": it already exists.`,
            );
          }
          await client.query(queries.copyConversation, [newConversationId, conversationId]);
          await client.query(queries.copyMessages, [newConversationId, conversationId]);
        });
        return createStore(resource.share(), tables, newConversationId, failOnError);
      });
    },
  };
}
