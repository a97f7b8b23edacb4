/**
 * A provider's server compaction across a store round trip, for all four stores against the real
 * services (JSONL file, SQLite, PostgreSQL, Redis; unique conversation ids, schema and key prefix):
 * one agent runs until the mock server compacts, a second agent on a fresh store instance loads
 * the history and sends the `compaction` block back — the mock refuses one not returned byte for
 * byte (its signature), and reads the conversation from it on.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type CompactionBlock,
  createAgent,
  createAnthropicClient,
  createJsonlHistoryStore,
  defineTool,
  type HistoryStore,
  type ModelMessage,
} from "../../../src/index";
import { createPostgresHistoryStore } from "../../../src/integrations/stores/postgres";
import { createRedisHistoryStore } from "../../../src/integrations/stores/redis";
import { createSqliteHistoryStore } from "../../../src/integrations/stores/sqlite";
import { type MockAnthropicServer, startMockAnthropicServer } from "../../../src/testing";
import { temporaryFolder } from "../../support/temporary-folders";

const runId = randomBytes(5).toString("hex");
const postgresUrl = process.env.AGENT_LATTICE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const redisUrl = process.env.AGENT_LATTICE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const schema = `agent_lattice_compaction_${runId}`;
const keyPrefix = `agent-lattice-compaction:${runId}:`;
const pool = new pg.Pool({ connectionString: postgresUrl });
const redis = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
const servers: MockAnthropicServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

afterAll(async () => {
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
  const keys = await redis.keys(`${keyPrefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

const read = defineTool({
  name: "read",
  description: "Reads a file.",
  inputSchema: z.object({ file: z.number() }),
  readOnly: true,
  execute: (input: { file: number }) => `file ${input.file}: ${"lorem ipsum dolor sit amet ".repeat(740)}`,
});

const stores: Array<[string, (folder: string, conversationId: string) => HistoryStore]> = [
  ["JSONL", (folder, id) => createJsonlHistoryStore({ path: join(folder, `${id}.jsonl`) })],
  [
    "SQLite",
    (folder, id) => createSqliteHistoryStore({ path: join(folder, "compaction.db"), conversationId: id }),
  ],
  ["PostgreSQL", (_folder, id) => createPostgresHistoryStore({ pool, schema, conversationId: id })],
  ["Redis", (_folder, id) => createRedisHistoryStore({ client: redis, keyPrefix, conversationId: id })],
];

function compactionBlocks(messages: readonly ModelMessage[]): CompactionBlock[] {
  return messages.flatMap((message) =>
    typeof message.content === "string"
      ? []
      : message.content.filter((block): block is CompactionBlock => block.type === "compaction"),
  );
}

describe.each(stores)("a server compaction through the %s store", (_name, openStore) => {
  it("is loaded as recorded and sent back byte for byte by a fresh agent", async () => {
    const folder = temporaryFolder("compaction-stores-");
    const conversationId = `compaction-${randomBytes(6).toString("hex")}`;
    let reads = 0;
    const server = await startMockAnthropicServer({
      handler: () =>
        reads < 14
          ? { content: [{ type: "tool_use", id: `call_${reads}`, name: "read", input: { file: reads++ } }] }
          : { content: "All read." },
    });
    servers.push(server);
    const agentOn = (store: HistoryStore) =>
      createAgent({
        model: "claude-sonnet-4-6",
        client: createAnthropicClient({ apiKey: "sk-compaction-stores", baseURL: server.url }),
        tools: [read],
        historyStore: store,
        autoCompact: { where: "provider", thresholdTokens: 50_000 },
      });
    const first = agentOn(openStore(folder, conversationId));
    expect((await first.prompt("Read them all.")).subtype).toBe("success");
    const recorded = compactionBlocks(await first.getHistory());
    expect(recorded).toHaveLength(1);
    await first.close();

    server.setHandler(() => ({ content: "Still here." }));
    const second = agentOn(openStore(folder, conversationId));
    const before = server.requests.length;
    expect((await second.prompt("Go on.")).result).toBe("Still here.");
    const loaded = compactionBlocks(await second.getHistory());
    expect(loaded).toEqual(recorded);
    expect(JSON.stringify(loaded)).toBe(JSON.stringify(recorded)); // field order too
    expect(compactionBlocks(server.requests[before]!.body.messages)).toEqual(recorded);
    await second.close();
  });
});
