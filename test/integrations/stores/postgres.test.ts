import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConversationConflictError, HistoryStoreError, InvalidOptionError } from "../../../src/errors";
import { createPostgresHistoryStore } from "../../../src/integrations/stores/postgres";
import { runHistoryStoreConformance } from "../../../src/testing/store-conformance";
import { user } from "../../support/content";
import { startChild } from "./child-runner";
import { PROCESS_TEST_TIMEOUT_MS, useProcessTestEnvironment } from "./process-test-environment";

/** The real server; these tests fail (never skip) when it is not there. */
const connectionString =
  process.env.AGENT_LATTICE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
/** A schema of our own per run, so parallel runs never collide; dropped at the end. */
const schema = `agent_lattice_test_${randomBytes(5).toString("hex")}`;
const pool = new pg.Pool({ connectionString, max: 8 });
const processes = useProcessTestEnvironment("postgres", "test/integrations/stores/postgres-idle-child.ts");

beforeAll(async () => {
  await pool.query("SELECT 1");
});
afterAll(async () => {
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
});

runHistoryStoreConformance(
  "PostgreSQL",
  (conversation) => createPostgresHistoryStore({ pool, schema, conversationId: conversation }),
  {
    describe,
    it,
    expect,
    replaceTail: true,
    cleanup: async (conversation) => {
      await pool.query(`DELETE FROM "${schema}".agent_lattice_conversations WHERE id = $1`, [conversation]);
    },
  },
);

const uniqueId = (label: string) => `${label}-${randomBytes(6).toString("hex")}`;

