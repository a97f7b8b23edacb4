import { stat } from "node:fs/promises";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConversationConflictError, HistoryStoreError, InvalidOptionError } from "../../../src/errors";
import { createSqliteHistoryStore } from "../../../src/integrations/stores/sqlite";
import { runHistoryStoreConformance } from "../../../src/testing/store-conformance";
import { user } from "../../support/content";
import { sharedTemporaryFolder } from "../../support/temporary-folders";

const folder = sharedTemporaryFolder("sqlite-store-");
const databasePath = join(folder, "nested", "history.db");

runHistoryStoreConformance(
  "SQLite (each store opens the file)",
  (conversation) => createSqliteHistoryStore({ path: databasePath, conversationId: conversation }),
  { describe, it, expect, replaceTail: true },
);

describe("SQLite store sharing one database handle", () => {
  let database: Database.Database;
  beforeAll(() => {
    database = new Database(join(folder, "shared.db"));
  });
  afterAll(() => database.close());

  runHistoryStoreConformance(
    "SQLite (shared handle)",
    (conversation) =>
      createSqliteHistoryStore({ database, conversationId: conversation, tableName: "shared_history" }),
    { describe, it, expect, replaceTail: true },
  );

  it("never closes a database it was given", async () => {
    const store = createSqliteHistoryStore({ database, conversationId: "given" });
    await store.append({ role: "user", content: "x" });
    await store.close();
    expect(database.open).toBe(true);
  });
});

