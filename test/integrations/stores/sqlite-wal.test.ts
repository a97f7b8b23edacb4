/**
 * Opening a SQLite store from several processes at once (the switch to write-ahead logging, which
 * SQLite refuses at once with SQLITE_BUSY instead of waiting — a CI run lost a child to it), and
 * the retry itself against a database that answers busy.
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createSqliteHistoryStore } from "../../../src/integrations/stores/sqlite";
import { useWriteAheadLog } from "../../../src/integrations/stores/sqlite-wal";
import { startChild } from "./child-runner";
import { PROCESS_TEST_TIMEOUT_MS, useProcessTestEnvironment } from "./process-test-environment";

const env = useProcessTestEnvironment("sqlite-wal", "test/fixtures/stores/sqlite-open-child.ts");
const ROUNDS = 6;
const CHILDREN = 6;

function busy(): Error {
  return Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" });
}

describe("useWriteAheadLog", () => {
  it("retries while the database answers busy, then switches", () => {
    let calls = 0;
    useWriteAheadLog(
      {
        pragma: () => {
          calls++;
          if (calls < 4) throw busy();
          return "wal";
        },
      },
      5_000,
    );
    expect(calls).toBe(4);
  });

  it("throws any other error at once", () => {
    let calls = 0;
    const failure = Object.assign(new Error("disk I/O error"), { code: "SQLITE_IOERR" });
    expect(() =>
      useWriteAheadLog(
        {
          pragma: () => {
            calls++;
            throw failure;
          },
        },
        5_000,
      ),
    ).toThrow(failure);
    expect(calls).toBe(1);
  });

  it("gives up with the busy error once the timeout has passed", () => {
    let calls = 0;
    expect(() =>
      useWriteAheadLog(
        {
          pragma: () => {
            calls++;
            throw busy();
          },
        },
        60,
      ),
    ).toThrow("database is locked");
    expect(calls).toBeGreaterThan(1);
  });

  it("leaves a real database in WAL mode", () => {
    const database = new Database(join(env.folder, "single.db"));
    try {
      useWriteAheadLog(database, 1_000);
      expect(database.pragma("journal_mode", { simple: true })).toBe("wal");
    } finally {
      database.close();
    }
  });
});

describe("processes opening one new SQLite store at the same moment", () => {
  it(
    `all open it and write (${ROUNDS} rounds of ${CHILDREN} processes)`,
    async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const path = join(env.folder, `round-${round}.db`);
        const children = Array.from({ length: CHILDREN }, (_, index) =>
          startChild(env.childScript, { path, conversationId: `round-${round}-${index}` }),
        );
        await Promise.all(children.map((child) => child.waitForLine((line) => line === "ready")));
        for (const child of children) child.process.stdin.end("go\n");
        for (const child of children) {
          const exit = await child.exited;
          expect(exit.code, child.stderr()).toBe(0);
          expect(child.lines).toContain("stored");
        }
        for (let index = 0; index < CHILDREN; index++) {
          const store = createSqliteHistoryStore({ path, conversationId: `round-${round}-${index}` });
          expect(await store.load()).toEqual([{ role: "user", content: `hello from round-${round}-${index}` }]);
          await store.close?.();
        }
      }
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
