/**
 * Run claims in SQLite: a table `<tableName>_runs` (conversation id, owner token, expiry in epoch
 * milliseconds of the claiming process's clock), created on the first claim. Taking is one upsert
 * that overwrites only an expired row, so two processes that race for a free conversation get one
 * winner (SQLite serialises writers).
 * @module
 */
import type Database from "better-sqlite3";
import type { RunClaimRecord } from "../../history/run-claim";
import { quoteIdentifier } from "./sql-identifier";

/** The run-claim record of conversation `id` in `database` (table `<tableName>_runs`). */
export function sqliteRunClaimRecord(
  database: Database.Database,
  tableName: string,
  id: string,
): RunClaimRecord {
  const table = quoteIdentifier(`${tableName}_runs`, "tableName");
  let statements: ReturnType<typeof prepare> | undefined;
  const prepared = () => {
    statements ??= prepare(database, table);
    return statements;
  };
  return {
    async take(owner, ttlMs) {
      const now = Date.now();
      return prepared().take.run(id, owner, now + ttlMs, now).changes === 1;
    },
    async extend(owner, ttlMs) {
      return prepared().extend.run(Date.now() + ttlMs, id, owner).changes === 1;
    },
    async free(owner) {
      prepared().free.run(id, owner);
    },
    async isHeld() {
      // A read creates nothing: no table yet means nobody ever claimed here.
      if (statements === undefined && !tableExists(database, `${tableName}_runs`)) return false;
      return prepared().held.get(id, Date.now()) !== undefined;
    },
  };
}

function prepare(database: Database.Database, table: string) {
  database.exec(
    `CREATE TABLE IF NOT EXISTS ${table} (id TEXT PRIMARY KEY, owner TEXT NOT NULL, expires_at INTEGER NOT NULL)`,
  );
  return {
    take: database.prepare<[string, string, number, number]>(
      `INSERT INTO ${table} (id, owner, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
       WHERE ${table}.expires_at <= ?`,
    ),
    extend: database.prepare<[number, string, string]>(
      `UPDATE ${table} SET expires_at = ? WHERE id = ? AND owner = ?`,
    ),
    free: database.prepare<[string, string]>(`DELETE FROM ${table} WHERE id = ? AND owner = ?`),
    held: database.prepare<[string, number]>(`SELECT 1 FROM ${table} WHERE id = ? AND expires_at > ?`),
  };
}

function tableExists(database: Database.Database, name: string): boolean {
  return (
    database.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined
  );
}
