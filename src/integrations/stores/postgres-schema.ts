/**
 * Creating the PostgreSQL store's schema and tables on first use: once per pool and table set,
 * under an advisory lock so that processes starting together do not race.
 * @module
 */
import type pg from "pg";
import { inTransaction } from "./postgres-connection";
import type { Tables } from "./postgres-queries";

/** Schema creation, once per pool and table set (retried if it failed). */
const schemaReady = new WeakMap<pg.Pool, Map<string, Promise<void>>>();

/** Resolves once the tables exist; a failed attempt is forgotten, so the next call tries again. */
export function ensureSchema(pool: pg.Pool, tables: Tables): Promise<void> {
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
