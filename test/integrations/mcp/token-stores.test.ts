/**
 * createMcpTokenStore: the same behaviour from a file, Redis, PostgreSQL and SQLite (the real
 * services, unique names per run) — save, load back, overwrite, delete, and a second store over
 * the same place (another process of a fleet) sees what the first saved.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { InvalidOptionError } from "../../../src/errors";
import type { McpTokenStore } from "../../../src/integrations/mcp/oauth/auth-options";
import { createMcpTokenStore } from "../../../src/integrations/mcp/oauth/token-stores";
import { temporaryFolder } from "../../support/temporary-folders";

const runId = randomBytes(5).toString("hex");
const postgresUrl = process.env.AGENT_LATTICE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const redisUrl = process.env.AGENT_LATTICE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const table = `agent_lattice_mcp_tokens_${runId}`;
const pool = new pg.Pool({ connectionString: postgresUrl });
const redis = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
const folder = mkdtempSync(join(tmpdir(), "lattice-mcp-tokens-"));
const sqlitePath = join(folder, "tokens.db");
const databases: Database.Database[] = [];

afterAll(async () => {
  await pool.query(`DROP TABLE IF EXISTS ${table}`);
  await pool.end();
  const keys = await redis.keys(`agent-lattice-test-mcp:${runId}:*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
  for (const database of databases) database.close();
  rmSync(folder, { recursive: true, force: true });
});

const tokenFile = join(folder, "nested", "tokens.json");
const places: Record<string, () => McpTokenStore> = {
  file: () => createMcpTokenStore({ path: tokenFile }),
  redis: () => createMcpTokenStore({ redis, keyPrefix: `agent-lattice-test-mcp:${runId}:` }),
  postgres: () => createMcpTokenStore({ postgres: pool, table }),
  sqlite: () => {
    const database = new Database(sqlitePath);
    databases.push(database);
    return createMcpTokenStore({ sqlite: database, table });
  },
};

describe.each(Object.entries(places))("createMcpTokenStore (%s)", (_name, open) => {
  it("saves, loads back, overwrites and deletes; another store over the same place sees it", async () => {
    const store = open();
    const key = `http://127.0.0.1/mcp ${runId}`;
    expect(await store.load(key)).toBeUndefined();
    await store.save(key, {
      tokens: { access_token: "at-1", refresh_token: "rt-1" },
      tokensSavedAt: "2026-12-06T00:00:00.000Z",
    });
    await store.save(`${key} other`, { client: { client_id: "c-2" } });
    const other = open();
    expect(await other.load(key)).toEqual({
      tokens: { access_token: "at-1", refresh_token: "rt-1" },
      tokensSavedAt: "2026-12-06T00:00:00.000Z",
    });
    await other.save(key, { tokens: { access_token: "at-2" } });
    expect(await store.load(key)).toEqual({ tokens: { access_token: "at-2" } });
    await store.delete(key);
    expect(await other.load(key)).toBeUndefined();
    expect(await other.load(`${key} other`)).toEqual({ client: { client_id: "c-2" } });
  });

  it("takes a key once: of eight takers over four store instances, one gets it", async () => {
    const key = `paused-authorization ${runId} ${_name}`;
    const record = { authorization: { server: "crm", codeVerifier: "v-1" } } as never;
    await open().save(key, record);
    const stores = [open(), open(), open(), open()];
    const taken = await Promise.all([...stores, ...stores].map((store) => store.take!(key)));
    expect(taken.filter((value) => value !== undefined)).toEqual([record]);
    expect(await open().load(key)).toBeUndefined();
    expect(await open().take!(key)).toBeUndefined();
  });
});

describe("createMcpTokenStore options", () => {
  it("keeps the file readable by its owner only, and parallel saves all land", async () => {
    const path = join(temporaryFolder("lattice-mcp-token-mode-"), "tokens.json");
    const store = createMcpTokenStore({ path });
    await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        store.save(`k${index}`, { tokens: { access_token: `t${index}` } }),
      ),
    );
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(Object.keys(JSON.parse(readFileSync(path, "utf8")))).toHaveLength(10);
  });

  it("refuses options naming no place, two places, or a table that is no plain identifier", () => {
    expect(() => createMcpTokenStore({} as never)).toThrow(InvalidOptionError);
    expect(() => createMcpTokenStore({ path: "a", redis } as never)).toThrow(InvalidOptionError);
    expect(() => createMcpTokenStore({ postgres: pool, table: "x; DROP TABLE y" })).toThrow(
      InvalidOptionError,
    );
  });
});
