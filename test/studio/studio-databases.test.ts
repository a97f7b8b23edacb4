/**
 * The studio's API over PostgreSQL and Redis locations (the same API the page uses, tested in the
 * browser over JSONL and SQLite): the list with summaries, a conversation with its meta and its
 * subagent child, the version a page polls changing on a write, and pages of a large list.
 */
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { buildStudioPage } from "../../scripts/build-studio-page.mjs";
import type { HistoryStore, ModelMessage } from "../../src/index";
import { createPostgresHistoryStore } from "../../src/integrations/stores/postgres";
import { createRedisHistoryStore } from "../../src/integrations/stores/redis";
import { startStudio } from "../../src/studio/index";
import { mockServerPerTest } from "../support/mock-server";
import { recordConversation } from "./support";

const POSTGRES_URL = process.env.AGENT_LATTICE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const REDIS_URL = process.env.AGENT_LATTICE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const runId = randomBytes(5).toString("hex");
const schema = `agent_lattice_studio_${runId}`;
const keyPrefix = `agent-lattice-studio:${runId}:`;

// One connection each for the test's own writes (a store per conversation shares it).
const pool = new pg.Pool({ connectionString: POSTGRES_URL });
pool.on("error", () => {});
const redis = new Redis(REDIS_URL);

afterAll(async () => {
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
  const keys = await redis.keys(`${keyPrefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

const kinds = [
  {
    name: "PostgreSQL",
    location: `${POSTGRES_URL}?schema=${schema}`,
    open: (id: string) =>
      createPostgresHistoryStore({ connectionString: POSTGRES_URL, schema, conversationId: id }),
  },
  {
    name: "Redis",
    location: `${REDIS_URL}?keyPrefix=${encodeURIComponent(keyPrefix)}`,
    open: (id: string) => createRedisHistoryStore({ client: redis, keyPrefix, conversationId: id }),
  },
];

describe.each(kinds)("the studio API over $name", ({ location, open }) => {
  const server = mockServerPerTest();

  it("lists, shows a conversation with its meta and subagent, and sees a new write", async () => {
    await buildStudioPage();
    const stores: HistoryStore[] = [];
    const store = (id: string) => {
      const opened = open(id);
      stores.push(opened);
      return opened;
    };
    await recordConversation(server, store("research"), (toolUseId) => store(`research:${toolUseId}`));
    for (let index = 0; index < 60; index++)
      await store(`bulk-${index}`).replace([{ role: "user", content: `bulk prompt ${index}` }]);
    const studio = await startStudio({ store: location });
    try {
      const url = new URL(studio.url);
      expect(studio.url).not.toContain("password");
      const get = async (path: string) => {
        const response = await fetch(new URL(path, url), {
          headers: { "x-studio-token": url.searchParams.get("token")! },
        });
        expect(response.status).toBe(200);
        return (await response.json()) as any;
      };
      const first = await get("/api/conversations?limit=25");
      expect(first.total).toBe(62);
      expect(first.items).toHaveLength(25);
      const second = await get(`/api/conversations?limit=25&offset=${first.next}`);
      expect(second.items).toHaveLength(25);
      const filtered = await get("/api/conversations?text=bulk%20prompt%2017");
      expect(filtered.items.map((item: any) => item.conversationId)).toEqual(["bulk-17"]);
      const finished = await get("/api/conversations?status=finished&limit=200");
      expect(finished.items.map((item: any) => item.conversationId).sort()).toEqual([
        "research",
        "research:toolu_sub",
      ]);

      const conversation = await get("/api/conversation?source=0&id=research");
      expect(conversation.total).toBe(4);
      const messages = conversation.messages as ModelMessage[];
      expect(messages[1]?.meta?.latency_ms).toEqual(expect.any(Number));
      expect(messages[2]?.meta?.tool_durations_ms).toHaveProperty("toolu_look");
      expect(conversation.children).toEqual({ toolu_sub: "research:toolu_sub" });
      expect(conversation.summary).toMatchObject({ status: "finished", turns: 2, inputTokens: 2_700 });

      const before = (await get("/api/version?source=0&id=research")).version;
      const writer = open("research");
      await writer.load();
      await writer.append({ role: "user", content: "one more" });
      await (writer as { close?: () => Promise<void> }).close?.();
      // A listing is reused for 200 ms: the change shows on a poll soon after, not necessarily the next one.
      let after = before;
      for (const started = Date.now(); after === before && Date.now() - started < 10_000; ) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        after = (await get("/api/version?source=0&id=research")).version;
      }
      expect(after).not.toBe(before);
    } finally {
      await studio.close();
      for (const opened of stores) await opened.close?.();
    }
  });
});