describe("createSqliteHistoryStore", () => {
  it("creates the file with its folders, mode 0600, in WAL mode", async () => {
    const path = join(folder, "fresh", "deeper", "a.db");
    const store = createSqliteHistoryStore({ path, conversationId: "c" });
    await store.append(user("hi"));
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    const reader = new Database(path, { readonly: true });
    expect(reader.pragma("journal_mode", { simple: true })).toBe("wal");
    reader.close();
    await store.close();
  });

  it("stores messages as JSON rows with exact ordinals, many conversations per table", async () => {
    const path = join(folder, "rows.db");
    const first = createSqliteHistoryStore({ path, conversationId: "first" });
    const second = createSqliteHistoryStore({ path, conversationId: "second" });
    await first.append(user("a"));
    await second.append(user("x"));
    await first.append(user("b"));
    await first.replace([user("c"), user("d")]);
    await first.append(user("e"));
    const reader = new Database(path, { readonly: true });
    const rows = reader
      .prepare(
        "SELECT conversation_id, ordinal, message FROM agent_lattice_messages ORDER BY conversation_id, ordinal",
      )
      .all();
    expect(rows).toEqual([
      { conversation_id: "first", ordinal: 0, message: '{"role":"user","content":"c"}' },
      { conversation_id: "first", ordinal: 1, message: '{"role":"user","content":"d"}' },
      { conversation_id: "first", ordinal: 2, message: '{"role":"user","content":"e"}' },
      { conversation_id: "second", ordinal: 0, message: '{"role":"user","content":"x"}' },
    ]);
    reader.close();
    await first.close();
    await second.close();
  });

  it("rolls a replace back whole when the database fails part-way", async () => {
    const database = new Database(join(folder, "trigger.db"));
    const store = createSqliteHistoryStore({ database, conversationId: "c", tableName: "poisoned" });
    database.exec(`CREATE TRIGGER refuse_poison BEFORE INSERT ON poisoned
      WHEN NEW.message LIKE '%poison%' BEGIN SELECT RAISE(ABORT, 'injected failure'); END`);
    await store.append(user("old 1"));
    await store.append(user("old 2"));
    const failure = await store
      .replace([user("new 1"), user("new 2"), user("poison")])
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(HistoryStoreError);
    expect((failure as Error).message).toContain("injected failure");
    expect(await store.load()).toEqual([user("old 1"), user("old 2")]);
    await store.append(user("old 3"));
    expect(
      await createSqliteHistoryStore({ database, conversationId: "c", tableName: "poisoned" }).load(),
    ).toEqual([user("old 1"), user("old 2"), user("old 3")]);
    database.close();
  });

  it("retries an append that failed, in order, before the next one", async () => {
    const database = new Database(join(folder, "retry.db"));
    const store = createSqliteHistoryStore({ database, conversationId: "c", tableName: "flaky" });
    database.exec(`CREATE TABLE switch (on_ INTEGER); INSERT INTO switch VALUES (1);
      CREATE TRIGGER flaky_insert BEFORE INSERT ON flaky
      WHEN (SELECT on_ FROM switch) = 1 BEGIN SELECT RAISE(ABORT, 'disk hiccup'); END`);
    await store.load();
    await expect(store.append(user("one"))).rejects.toBeInstanceOf(HistoryStoreError);
    database.exec("UPDATE switch SET on_ = 0");
    await store.append(user("two"));
    expect(
      await createSqliteHistoryStore({ database, conversationId: "c", tableName: "flaky" }).load(),
    ).toEqual([user("one"), user("two")]);
    database.close();
  });

  it("lists, deletes and forks conversations", async () => {
    const path = join(folder, "manage.db");
    const store = createSqliteHistoryStore({ path, conversationId: "original" });
    await store.append(user("one"));
    await store.append(user("two"));
    const other = createSqliteHistoryStore({ path, conversationId: "other" });
    await other.append(user("elsewhere"));

    const fork = await store.fork("copy");
    expect(fork.conversationId).toBe("copy");
    expect(await fork.load()).toEqual([user("one"), user("two")]);
    await fork.append(user("only in the fork"));
    await store.append(user("only in the original"));
    expect(await store.load()).toEqual([user("one"), user("two"), user("only in the original")]);
    expect(await fork.load()).toEqual([user("one"), user("two"), user("only in the fork")]);
    await expect(store.fork("other")).rejects.toBeInstanceOf(InvalidOptionError);

    const listed = await store.listConversations();
    expect(listed.map((info) => [info.conversationId, info.messageCount]).sort()).toEqual([
      ["copy", 3],
      ["original", 3],
      ["other", 1],
    ]);
    expect(
      listed.every((info) => info.updatedAt instanceof Date && !Number.isNaN(info.updatedAt.getTime())),
    ).toBe(true);

    expect(await store.deleteConversation("other")).toBe(true);
    expect(await store.deleteConversation("other")).toBe(false);
    await expect(other.append(user("deleted under me"))).rejects.toBeInstanceOf(ConversationConflictError);
    expect(await store.deleteConversation()).toBe(true);
    expect(await store.load()).toEqual([]);
    await store.append(user("starting over"));
    expect((await store.listConversations()).map((info) => info.conversationId).sort()).toEqual([
      "copy",
      "original",
    ]);

    await store.close();
    expect(await fork.load()).toHaveLength(3); // the fork keeps the shared connection open
    await fork.close();
    await other.close();
  });

  it("refuses conversation ids with a lone surrogate (they cannot be listed back as given)", async () => {
    expect(() => createSqliteHistoryStore({ path: ":memory:", conversationId: "a\ud800" })).toThrow(
      TypeError,
    );
    const store = createSqliteHistoryStore({ path: ":memory:", conversationId: "c" });
    await expect(Promise.resolve().then(() => store.fork("b\udc00"))).rejects.toBeInstanceOf(TypeError);
    await expect(Promise.resolve().then(() => store.deleteConversation("b\udc00"))).rejects.toBeInstanceOf(
      TypeError,
    );
    await store.close();
  });

  it("rejects bad options", () => {
    expect(() => createSqliteHistoryStore({ conversationId: "c" })).toThrow(InvalidOptionError);
    expect(() => createSqliteHistoryStore({ path: ":memory:", conversationId: "" })).toThrow(TypeError);
    expect(() =>
      createSqliteHistoryStore({ path: ":memory:", conversationId: "c", tableName: "x; DROP TABLE y" }),
    ).toThrow(InvalidOptionError);
  });
});
