/**
 * Expired paused authorizations go away by themselves, against the real backends (a file, Redis,
 * PostgreSQL, SQLite; unique names per run) and the memory store: recorded with a short lifetime,
 * an abandoned pause is gone after the next pause is recorded (Redis: once its key expired);
 * unexpired pauses and token records stay — also when two clients record pauses at once.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import type { McpTokenStore } from "../../../src/integrations/mcp/oauth/auth-options";
import { createMemoryTokenStore } from "../../../src/integrations/mcp/oauth/memory-token-store";
import {
  pausedAuthorizationKey,
  recordPausedAuthorization,
} from "../../../src/integrations/mcp/oauth/paused-authorization";
import { createMcpTokenStore } from "../../../src/integrations/mcp/oauth/token-stores";

const runId = randomBytes(5).toString("hex");
const postgresUrl = process.env.AGENT_LATTICE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const redisUrl = process.env.AGENT_LATTICE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const table = `agent_lattice_mcp_expiry_${runId}`;
const redisPrefix = `agent-lattice-test-mcp-expiry:${runId}:`;
// Two of each client: two processes of a fleet over the same place.
const pools = [0, 1].map(() => new pg.Pool({ connectionString: postgresUrl }));
const redises = [0, 1].map(() => new Redis(redisUrl, { maxRetriesPerRequest: 2 }));
const folder = mkdtempSync(join(tmpdir(), "lattice-mcp-expiry-"));
const databases: Database.Database[] = [];
const memory = createMemoryTokenStore();

afterAll(async () => {
  await pools[0]!.query(`DROP TABLE IF EXISTS ${table}`);
  await Promise.all(pools.map((pool) => pool.end()));
  const keys = await redises[0]!.keys(`${redisPrefix}*`);
  if (keys.length > 0) await redises[0]!.del(...keys);
  for (const redis of redises) redis.disconnect();
  for (const database of databases) database.close();
  rmSync(folder, { recursive: true, force: true });
});

let opened = 0;
/** Each call opens a store over the place, alternating between the two clients. */
const places: Record<string, () => McpTokenStore> = {
  file: () => createMcpTokenStore({ path: join(folder, "tokens.json") }),
  redis: () => createMcpTokenStore({ redis: redises[opened++ % 2]!, keyPrefix: redisPrefix }),
  postgres: () => createMcpTokenStore({ postgres: pools[opened++ % 2]!, table }),
  sqlite: () => {
    const database = new Database(join(folder, "tokens.db"));
    database.pragma("busy_timeout = 5000");
    databases.push(database);
    return createMcpTokenStore({ sqlite: database, table });
  },
  memory: () => memory,
};

/** Records a pause of `name` that expires `lifetimeMs` from now; its key and expiry. */
async function pause(store: McpTokenStore, name: string, lifetimeMs: number) {
  const now = Date.now();
  const expiresAt = new Date(now + lifetimeMs).toISOString();
  await recordPausedAuthorization(store, `${runId} ${name}`, {
    server: "crm",
    serverUrl: "https://mcp.crm.example.com/mcp",
    redirectUri: "https://app.example.com/oauth/callback",
    codeVerifier: `verifier of ${name}`,
    createdAt: new Date(now).toISOString(),
    expiresAt,
  });
  return { key: pausedAuthorizationKey(`${runId} ${name}`), expiry: Date.parse(expiresAt) };
}

/** Waits until every one of `expiries` has passed (a few milliseconds past the latest). */
async function pastExpiry(expiries: number[]): Promise<void> {
  const wait = Math.max(...expiries) + 5 - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}

/** Retries `check` until it passes, for Redis's expiry: a generous deadline, not a fixed wait. */
async function eventually(check: () => Promise<void>, deadlineMs = 10_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

const LONG = 600_000;

describe.each(Object.entries(places))("expired paused authorizations (%s)", (name, open) => {
  const expires = name === "redis" ? "by its key's expiry" : "when the next pause is recorded";
  // Redis deletes on its own clock: polled. The others delete within the recording: checked at once.
  const settled = name === "redis" ? eventually : (check: () => Promise<void>) => check();

  it(`deletes an expired pause ${expires}; unexpired pauses and token records stay`, async () => {
    const store = open();
    const tokenKey = `https://mcp.crm.example.com/mcp ${runId} ${name}`;
    await store.save(tokenKey, { tokens: { access_token: "at-1" } });
    // Not a pause's key: kept whatever its content says.
    const oddKey = `${tokenKey} odd`;
    const odd = { authorization: { expiresAt: "2000-01-01T00:00:00.000Z" } } as never;
    await store.save(oddKey, odd);
    const stale = await pause(store, `${name} stale`, 100);
    const waiting = await pause(store, `${name} waiting`, LONG);
    await pastExpiry([stale.expiry]);
    if (name !== "redis") {
      // Still there until a pause is recorded: its callback is then refused `expired`.
      expect((await open().load(stale.key))?.authorization?.expiresAt).toBe(
        new Date(stale.expiry).toISOString(),
      );
      const fresh = await pause(open(), `${name} fresh`, LONG);
      expect(await open().load(stale.key)).toBeUndefined();
      expect(await open().load(fresh.key)).toBeDefined();
    }
    await settled(async () => expect(await open().load(stale.key)).toBeUndefined());
    expect((await open().load(waiting.key))?.authorization?.codeVerifier).toBe(`verifier of ${name} waiting`);
    expect(await open().load(tokenKey)).toEqual({ tokens: { access_token: "at-1" } });
    expect(await open().load(oddKey)).toEqual(odd);
  });

  it("loses no fresh pause when two clients record pauses at once over expired ones", async () => {
    const [first, second] = [open(), open()];
    const stale = await Promise.all([0, 1, 2, 3].map((index) => pause(first, `${name} old ${index}`, 50)));
    await pastExpiry(stale.map((old) => old.expiry));
    const fresh = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        pause(index % 2 === 0 ? first : second, `${name} new ${index}`, LONG),
      ),
    );
    for (const { key } of fresh) expect(await open().load(key)).toBeDefined();
    await settled(async () => {
      for (const { key } of stale) expect(await open().load(key)).toBeUndefined();
    });
  });
});

describe("expired paused authorizations in Redis", () => {
  it("gives a pause's key the pause's lifetime, and a token record's key none", async () => {
    const store = createMcpTokenStore({ redis: redises[0]!, keyPrefix: redisPrefix });
    const tokenKey = `https://mcp.crm.example.com/mcp ${runId} ttl`;
    await store.save(tokenKey, { tokens: { access_token: "at-1" } });
    const waiting = await pause(store, "ttl waiting", LONG);
    const left = await redises[1]!.pttl(redisPrefix + waiting.key);
    expect(left).toBeGreaterThan(LONG - 60_000);
    expect(left).toBeLessThanOrEqual(LONG);
    expect(await redises[1]!.pttl(redisPrefix + tokenKey)).toBe(-1);
  });
});
