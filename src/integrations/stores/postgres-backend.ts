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
import type { DeletableVersionedBackend } from "../../history/store-kit/versioned-store";
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
    async replace(serializedMessages) {
      await ensureSchema(pool, tables);
      const count = serializedMessages.length;
      expected = await inTransaction(pool, async (client) => {
        const from = expected ?? (await stateOf(client, queries, conversationId));
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
    async replaceTail(keep, serializedMessages) {
      await ensureSchema(pool, tables);
      const count = keep + serializedMessages.length;
      expected = await inTransaction(pool, async (client) => {
        const from = expected ?? (await stateOf(client, queries, conversationId));
        if (keep > from.messageCount)
          throw new RangeError(`Cannot replace from message ${keep}: ${from.messageCount} are stored.`);
        const claimed =
          from.version === 0
            ? await client.query(queries.createConversation, [conversationId, count])
            : await client.query(queries.claimForReplace, [conversationId, from.version, count]);
        if (claimed.rowCount !== 1) throw await conflict(from, client);
        await client.query(queries.deleteMessagesFrom, [conversationId, keep]);
        const json = toJsonArrayText(serializedMessages);
        await client.query(queries.insertMessagesFrom, [conversationId, json, keep]);
        return { version: from.version + 1, messageCount: count };
      });
    },
    close: () => resource.release(),
    forgetConversation() {
      expected = { version: 0, messageCount: 0 };
    },
  };
}
