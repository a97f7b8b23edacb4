/**
 * Opening a SQLite store while another connection holds a write lock on a database that is not in
 * WAL mode yet (as when several processes open a new store at once): SQLite refuses the switch to
 * write-ahead logging at once with SQLITE_BUSY — whatever the busy timeout — and a CI run lost a
 * child process to it. The lock here is held by a worker thread (the retry blocks this thread).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { openEvalResults } from "../../../src/evals/results-store";
import { createSqliteHistoryStore } from "../../../src/integrations/stores/sqlite";
import { useWriteAheadLog } from "../../../src/integrations/stores/sqlite-wal";

const folder = mkdtempSync(join(tmpdir(), "sqlite-wal-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A rollback-mode database at `path` with one table, as a store's file is before its first open. */
function rollbackDatabase(path: string): void {
  const database = new Database(path);
  database.exec("CREATE TABLE other (x)");
  database.close();
}

/**
 * Holds `BEGIN IMMEDIATE` on `path` from a worker thread for `ms` after it is taken; resolves once
 * taken, with a promise of its release.
 */
async function holdWriteLock(path: string, ms: number): Promise<{ released: Promise<void> }> {
  const worker = new Worker(
    `const { parentPort, workerData } = require("node:worker_threads");
     const Database = require(workerData.module);
     const database = new Database(workerData.path);
     database.exec("BEGIN IMMEDIATE");
     parentPort.postMessage("locked");
     setTimeout(() => { database.exec("COMMIT"); database.close(); parentPort.postMessage("released"); }, workerData.ms);`,
    { eval: true, workerData: { module: require.resolve("better-sqlite3"), path, ms } },
  );
  const released = new Promise<void>((resolve, reject) => {
    worker.on("message", (message) => message === "released" && resolve());
    worker.on("error", reject);
  });
  await new Promise<void>((resolve, reject) => {
    worker.on("message", (message) => message === "locked" && resolve());
    worker.on("error", reject);
  });
  return { released: released.finally(() => worker.terminate()) };
}

function busy(): Error {
  return Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" });
}

describe("useWriteAheadLog", () => {
  it("retries while the database answers busy, then switches", () => {
    let calls = 0;
    const database = {
      pragma: () => {
        if (++calls < 4) throw busy();
        return "wal";
      },
    };
    useWriteAheadLog(database, 5_000);
    expect(calls).toBe(4);
  });

  it("throws any other error at once", () => {
    let calls = 0;
    const failure = Object.assign(new Error("disk I/O error"), { code: "SQLITE_IOERR" });
    const database = {
      pragma: () => {
        calls++;
        throw failure;
      },
    };
    expect(() => useWriteAheadLog(database, 5_000)).toThrow(failure);
    expect(calls).toBe(1);
  });

  it("gives up with the busy error once the timeout has passed", () => {
    let calls = 0;
    const database = {
      pragma: () => {
        calls++;
        throw busy();
      },
    };
    expect(() => useWriteAheadLog(database, 60)).toThrow("database is locked");
    expect(calls).toBeGreaterThan(1);
  });
});

describe("opening a store while another connection writes to its database", () => {
  it("a history store waits for the lock instead of failing with SQLITE_BUSY", async () => {
    const path = join(folder, "history.db");
    rollbackDatabase(path);
    const lock = await holdWriteLock(path, 300);
    const store = createSqliteHistoryStore({ path, conversationId: "c1", busyTimeoutMs: 60_000 });
    await lock.released;
    await store.append({ role: "user", content: "hello" });
    expect(await store.load()).toEqual([{ role: "user", content: "hello" }]);
    await store.close?.();
    const reader = new Database(path, { readonly: true });
    expect(reader.pragma("journal_mode", { simple: true })).toBe("wal");
    reader.close();
  });

  it("the eval results database waits for it too", async () => {
    const path = join(folder, "results.db");
    rollbackDatabase(path);
    const lock = await holdWriteLock(path, 300);
    const results = await openEvalResults(path);
    await lock.released;
    results.close();
    const reader = new Database(path, { readonly: true });
    expect(reader.pragma("journal_mode", { simple: true })).toBe("wal");
    reader.close();
  });
});
