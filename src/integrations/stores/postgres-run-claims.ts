/**
 * Run claims in PostgreSQL: a table `<tablePrefix>runs` (conversation id, owner token, expiry by the
 * database's clock), created on the first claim. Taking is one upsert that overwrites only an
 * expired row, so processes that race for a free conversation get one winner.
 * @module
 */
import type pg from "pg";
import type { RunClaimRecord } from "../../history/run-claim";
import { inTransaction } from "./postgres-connection";
import type { Tables } from "./postgres-queries";

/** PostgreSQL's error code for a table that does not exist. */
const UNDEFINED_TABLE = "42P01";

/** The table's creation, once per pool and table. */
const tableReady = new WeakMap<pg.Pool, Map<string, Promise<void>>>();

/** The run-claim record of conversation `id` in the store's `runs` table. */
export function postgresRunClaimRecord(pool: pg.Pool, tables: Tables, id: string): RunClaimRecord {
  const table = tables.runs;
  const query = async (text: string, values: unknown[]) => {
    await ensureTable(pool, tables.schema, table);
    return (await pool.query(text, values)).rowCount ?? 0;
  };
  return {
    async take(owner, ttlMs) {
      const taken = await query(
        `INSERT INTO ${table} (id, owner, expires_at) VALUES ($1, $2, clock_timestamp() + $3 * interval '1 millisecond')
         ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
         WHERE ${table}.expires_at <= clock_timestamp()`,
        [id, owner, ttlMs],
      );
      return taken === 1;
    },
    async extend(owner, ttlMs) {
      const extended = await query(
        `UPDATE ${table} SET expires_at = clock_timestamp() + $3 * interval '1 millisecond' WHERE id = $1 AND owner = $2`,
        [id, owner, ttlMs],
      );
      return extended === 1;
    },
    async free(owner) {
      await query(`DELETE FROM ${table} WHERE id = $1 AND owner = $2`, [id, owner]);
    },
    async isHeld() {
      // A read creates nothing: no table yet means nobody ever claimed here.
      try {
        const { rowCount } = await pool.query(
          `SELECT 1 FROM ${table} WHERE id = $1 AND expires_at > clock_timestamp()`,
          [id],
        );
        return (rowCount ?? 0) > 0;
      } catch (error) {
        if ((error as { code?: unknown }).code === UNDEFINED_TABLE) return false;
        throw error;
      }
    },
  };
}

function ensureTable(pool: pg.Pool, schema: string | undefined, table: string): Promise<void> {
  let byTable = tableReady.get(pool);
  if (!byTable) tableReady.set(pool, (byTable = new Map()));
  let ready = byTable.get(table);
  if (!ready) {
    ready = inTransaction(pool, async (client) => {
      await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`agent-lattice:${table}`]);
      if (schema !== undefined) await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${table} (id text PRIMARY KEY, owner text NOT NULL, expires_at timestamptz NOT NULL)`,
      );
    });
    ready.catch(() => byTable.delete(table));
    byTable.set(table, ready);
  }
  return ready;
}