describe("createPostgresHistoryStore", () => {
  it("stores each message as a json row with an exact ordinal", async () => {
    const conversationId = uniqueId("rows");
    const store = createPostgresHistoryStore({ pool, schema, conversationId });
    await store.append(user("a"));
    await store.append(user("b"));
    await store.replace([user("c")]);
    await store.append(user("d\u0000e"));
    const { rows } = await pool.query(
      `SELECT ordinal, message::text AS message, pg_typeof(message)::text AS type
       FROM "${schema}".agent_lattice_messages WHERE conversation_id = $1 ORDER BY ordinal`,
      [conversationId],
    );
    expect(rows).toEqual([
      { ordinal: 0, message: '{"role":"user","content":"c"}', type: "json" },
      { ordinal: 1, message: '{"role":"user","content":"d\\u0000e"}', type: "json" },
    ]);
    await store.close();
  });

  it("rolls a replace back whole when the database fails part-way", async () => {
    const tablePrefix = "poisoned_";
    const conversationId = uniqueId("poison");
    const store = createPostgresHistoryStore({ pool, schema, tablePrefix, conversationId });
    await store.append(user("old 1"));
    await store.append(user("old 2"));
    await pool.query(`CREATE FUNCTION "${schema}".refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.message::text LIKE '%poison%' THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END $$`);
    await pool.query(`CREATE TRIGGER refuse_poison BEFORE INSERT ON "${schema}".poisoned_messages
      FOR EACH ROW EXECUTE FUNCTION "${schema}".refuse_poison()`);
    const failure = await store
      .replace([user("new 1"), user("new 2"), user("poison")])
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(HistoryStoreError);
    expect((failure as Error).message).toContain("injected failure");
    expect(await createPostgresHistoryStore({ pool, schema, tablePrefix, conversationId }).load()).toEqual([
      user("old 1"),
      user("old 2"),
    ]);
    await store.append(user("old 3"));
    expect(await store.load()).toEqual([user("old 1"), user("old 2"), user("old 3")]);
    await expect(store.append(user("poison"))).rejects.toBeInstanceOf(HistoryStoreError);
    expect(await store.load()).toEqual([user("old 1"), user("old 2"), user("old 3")]);
    await store.close();
  });

  it("lists, deletes and forks conversations", async () => {
    const tablePrefix = "manage_";
    const originalId = uniqueId("original");
    const otherId = uniqueId("other");
    const copyId = uniqueId("copy");
    const store = createPostgresHistoryStore({ pool, schema, tablePrefix, conversationId: originalId });
    await store.append(user("one"));
    await store.append(user("two"));
    const other = createPostgresHistoryStore({ pool, schema, tablePrefix, conversationId: otherId });
    await other.append(user("elsewhere"));

    const fork = await store.fork(copyId);
    expect(fork.conversationId).toBe(copyId);
    expect(await fork.load()).toEqual([user("one"), user("two")]);
    await fork.append(user("only in the fork"));
    await store.append(user("only in the original"));
    expect(await store.load()).toEqual([user("one"), user("two"), user("only in the original")]);
    expect(await fork.load()).toEqual([user("one"), user("two"), user("only in the fork")]);
    await expect(store.fork(otherId)).rejects.toBeInstanceOf(InvalidOptionError);

    const listed = await store.listConversations();
    expect(listed.map((info) => [info.conversationId, info.messageCount]).sort()).toEqual(
      [
        [copyId, 3],
        [originalId, 3],
        [otherId, 1],
      ].sort(),
    );
    expect(listed.every((info) => info.updatedAt instanceof Date)).toBe(true);

    expect(await store.deleteConversation(otherId)).toBe(true);
    expect(await store.deleteConversation(otherId)).toBe(false);
    await expect(other.append(user("deleted under me"))).rejects.toBeInstanceOf(ConversationConflictError);
    expect(await store.deleteConversation()).toBe(true);
    expect(await store.load()).toEqual([]);
    await store.append(user("starting over"));
    expect(await store.load()).toEqual([user("starting over")]);
    await Promise.all([store.close(), fork.close(), other.close()]);
  });

  it("survives its connection being killed in the middle of a replace: the write fails, the process does not", async () => {
    // A checked-out pg client emits 'error' when its connection ends; with no listener that event
    // would be an uncaught exception (vitest reports it and the run fails).
    const applicationName = `agent_lattice_killed_${randomBytes(5).toString("hex")}`;
    const url = new URL(connectionString);
    url.searchParams.set("application_name", applicationName);
    const own = new pg.Pool({ connectionString: url.toString(), max: 2 });
    own.on("error", () => undefined);
    const tablePrefix = "killed_";
    const conversationId = uniqueId("killed");
    const store = createPostgresHistoryStore({ pool: own, schema, tablePrefix, conversationId });
    try {
      await store.append(user("one"));
      await pool.query(`CREATE FUNCTION "${schema}".stall() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.message::text LIKE '%stall%' THEN PERFORM pg_sleep(30); END IF; RETURN NEW; END $$`);
      await pool.query(`CREATE TRIGGER stall BEFORE INSERT ON "${schema}".killed_messages
        FOR EACH ROW EXECUTE FUNCTION "${schema}".stall()`);
      const replacing = store.replace([user("one"), user("stall")]).catch((error: unknown) => error);
      const stalled = `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE application_name = $1 AND state = 'active' AND query LIKE '%INSERT%'`;
      while (!(await pool.query(stalled, [applicationName])).rowCount) await sleep(20);
      const failure = await replacing;
      expect(failure).toBeInstanceOf(HistoryStoreError);
      expect((failure as Error).message).toContain("terminating connection");
      await pool.query(`DROP TRIGGER stall ON "${schema}".killed_messages`);
      expect(await store.load()).toEqual([user("one")]);
      await store.append(user("two"));
      expect(await store.load()).toEqual([user("one"), user("two")]);
    } finally {
      await store.close();
      await own.end();
    }
  });

  it("reports a replace conflict on a pool of one connection (the transaction holds it)", async () => {
    const single = new pg.Pool({ connectionString, max: 1 });
    single.on("error", () => undefined);
    const conversationId = uniqueId("single");
    const winner = createPostgresHistoryStore({ pool: single, schema, conversationId });
    const loser = createPostgresHistoryStore({ pool: single, schema, conversationId });
    try {
      await winner.append(user("first"));
      await loser.load();
      await winner.append(user("winner"));
      const conflict = await loser.replace([user("loser")]).catch((error: unknown) => error);
      expect(conflict).toBeInstanceOf(ConversationConflictError);
      expect((conflict as Error).message).toContain("stored version 2, this store expected 1");
      expect(await winner.load()).toEqual([user("first"), user("winner")]);
    } finally {
      await Promise.all([winner.close(), loser.close()]);
      await single.end();
    }
  });

  it("ends a pool it opened itself once the store and its forks are closed, and never a given pool", async () => {
    const store = createPostgresHistoryStore({
      connectionString,
      schema,
      conversationId: uniqueId("own-pool"),
    });
    await store.append(user("hello"));
    const fork = await store.fork(uniqueId("own-pool-fork"));
    await store.close();
    expect(await fork.load()).toEqual([user("hello")]);
    await fork.close();
    await expect(fork.load()).rejects.toBeInstanceOf(HistoryStoreError);

    const given = createPostgresHistoryStore({ pool, schema, conversationId: uniqueId("given-pool") });
    await given.append(user("x"));
    await given.close();
    expect((await pool.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
  });

  it(
    "survives the server ending an idle connection of a pool it opened (connectionString), and reconnects",
    async () => {
      const applicationName = `agent_lattice_idle_${randomBytes(5).toString("hex")}`;
      const url = new URL(processes.postgresUrl);
      url.searchParams.set("application_name", applicationName);
      const child = startChild(processes.childScript, {
        connectionString: url.toString(),
        schema: processes.schema,
        conversationId: uniqueId("idle"),
      });
      await child.waitForLine((line) => line === "idle");
      const backends = `SELECT pid FROM pg_stat_activity WHERE application_name = $1`;
      const { rowCount } = await pool.query(`SELECT pg_terminate_backend(pid) FROM (${backends}) b`, [
        applicationName,
      ]);
      expect(rowCount).toBeGreaterThan(0);
      // Once the backends are gone the child's idle client has its "terminating connection" error.
      await child.waitForLine((line) => line === "dropped");
      child.process.stdin.on("error", () => undefined); // the child may be gone already
      child.process.stdin.end("load again\n");
      const exit = await child.exited;
      expect({ exit, lines: child.lines, stderr: child.stderr() }).toEqual({
        exit: { code: 0, signal: null },
        lines: ["idle", "dropped", "loaded 1"],
        stderr: "",
      });
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it("creates its schema once even when many stores start together", async () => {
    const startTogether = `race_${randomBytes(3).toString("hex")}_`;
    const stores = Array.from({ length: 6 }, (_, index) =>
      createPostgresHistoryStore({
        connectionString,
        schema,
        tablePrefix: startTogether,
        conversationId: `c${index}`,
      }),
    );
    await Promise.all(stores.map((store, index) => store.append(user(`message ${index}`))));
    expect(await stores[3]!.load()).toEqual([user("message 3")]);
    await Promise.all(stores.map((store) => store.close()));
  });

  it("refuses conversation ids with a lone surrogate: the row would be the same as another id's", async () => {
    // pg sends text as UTF-8, where every lone surrogate becomes U+FFFD: "a\ud800" and "a\udc00"
    // would read and write one conversation.
    expect(() => createPostgresHistoryStore({ pool, schema, conversationId: "a\ud800" })).toThrow(TypeError);
    const store = createPostgresHistoryStore({ pool, schema, conversationId: uniqueId("surrogate") });
    await expect(Promise.resolve().then(() => store.fork("b\udc00"))).rejects.toBeInstanceOf(TypeError);
    await expect(Promise.resolve().then(() => store.deleteConversation("b\udc00"))).rejects.toBeInstanceOf(
      TypeError,
    );
    await store.close();
  });

  it("refuses a conversation id holding NUL when created, instead of failing every write", async () => {
    // PostgreSQL text cannot hold NUL ("invalid byte sequence for encoding UTF8: 0x00").
    expect(() => createPostgresHistoryStore({ pool, schema, conversationId: "a\u0000b" })).toThrow(TypeError);
    const store = createPostgresHistoryStore({ pool, schema, conversationId: uniqueId("nul") });
    await expect(Promise.resolve().then(() => store.fork("b\u0000"))).rejects.toBeInstanceOf(TypeError);
    await expect(Promise.resolve().then(() => store.deleteConversation("b\u0000"))).rejects.toBeInstanceOf(
      TypeError,
    );
    await store.close();
  });

  it("rejects bad options", () => {
    expect(() => createPostgresHistoryStore({ conversationId: "c" })).toThrow(InvalidOptionError);
    expect(() => createPostgresHistoryStore({ pool, conversationId: "" })).toThrow(TypeError);
    expect(() => createPostgresHistoryStore({ pool, conversationId: "c", schema: 'x"; DROP' })).toThrow(
      InvalidOptionError,
    );
    expect(() => createPostgresHistoryStore({ pool, connectionString, conversationId: "c" })).toThrow(
      InvalidOptionError,
    );
  });
});
