/**
 * Turning a SQLite database to write-ahead logging when several processes open it at once.
 *
 * A new database file is in rollback mode; `PRAGMA journal_mode = WAL` then needs to upgrade its
 * read lock to a write lock, and SQLite does not call the busy handler for that upgrade (waiting
 * could deadlock two upgraders), so the second of two processes opening a new store at the same
 * moment gets `SQLITE_BUSY` at once, whatever its busy timeout. This retries the switch, with short
 * sleeps, until the timeout the caller gave has passed.
 */

/** The part of a better-sqlite3 database this needs. */
export interface PragmaRunner {
  pragma(sql: string): unknown;
}

/** How long to sleep between attempts, in ms: short, and spread so two processes fall apart. */
const RETRY_SLEEP_MS = { least: 2, spread: 18 };

/**
 * Puts `database` in WAL mode, retrying while another connection holds the lock the switch needs,
 * for up to `timeoutMs`; the last `SQLITE_BUSY` is thrown after that, any other error at once.
 */
export function useWriteAheadLog(database: PragmaRunner, timeoutMs: number): void {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      database.pragma("journal_mode = WAL");
      return;
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error;
      sleepSync(RETRY_SLEEP_MS.least + Math.random() * RETRY_SLEEP_MS.spread);
    }
  }
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_BUSY");
}

/** Blocks the thread for `ms` (opening a store is synchronous in better-sqlite3, and so is this). */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
