import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConversationConflictError, HistoryStoreError, InvalidOptionError } from "../../../src/errors";
import { createRedisHistoryStore } from "../../../src/integrations/stores/redis";
import { runHistoryStoreConformance } from "../../../src/testing/store-conformance";
import { user } from "../../support/content";

/** The real server; these tests fail (never skip) when it is not there. */
const url = process.env.AGENT_LATTICE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
/** A key prefix of our own per run, so parallel runs never collide; its keys are deleted at the end. */
const keyPrefix = `agent-lattice-test:${randomBytes(5).toString("hex")}:`;
const client = new Redis(url, { maxRetriesPerRequest: 2 });

async function deleteKeys(pattern: string): Promise<void> {
  const keys = await client.keys(pattern);
  if (keys.length > 0) await client.del(...keys);
}

beforeAll(async () => {
  expect(await client.ping()).toBe("PONG");
});
afterAll(async () => {
  await deleteKeys(`${keyPrefix}*`);
  await client.quit();
});

runHistoryStoreConformance(
  "Redis",
  (conversation) => createRedisHistoryStore({ client, keyPrefix, conversationId: conversation }),
  {
    describe,
    it,
    expect,
    replaceTail: true,
    cleanup: (conversation) => deleteKeys(`${keyPrefix}{${conversation}}*`),
  },
);

const uniqueId = (label: string) => `${label}-${randomBytes(6).toString("hex")}`;

describe("createRedisHistoryStore", () => {
  it("keeps a conversation as a JSON list and a version hash under one hash tag", async () => {
    const conversationId = uniqueId("layout");
    const store = createRedisHistoryStore({ client, keyPrefix, conversationId });
    await store.append(user("a"));
    await store.append(user("b"));
    await store.replace([user("c")]);
    await store.append(user("d"));
    expect(await client.lrange(`${keyPrefix}{${conversationId}}:messages`, 0, -1)).toEqual([
      '{"role":"user","content":"c"}',
      '{"role":"user","content":"d"}',
    ]);
    expect(await client.hget(`${keyPrefix}{${conversationId}}:meta`, "version")).toBe("4");
    expect(await client.exists(`${keyPrefix}{${conversationId}}:replacing`)).toBe(0);
    await store.close();
  });

  it("renews the expiry of both keys on every write with ttlSeconds", async () => {
    const conversationId = uniqueId("ttl");
    const store = createRedisHistoryStore({ client, keyPrefix, conversationId, ttlSeconds: 600 });
    await store.append(user("a"));
    const messagesKey = `${keyPrefix}{${conversationId}}:messages`;
    await client.expire(messagesKey, 5);
    await store.append(user("b"));
    expect(await client.ttl(messagesKey)).toBeGreaterThan(500);
    expect(await client.ttl(`${keyPrefix}{${conversationId}}:meta`)).toBeGreaterThan(500);
    await store.close();
  });

  it("treats an expired conversation as a conflict that says so", async () => {
    const conversationId = uniqueId("expired");
    const store = createRedisHistoryStore({ client, keyPrefix, conversationId, ttlSeconds: 600 });
    await store.append(user("a"));
    await client.del(`${keyPrefix}{${conversationId}}:meta`, `${keyPrefix}{${conversationId}}:messages`);
    const error = await store.append(user("b")).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConversationConflictError);
    expect((error as Error).message).toContain("expired");
    expect(await store.load()).toEqual([]);
    await store.append(user("c"));
    expect(await store.load()).toEqual([user("c")]);
    await store.close();
  });

  it("lists, deletes and forks conversations", async () => {
    const prefix = `${keyPrefix}manage:`;
    const originalId = uniqueId("original");
    const otherId = uniqueId("other*[odd]");
    const copyId = uniqueId("copy");
    const store = createRedisHistoryStore({ client, keyPrefix: prefix, conversationId: originalId });
    await store.append(user("one"));
    await store.append(user("two"));
    const other = createRedisHistoryStore({ client, keyPrefix: prefix, conversationId: otherId });
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
    expect(
      listed.every((info) => info.updatedAt instanceof Date && !Number.isNaN(info.updatedAt.getTime())),
    ).toBe(true);

    expect(await store.deleteConversation(otherId)).toBe(true);
    expect(await store.deleteConversation(otherId)).toBe(false);
    await expect(other.append(user("deleted under me"))).rejects.toBeInstanceOf(ConversationConflictError);
    expect(await store.deleteConversation()).toBe(true);
    expect(await store.load()).toEqual([]);
    await store.append(user("starting over"));
    expect(await store.load()).toEqual([user("starting over")]);
    await Promise.all([store.close(), fork.close(), other.close()]);
  });

  it("quits a client it opened itself once the store and its forks are closed, and never a given client", async () => {
    const store = createRedisHistoryStore({ url, keyPrefix, conversationId: uniqueId("own-client") });
    await store.append(user("hello"));
    const fork = await store.fork(uniqueId("own-client-fork"));
    await store.close();
    expect(await fork.load()).toEqual([user("hello")]);
    await fork.close();
    await expect(fork.load()).rejects.toBeInstanceOf(HistoryStoreError);

    const given = createRedisHistoryStore({ client, keyPrefix, conversationId: uniqueId("given-client") });
    await given.append(user("x"));
    await given.close();
    expect(await client.ping()).toBe("PONG");
  });

  it("works when the server has flushed its script cache", async () => {
    const store = createRedisHistoryStore({ client, keyPrefix, conversationId: uniqueId("noscript") });
    await store.append(user("one"));
    await client.script("FLUSH");
    await store.append(user("two"));
    expect(await store.load()).toEqual([user("one"), user("two")]);
    await store.close();
  });

  it("refuses conversation ids with a lone surrogate: the key would be the same as another id's", async () => {
    // ioredis sends keys as UTF-8, where every lone surrogate becomes U+FFFD: "a\ud800" and "a\udc00"
    // would read and write one conversation.
    expect(() => createRedisHistoryStore({ client, keyPrefix, conversationId: "a\ud800" })).toThrow(
      TypeError,
    );
    const store = createRedisHistoryStore({ client, keyPrefix, conversationId: uniqueId("surrogate") });
    await expect(Promise.resolve().then(() => store.fork("b\udc00"))).rejects.toBeInstanceOf(TypeError);
    await expect(Promise.resolve().then(() => store.deleteConversation("b\udc00"))).rejects.toBeInstanceOf(
      TypeError,
    );
    expect(() =>
      createRedisHistoryStore({ client, keyPrefix, conversationId: "emoji \u{1F600} ok" }),
    ).not.toThrow();
    await store.close();
  });

  it("rejects bad options", () => {
    expect(() => createRedisHistoryStore({ conversationId: "c" })).toThrow(InvalidOptionError);
    expect(() => createRedisHistoryStore({ client, conversationId: "" })).toThrow(TypeError);
    expect(() => createRedisHistoryStore({ client, conversationId: "c", ttlSeconds: -1 })).toThrow(
      InvalidOptionError,
    );
    expect(() => createRedisHistoryStore({ client, url, conversationId: "c" })).toThrow(InvalidOptionError);
  });
});
