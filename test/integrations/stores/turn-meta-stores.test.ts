/**
 * Turn metadata (`meta`) is kept by every store — JSONL, SQLite, PostgreSQL, Redis and a
 * `defineHistoryStore` — read back by a fresh store, and carried into a fork.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createAgent,
  createJsonlHistoryStore,
  defineHistoryStore,
  defineTool,
  type HistoryStore,
  type ModelMessage,
} from "../../../src/index";
import { createPostgresHistoryStore } from "../../../src/integrations/stores/postgres";
import { createRedisHistoryStore } from "../../../src/integrations/stores/redis";
import { createSqliteHistoryStore } from "../../../src/integrations/stores/sqlite";
import { createScriptedClient } from "../../../src/testing/index";
import { toolUse } from "../../support/content";

const POSTGRES_URL = process.env.AGENT_LATTICE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const REDIS_URL = process.env.AGENT_LATTICE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const runId = randomBytes(5).toString("hex");
const schema = `agent_lattice_turn_meta_${runId}`;
const keyPrefix = `agent-lattice-turn-meta:${runId}:`;
let folder = "";

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "turn-meta-stores-"));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
  const pool = new pg.Pool({ connectionString: POSTGRES_URL });
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${keyPrefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

const lookup = defineTool({
  name: "lookup",
  description: "Looks up",
  inputSchema: z.object({ word: z.string() }),
  execute: ({ word }) => `${word}: found`,
});

/** Runs a tool round trip into `store` and returns what the agent handed over as history. */
async function recordInto(store: HistoryStore): Promise<ModelMessage[]> {
  const client = createScriptedClient([
    {
      content: [toolUse("t1", "lookup", { word: "lattice" })],
      usage: { input_tokens: 900, output_tokens: 30 },
    },
    { content: "Found.", usage: { input_tokens: 950, output_tokens: 5 } },
  ]);
  const agent = createAgent({ model: "claude-sonnet-4-6", client, tools: [lookup], historyStore: store });
  expect((await agent.prompt("Look it up.")).subtype).toBe("success");
  const history = await agent.getHistory();
  await agent.close();
  return history;
}

function expectMeta(history: readonly ModelMessage[]): void {
  expect(history).toHaveLength(4);
  expect(history[1]?.meta).toMatchObject({ latency_ms: expect.any(Number), cost_usd: expect.any(Number) });
  expect(history[2]?.meta).toEqual({ tool_durations_ms: { t1: expect.any(Number) } });
  expect(history[3]?.meta?.started_at).toMatch(/^\d{4}-\d\d-\d\dT/);
}

interface StoreKind {
  name: string;
  open(conversationId: string): HistoryStore & { fork?(id: string): Promise<HistoryStore> };
}

const kinds: StoreKind[] = [
  { name: "JSONL", open: (id) => createJsonlHistoryStore({ path: join(folder, `${id}.jsonl`) }) },
  {
    name: "SQLite",
    open: (id) => createSqliteHistoryStore({ path: join(folder, "meta.db"), conversationId: id }),
  },
  {
    name: "PostgreSQL",
    open: (id) => createPostgresHistoryStore({ connectionString: POSTGRES_URL, schema, conversationId: id }),
  },
  { name: "Redis", open: (id) => createRedisHistoryStore({ url: REDIS_URL, keyPrefix, conversationId: id }) },
];

describe.each(kinds)("turn metadata in the $name store", ({ open }) => {
  it("is stored with the messages, read back by a fresh store, and carried into a fork", async () => {
    const recorded = await recordInto(open("meta-a"));
    expectMeta(recorded);
    const fresh = open("meta-a");
    expect(await fresh.load()).toEqual(recorded);
    if (fresh.fork) {
      const forked = await fresh.fork("meta-a-fork");
      expect(await forked.load()).toEqual(recorded);
      await forked.close?.();
    }
    await fresh.close?.();
  });
});

describe("turn metadata in a defineHistoryStore", () => {
  it("reaches the custom store whole", async () => {
    let rows: string[] = [];
    const store = defineHistoryStore({
      load: async () => rows.map((row) => JSON.parse(row) as ModelMessage),
      append: async (message) => {
        rows.push(JSON.stringify(message));
      },
      replace: async (messages) => {
        rows = messages.map((message) => JSON.stringify(message));
      },
    });
    const recorded = await recordInto(store);
    expectMeta(recorded);
    expect(await store.load()).toEqual(recorded);
  });
});
