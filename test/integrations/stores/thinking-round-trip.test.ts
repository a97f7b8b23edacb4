/**
 * Extended thinking across a store round trip, for all four stores against the real services
 * (JSONL file, SQLite, PostgreSQL, Redis; unique conversation ids, schema and key prefix): one
 * agent records a tool turn with thinking and redacted thinking, a second agent on the same store
 * loads it and sends it back — over HTTP to the mock server, whose thinking check refuses any
 * altered or dropped block.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createAgent,
  createAnthropicClient,
  createJsonlHistoryStore,
  defineTool,
  type HistoryStore,
} from "../../../src/index";
import { createPostgresHistoryStore } from "../../../src/integrations/stores/postgres";
import { createRedisHistoryStore } from "../../../src/integrations/stores/redis";
import { createSqliteHistoryStore } from "../../../src/integrations/stores/sqlite";
import { mockServerPerTest } from "../../support/mock-server";
import { temporaryFolder } from "../../support/temporary-folders";
import {
  expectThinkingSentBack,
  redacted,
  THINKING,
  THINKING_MAX_TOKENS,
  thinking,
  thinkingBlocks,
} from "../../support/thinking";

const runId = randomBytes(5).toString("hex");
const postgresUrl = process.env.AGENT_LATTICE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const redisUrl = process.env.AGENT_LATTICE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const schema = `agent_lattice_thinking_${runId}`;
const keyPrefix = `agent-lattice-thinking:${runId}:`;
const pool = new pg.Pool({ connectionString: postgresUrl });
const redis = new Redis(redisUrl, { maxRetriesPerRequest: 2 });

afterAll(async () => {
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
  const keys = await redis.keys(`${keyPrefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

const weather = defineTool({
  name: "get_weather",
  description: "Current weather of a city",
  readOnly: true,
  inputSchema: z.object({ city: z.string() }),
  execute: ({ city }) => `Sunny in ${city}`,
});

const stores: Array<[string, (folder: string, conversationId: string) => HistoryStore]> = [
  ["JSONL", (folder, id) => createJsonlHistoryStore({ path: join(folder, `${id}.jsonl`) })],
  [
    "SQLite",
    (folder, id) => createSqliteHistoryStore({ path: join(folder, "thinking.db"), conversationId: id }),
  ],
  ["PostgreSQL", (_folder, id) => createPostgresHistoryStore({ pool, schema, conversationId: id })],
  ["Redis", (_folder, id) => createRedisHistoryStore({ client: redis, keyPrefix, conversationId: id })],
];

describe.each(stores)("thinking through the %s store", (_name, openStore) => {
  const server = mockServerPerTest();

  it("loads the thinking blocks as recorded and sends them back byte for byte", async () => {
    const folder = temporaryFolder("thinking-stores-");
    const conversationId = `thinking-${randomBytes(6).toString("hex")}`;
    const turn = [thinking("store"), redacted("store"), { type: "text" as const, text: "Looking." }];
    server.enqueue(
      {
        content: [...turn, { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Bern" } }],
      },
      { content: [thinking("store2"), { type: "text", text: "Sunny." }] },
      {
        content: [
          redacted("later"),
          { type: "tool_use", id: "toolu_2", name: "get_weather", input: { city: "Bern" } },
        ],
      },
      { content: [{ type: "text", text: "Still sunny." }] },
    );
    const agentOn = (historyStore: HistoryStore) =>
      createAgent({
        model: "claude-sonnet-4-6",
        client: createAnthropicClient({ apiKey: "sk-thinking-store-key", baseURL: server.url }),
        tools: [weather],
        thinking: THINKING,
        maxTokens: THINKING_MAX_TOKENS,
        historyStore,
      });
    const first = agentOn(openStore(folder, conversationId));
    await first.prompt("Bern?");
    const recorded = await first.getHistory();
    await first.close();

    const second = agentOn(openStore(folder, conversationId));
    const loaded = await second.getHistory();
    expect(loaded).toEqual(recorded);
    expect(JSON.stringify(thinkingBlocks(loaded[1]!.content))).toBe(
      JSON.stringify([thinking("store"), redacted("store")]),
    );
    const result = await second.prompt("And later?");
    expect(result.subtype).toBe("success");
    expectThinkingSentBack(loaded, server.requests[2]!.body.messages);
    // The store holds the new turn's redacted thinking too, and gives it back to a third agent.
    const history = await second.getHistory();
    await second.close();
    const third = agentOn(openStore(folder, conversationId));
    expect(await third.getHistory()).toEqual(history);
    await third.close();
  });
});
