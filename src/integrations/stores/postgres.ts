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
import pg from "pg";
import { ConversationConflictError, InvalidOptionError } from "../../errors";
import {
  assertConversationId,
  type ConversationHistoryStore,
  type ConversationInfo,
  describeVersionConflict,
} from "../../history/store-kit/conversation-history-store";
import { parseStoredMessage, toJsonArrayText } from "../../history/store-kit/message-codec";
import {
  borrowedResource,
  ownedResource,
  type SharedResource,
} from "../../history/store-kit/shared-resource";
import { createVersionedStoreCore, type VersionedBackend } from "../../history/store-kit/versioned-store";
import type { ModelMessage } from "../../messages/types";
import { quoteIdentifier } from "./sql-identifier";

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
 * Creates a history store for one conversation of a PostgreSQL database.
 *
 * @example
 * import { createPostgresHistoryStore } from "agent-lattice/stores/postgres";
 * const historyStore = createPostgresHistoryStore({ pool, conversationId: `user-${userId}` });
 */
export function createPostgresHistoryStore(options: PostgresHistoryStoreOptions): PostgresHistoryStore {
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

interface Tables {
  schema: string | undefined;
  conversations: string;
  messages: string;
}

function tablesFor(schema: string | undefined, prefix: string): Tables {
  const qualifier = schema === undefined ? "" : `${quoteIdentifier(schema, "schema")}.`;
  return {
    schema: schema === undefined ? undefined : quoteIdentifier(schema, "schema"),
    conversations: qualifier + quoteIdentifier(`${prefix}conversations`, "tablePrefix"),
    messages: qualifier + quoteIdentifier(`${prefix}messages`, "tablePrefix"),
  };
}

function openPool(options: PostgresHistoryStoreOptions): SharedResource<pg.Pool> {
  if (options.pool && options.connectionString) {
    throw new InvalidOptionError("Give createPostgresHistoryStore `pool` or `connectionString`, not both.");
  }
  if (options.pool) return borrowedResource(options.pool);
  if (typeof options.connectionString !== "string" || options.connectionString === "") {
    throw new InvalidOptionError("createPostgresHistoryStore needs `pool` or `connectionString`.");
  }
  const pool = new pg.Pool({ connectionString: options.connectionString });
  // The server may end an idle pooled connection (restart, failover, idle_session_timeout); the pool
  // then emits 'error', which would crash the process with no listener. The pool has already dropped
  // that client and the next query connects anew; a query that fails still rejects on its own.
  pool.on("error", () => undefined);
  return ownedResource(pool, (owned) => owned.end());
}

/** Schema creation, once per pool and table set (retried if it failed). */
const schemaReady = new WeakMap<pg.Pool, Map<string, Promise<void>>>();

function ensureSchema(pool: pg.Pool, tables: Tables): Promise<void> {
  let byTables = schemaReady.get(pool);
  if (!byTables) schemaReady.set(pool, (byTables = new Map()));
  const key = tables.conversations;
  let ready = byTables.get(key);
  if (!ready) {
    ready = inTransaction(pool, (client) => createSchema(client, tables));
    ready.catch(() => byTables.delete(key));
    byTables.set(key, ready);
  }
  return ready;
}

async function createSchema(client: pg.PoolClient, tables: Tables): Promise<void> {
  await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`agent-lattice:${tables.conversations}`]);
  if (tables.schema) await client.query(`CREATE SCHEMA IF NOT EXISTS ${tables.schema}`);
  await client.query(`CREATE TABLE IF NOT EXISTS ${tables.conversations} (
    id text PRIMARY KEY,
    version bigint NOT NULL,
    message_count integer NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`);
  await client.query(`CREATE TABLE IF NOT EXISTS ${tables.messages} (
    conversation_id text NOT NULL REFERENCES ${tables.conversations} (id) ON DELETE CASCADE,
    ordinal integer NOT NULL,
    message json NOT NULL,
    PRIMARY KEY (conversation_id, ordinal)
  )`);
}

async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  // A checked-out client emits 'error' when its connection ends (the server killed the backend):
  // unheard, that would crash the process. The running query rejects on its own; the client is
  // released as broken, so the pool discards it.
  const onError = (error: Error) => {
    broken ??= error;
  };
  client.on("error", onError);
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch((rollbackError: Error) => {
      broken = rollbackError;
    });
    throw error;
  } finally {
    client.off("error", onError);
    client.release(broken);
  }
}

/** The version this store expects, and the message count that goes with it. */
interface ConversationState {
  version: number;
  messageCount: number;
}

