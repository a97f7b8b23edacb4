/**
 * The storage of one PostgreSQL conversation behind the versioned store core: load, append and
 * replace under the optimistic version check (see postgres.ts).
 * @module
 */
import type pg from "pg";
import { ConversationConflictError } from "../../errors";
import { describeVersionConflict } from "../../history/store-kit/conversation-history-store";
import { parseStoredMessage, toJsonArrayText } from "../../history/store-kit/message-codec";
import type { SharedResource } from "../../history/store-kit/shared-resource";
import { type DeletableVersionedBackend, tailPastTheEnd } from "../../history/store-kit/versioned-store";
import type { ModelMessage } from "../../messages/types";
import { inTransaction } from "./postgres-connection";
import type { Queries, Tables } from "./postgres-queries";
import { ensureSchema } from "./postgres-schema";

/** The version this store expects, and the message count that goes with it. */
export interface ConversationState {
  version: number;
  messageCount: number;
}

/** The stored version and message count of conversation `id`; version 0 when it does not exist. */
export async function stateOf(
  queryable: pg.Pool | pg.PoolClient,
  queries: Queries,
  id: string,
): Promise<ConversationState> {
  const { rows } = await queryable.query(queries.selectState, [id]);
  const row = rows[0];
  return row
    ? { version: Number(row.version), messageCount: row.message_count }
    : { version: 0, messageCount: 0 };
}

/** The backend of conversation `conversationId`, on the pool of `resource` (released by `close()`). */
export function createPostgresBackend(
  resource: SharedResource<pg.Pool>,
  tables: Tables,
  queries: Queries,
  conversationId: string,
): DeletableVersionedBackend {
  const pool = resource.value;
  let expected: ConversationState | undefined;

  /**
   * The conflict error, naming the version found instead. Inside a transaction, pass its client: the
   * transaction holds a connection, and on a pool with no other free (`max: 1`) the pool would wait forever.
   */
  async function conflict(
    from: ConversationState,
    queryable: pg.Pool | pg.PoolClient = pool,
  ): Promise<ConversationConflictError> {
    const stored = await stateOf(queryable, queries, conversationId).catch(() => undefined);
    return new ConversationConflictError(
      conversationId,
      stored ? describeVersionConflict(from.version, stored.version) : "its version moved",
    );
  }

  /** Replaces the messages from ordinal `keep` on (0: all of them) in one transaction. */
  async function replaceFrom(keep: number, serializedMessages: readonly string[]): Promise<void> {
    await ensureSchema(pool, tables);
    expected = await inTransaction(pool, (client) =>
      replaceTailIn(client, { queries, conversationId, expected, conflict }, keep, serializedMessages),
    );
  }

  return {
    async load(): Promise<ModelMessage[]> {
      await ensureSchema(pool, tables);
      const { rows } = await pool.query(queries.load, [conversationId]);
      const version = rows.length > 0 ? Number(rows[0].version) : 0;
      const stored = rows.filter((row) => row.message !== null);
      expected = { version, messageCount: stored.length };
      return stored.flatMap((row) => parseStoredMessage(row.message) ?? []);
    },
    async loadRange(range) {
      await ensureSchema(pool, tables);
      const { rows } = await pool.query(queries.loadRange, [conversationId, range.from ?? null, range.limit]);
      if (rows.length === 0) return { messages: [], from: 0, total: 0 };
      const stored = rows.filter((row) => row.message !== null);
      return {
        messages: stored.flatMap((row) => parseStoredMessage(row.message) ?? []),
        from: Number(rows[0].start),
        total: Number(rows[0].message_count),
      };
    },
    async append(serializedMessages) {
      await ensureSchema(pool, tables);
      const from = expected ?? (await stateOf(pool, queries, conversationId));
      const count = serializedMessages.length;
      const json = toJsonArrayText(serializedMessages);
      const result =
        from.version === 0
          ? await pool.query(queries.appendToNew, [conversationId, count, json])
          : await pool.query(queries.appendToExisting, [conversationId, from.version, count, json]);
      if (result.rowCount !== count) throw await conflict(from);
      expected = { version: from.version + 1, messageCount: from.messageCount + count };
    },
    replace: (serializedMessages) => replaceFrom(0, serializedMessages),
    replaceTail: replaceFrom,
    close: () => resource.release(),
    forgetConversation() {
      expected = { version: 0, messageCount: 0 };
    },
  };
}

/** What {@link replaceTailIn} works with: the backend's queries, conversation, expected state and conflict error. */
interface TailWrite {
  queries: Queries;
  conversationId: string;
  expected: ConversationState | undefined;
  conflict: (from: ConversationState, client: pg.PoolClient) => Promise<ConversationConflictError>;
}

/**
 * Replaces the messages from ordinal `keep` on (0: all of them) with `serializedMessages`, inside
 * the transaction of `client`, once the version is claimed; returns the new state.
 */
async function replaceTailIn(
  client: pg.PoolClient,
  { queries, conversationId, expected, conflict }: TailWrite,
  keep: number,
  serializedMessages: readonly string[],
): Promise<ConversationState> {
  const from = expected ?? (await stateOf(client, queries, conversationId));
  if (keep > from.messageCount) throw tailPastTheEnd(keep, from.messageCount);
  const count = keep + serializedMessages.length;
  const claimed =
    from.version === 0
      ? await client.query(queries.createConversation, [conversationId, count])
      : await client.query(queries.claimForReplace, [conversationId, from.version, count]);
  if (claimed.rowCount !== 1) throw await conflict(from, client);
  await client.query(queries.deleteMessagesFrom, [conversationId, keep]);
  await client.query(queries.insertMessagesFrom, [conversationId, toJsonArrayText(serializedMessages), keep]);
  return { version: from.version + 1, messageCount: count };
}
