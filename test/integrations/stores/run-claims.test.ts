/**
 * Run claims of the durable stores (JSONL, SQLite, PostgreSQL, Redis, against the real services): one
 * holder at a time per conversation, across store instances (connections) as across processes;
 * renewal by the holder only; release frees it; an expired claim can be taken, and its old holder
 * learns it lost it on its next renewal. And `Agent.claimRun()` over a store that cannot claim.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent } from "../../../src/agent/create-agent";
import { createJsonlHistoryStore } from "../../../src/history/jsonl";
import { defineHistoryStore, type HistoryStore } from "../../../src/history/store";
import { createPostgresHistoryStore } from "../../../src/integrations/stores/postgres";
import { createRedisHistoryStore } from "../../../src/integrations/stores/redis";
import { createSqliteHistoryStore } from "../../../src/integrations/stores/sqlite";
import { createScriptedClient } from "../../../src/testing/scripted-client";

const postgresUrl = process.env.AGENT_LATTICE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const redisUrl = process.env.AGENT_LATTICE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const runId = randomBytes(5).toString("hex");
const schema = `agent_lattice_claims_${runId}`;
const keyPrefix = `agent-lattice-claims:${runId}:`;
let folder = "";

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "run-claims-"));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
  const pool = new pg.Pool({ connectionString: postgresUrl });
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
  const redis = new Redis(redisUrl);
  const keys = await redis.keys(`${keyPrefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

const stores: Record<string, (conversationId: string) => HistoryStore & { close(): Promise<void> }> = {
  jsonl: (conversationId) =>
    createJsonlHistoryStore({ path: join(folder, "jsonl", `${conversationId}.jsonl`) }),
  sqlite: (conversationId) => createSqliteHistoryStore({ path: join(folder, "claims.db"), conversationId }),
  postgres: (conversationId) =>
    createPostgresHistoryStore({ connectionString: postgresUrl, schema, conversationId }),
  redis: (conversationId) => createRedisHistoryStore({ url: redisUrl, keyPrefix, conversationId }),
};

/** Resolves once the clock has moved `ms` past now (a claim of that time to live has expired). */
async function pastMs(ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) await new Promise((resolve) => setTimeout(resolve, until - Date.now()));
}

describe.each(Object.keys(stores))("run claims over %s", (kind) => {
  it("one holder at a time, across store instances; released, it can be taken again", async () => {
    const first = stores[kind]!(`one-${kind}`);
    const second = stores[kind]!(`one-${kind}`);
    const other = stores[kind]!(`other-${kind}`);
    try {
      expect(await second.isRunClaimed!()).toBe(false);
      const claim = await first.claimRun!();
      expect(claim?.shared).toBe(true);
      expect(await second.isRunClaimed!()).toBe(true);
      expect(await other.isRunClaimed!()).toBe(false);
      expect(await second.claimRun!()).toBeUndefined();
      const otherClaim = await other.claimRun!(); // another conversation is free
      expect(otherClaim).toBeDefined();
      expect(await claim!.renew()).toBe(true);
      await claim!.release();
      await claim!.release(); // idempotent
      expect(await second.isRunClaimed!()).toBe(false);
      expect(await claim!.renew()).toBe(false);
      const again = await second.claimRun!();
      expect(again).toBeDefined();
      await again!.release();
      await otherClaim!.release();
    } finally {
      await Promise.all([first.close(), second.close(), other.close()]);
    }
  });

  it("an expired claim can be taken; its old holder's renewal then fails and its release frees nothing", async () => {
    const first = stores[kind]!(`expired-${kind}`);
    const second = stores[kind]!(`expired-${kind}`);
    try {
      const stale = await first.claimRun!({ ttlMs: 50 });
      expect(stale).toBeDefined();
      await pastMs(120);
      expect(await second.isRunClaimed!()).toBe(false); // expired: nobody runs it
      const taken = await second.claimRun!({ ttlMs: 60_000 });
      expect(taken).toBeDefined();
      expect(await stale!.renew()).toBe(false);
      await stale!.release(); // not the holder any more: the new claim stays
      expect(await first.claimRun!()).toBeUndefined();
      await taken!.release();
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });
});

describe("Agent.claimRun", () => {
  it("goes through a store that can claim: two Agents over one conversation, one claim", async () => {
    const agentOver = () =>
      createAgent({
        model: "claude-test",
        client: createScriptedClient([]),
        historyStore: stores.sqlite!("agents"),
      });
    const [first, second] = [agentOver(), agentOver()];
    const claim = await first.claimRun();
    expect(claim?.shared).toBe(true);
    expect(await second.claimRun()).toBeUndefined();
    await claim!.release();
    expect(await second.claimRun()).toBeDefined();
    await Promise.all([first.close(), second.close()]);
  });

  it("defineHistoryStore passes claimRun and isRunClaimed through", async () => {
    const inner = stores.jsonl!("defined");
    const defined = defineHistoryStore(inner);
    const claim = await defined.claimRun!();
    expect(claim?.shared).toBe(true);
    expect(await defined.isRunClaimed!()).toBe(true);
    await claim!.release();
    expect(await defined.isRunClaimed!()).toBe(false);
    const plain = defineHistoryStore({
      load: async () => [],
      append: async () => {},
      replace: async () => {},
    });
    expect(plain.isRunClaimed).toBeUndefined();
    await inner.close();
  });

  it("holds within the Agent when its store cannot claim (in memory)", async () => {
    const agent = createAgent({ model: "claude-test", client: createScriptedClient([]) });
    const claim = await agent.claimRun();
    expect(claim?.shared).toBe(false);
    expect(await agent.claimRun()).toBeUndefined();
    expect(await claim!.renew()).toBe(true);
    await claim!.release();
    expect(await claim!.renew()).toBe(false);
    expect(await agent.claimRun()).toBeDefined();
  });
});