function createStore(
  resource: SharedResource<pg.Pool>,
  tables: Tables,
  conversationId: string,
  failOnError: boolean,
): PostgresHistoryStore {
  const pool = resource.value;
  const queries = createQueries(tables);
  let expected: ConversationState | undefined;

  async function stateOf(queryable: pg.Pool | pg.PoolClient, id: string): Promise<ConversationState> {
    const { rows } = await queryable.query(queries.selectState, [id]);
    const row = rows[0];
    return row
      ? { version: Number(row.version), messageCount: row.message_count }
      : { version: 0, messageCount: 0 };
  }

  /**
   * The conflict error, naming the version found instead. Inside a transaction, pass its client: the
   * transaction holds a connection, and on a pool with no other free (`max: 1`) the pool would wait forever.
   */
  async function conflict(
    from: ConversationState,
    queryable: pg.Pool | pg.PoolClient = pool,
  ): Promise<ConversationConflictError> {
    const stored = await stateOf(queryable, conversationId).catch(() => undefined);
    return new ConversationConflictError(
      conversationId,
      stored ? describeVersionConflict(from.version, stored.version) : "its version moved",
    );
  }

  const backend: VersionedBackend = {
    async load(): Promise<ModelMessage[]> {
      await ensureSchema(pool, tables);
      const { rows } = await pool.query(queries.load, [conversationId]);
      const version = rows.length > 0 ? Number(rows[0].version) : 0;
      const stored = rows.filter((row) => row.message !== null);
      expected = { version, messageCount: stored.length };
      return stored.flatMap((row) => parseStoredMessage(row.message) ?? []);
    },
    async append(serializedMessages) {
      await ensureSchema(pool, tables);
      const from = expected ?? (await stateOf(pool, conversationId));
      const count = serializedMessages.length;
      const json = toJsonArrayText(serializedMessages);
      const result =
        from.version === 0
          ? await pool.query(queries.appendToNew, [conversationId, count, json])
          : await pool.query(queries.appendToExisting, [conversationId, from.version, count, json]);
      if (result.rowCount !== count) throw await conflict(from);
      expected = { version: from.version + 1, messageCount: from.messageCount + count };
    },
    async replace(serializedMessages) {
      await ensureSchema(pool, tables);
      const count = serializedMessages.length;
      expected = await inTransaction(pool, async (client) => {
        const from = expected ?? (await stateOf(client, conversationId));
        const claimed =
          from.version === 0
            ? await client.query(queries.createConversation, [conversationId, count])
            : await client.query(queries.claimForReplace, [conversationId, from.version, count]);
        if (claimed.rowCount !== 1) throw await conflict(from, client);
        await client.query(queries.deleteMessages, [conversationId]);
        await client.query(queries.insertMessages, [conversationId, toJsonArrayText(serializedMessages)]);
        return { version: from.version + 1, messageCount: count };
      });
    },
    close: () => resource.release(),
  };

  const core = createVersionedStoreCore(backend, { failOnError, secrets: connectionSecrets(pool) });
  return {
    conversationId,
    failOnError: core.failOnError,
    load: core.load,
    append: core.append,
    replace: core.replace,
    close: core.close,
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
        if (id === conversationId) expected = { version: 0, messageCount: 0 };
        return (rowCount ?? 0) > 0;
      });
    },
    fork(newConversationId: string): Promise<PostgresHistoryStore> {
      assertPostgresConversationId(newConversationId, "fork");
      return core.exclusive(async () => {
        await ensureSchema(pool, tables);
        await inTransaction(pool, async (client) => {
          await client.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
          if ((await stateOf(client, newConversationId)).version > 0) {
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

/** Every statement the store runs, for one set of tables. */
function createQueries({ conversations, messages }: Tables) {
  /** Inserts the elements of the JSON array parameter `$<parameter>` after the row `claim` returned. */
  const insertElements = (claim: string, parameter: number) =>
    `INSERT INTO ${messages} (conversation_id, ordinal, message)
     SELECT ${claim}.id, ${claim}.first_ordinal + element.ordinality - 1, element.value
     FROM ${claim}, json_array_elements($${parameter}::json) WITH ORDINALITY AS element (value, ordinality)`;
  return {
    selectState: `SELECT version, message_count FROM ${conversations} WHERE id = $1`,
    load: `SELECT c.version, m.message::text AS message
           FROM ${conversations} c LEFT JOIN ${messages} m ON m.conversation_id = c.id
           WHERE c.id = $1 ORDER BY m.ordinal`,
    appendToNew: `WITH created AS (
        INSERT INTO ${conversations} (id, version, message_count) VALUES ($1, 1, $2)
        ON CONFLICT (id) DO NOTHING RETURNING id, 0 AS first_ordinal
      ) ${insertElements("created", 3)}`,
    appendToExisting: `WITH claimed AS (
        UPDATE ${conversations} SET version = version + 1, message_count = message_count + $3, updated_at = now()
        WHERE id = $1 AND version = $2 RETURNING id, message_count - $3 AS first_ordinal
      ) ${insertElements("claimed", 4)}`,
    createConversation: `INSERT INTO ${conversations} (id, version, message_count) VALUES ($1, 1, $2) ON CONFLICT (id) DO NOTHING`,
    claimForReplace: `UPDATE ${conversations} SET version = version + 1, message_count = $3, updated_at = now()
                      WHERE id = $1 AND version = $2`,
    deleteMessages: `DELETE FROM ${messages} WHERE conversation_id = $1`,
    insertMessages: `INSERT INTO ${messages} (conversation_id, ordinal, message)
                     SELECT $1, element.ordinality - 1, element.value
                     FROM json_array_elements($2::json) WITH ORDINALITY AS element (value, ordinality)`,
    deleteConversation: `DELETE FROM ${conversations} WHERE id = $1`,
    copyConversation: `INSERT INTO ${conversations} (id, version, message_count)
                       SELECT $1, 1, message_count FROM ${conversations} WHERE id = $2`,
    copyMessages: `INSERT INTO ${messages} (conversation_id, ordinal, message)
                   SELECT $1, ordinal, message FROM ${messages} WHERE conversation_id = $2`,
    listConversations: `SELECT id, message_count, updated_at FROM ${conversations} ORDER BY updated_at DESC, id`,
  };
}

/** The pool's credentials (from its connection string or options): kept out of store errors. */
function connectionSecrets(pool: pg.Pool): string[] {
  const { password, connectionString } = (pool.options ?? {}) as {
    password?: unknown;
    connectionString?: unknown;
  };
  const secrets = typeof password === "string" && password !== "" ? [password] : [];
  if (typeof connectionString === "string") {
    try {
      const { password: inUrl } = new URL(connectionString);
      if (inUrl) secrets.push(inUrl, decodeURIComponent(inUrl));
    } catch {
      // not a URL (a key=value string): pg reports it without the password
    }
  }
  return secrets;
}
