/**
 * The studio's "running" from run claims (API level, no browser), over a JSONL folder and file, an
 * SQLite file, PostgreSQL and Redis: a finished conversation shows as running with basis "run claim" while
 * a claim taken through the store (as a chat server's run takes it, from any process) is live — in
 * the list, the conversation, its whole summary and the rows' `/api/running` — and the version the
 * page polls changes when the claim starts and ends; released or expired, the status is what
 * history says again. A long conversation's counted summary follows the claim too.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildStudioPage } from "../../scripts/build-studio-page.mjs";
import { createJsonlHistoryStore, type HistoryStore, type ModelMessage } from "../../src/index";
import { createPostgresHistoryStore } from "../../src/integrations/stores/postgres";
import { createRedisHistoryStore } from "../../src/integrations/stores/redis";
import { createSqliteHistoryStore } from "../../src/integrations/stores/sqlite";
import { type Studio, startStudio } from "../../src/studio/index";

const POSTGRES_URL = process.env.AGENT_LATTICE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const REDIS_URL = process.env.AGENT_LATTICE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const runId = randomBytes(5).toString("hex");
const schema = `agent_lattice_studio_claims_${runId}`;
const keyPrefix = `agent-lattice-studio-claims:${runId}:`;
let folder = "";

beforeAll(async () => {
  await buildStudioPage();
  folder = await mkdtemp(join(tmpdir(), "studio-run-claims-"));
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

type ClosableStore = HistoryStore & { close(): Promise<void> };

const kinds: Array<{ name: string; location: () => string; open: (id: string) => ClosableStore }> = [
  {
    name: "a JSONL folder",
    location: () => join(folder, "jsonl"),
    open: (id) => createJsonlHistoryStore({ path: join(folder, "jsonl", `${id}.jsonl`) }),
  },
  {
    name: "a JSONL file",
    location: () => join(folder, "file", "claimed.jsonl"),
    open: () => createJsonlHistoryStore({ path: join(folder, "file", "claimed.jsonl") }),
  },
  {
    name: "SQLite",
    location: () => `sqlite:${join(folder, "studio.db")}`,
    open: (id) => createSqliteHistoryStore({ path: join(folder, "studio.db"), conversationId: id }),
  },
  {
    name: "PostgreSQL",
    location: () => `${POSTGRES_URL}?schema=${schema}`,
    open: (id) => createPostgresHistoryStore({ connectionString: POSTGRES_URL, schema, conversationId: id }),
  },
  {
    name: "Redis",
    location: () => `${REDIS_URL}?keyPrefix=${encodeURIComponent(keyPrefix)}`,
    open: (id) => createRedisHistoryStore({ url: REDIS_URL, keyPrefix, conversationId: id }),
  },
];

const finished: ModelMessage[] = [
  { role: "user", content: "Say hello." },
  { role: "assistant", content: [{ type: "text", text: "Hello." }], stop_reason: "end_turn" },
];

/** GETs a studio API path with the studio's token. */
function client(studio: Studio) {
  const url = new URL(studio.url);
  return async (path: string): Promise<any> => {
    const response = await fetch(new URL(path, url), {
      headers: { "x-studio-token": url.searchParams.get("token")! },
    });
    expect(response.status, path).toBe(200);
    return response.json();
  };
}

/** Polls `read` every 50 ms until it gives something other than `than`; fails after a generous bound. */
async function changedFrom<T>(than: T, read: () => Promise<T>, limitMs = 30_000): Promise<T> {
  const giveUpAt = Date.now() + limitMs;
  for (;;) {
    const value = await read();
    if (value !== than) return value;
    if (Date.now() > giveUpAt) throw new Error(`Still ${String(than)}.`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.each(kinds)("the studio's running from run claims over $name", ({ location, open }) => {
  it("a live claim shows as running (run claim) in the list, the conversation and the polled version; released or expired, it is history's status again", async () => {
    const writer = open("claimed");
    await writer.replace(finished);
    const studio = await startStudio({ store: location() });
    const claimer = open("claimed");
    try {
      const get = client(studio);
      const statusInList = async () => {
        const page = await get("/api/conversations?limit=50");
        const item = page.items.find((candidate: any) => candidate.conversationId === "claimed");
        return `${item.status} (${item.statusBasis})`;
      };
      const version = async () => (await get("/api/version?source=0&id=claimed")).version as string;
      expect(await statusInList()).toBe("finished (answer)");
      const idle = await version();
      expect((await get("/api/running?c=0/claimed")).running).toEqual({ "0/claimed": null });

      const claim = await claimer.claimRun!({ ttlMs: 600_000 });
      expect(claim).toBeDefined();
      expect(await statusInList()).toBe("running (run claim)");
      const conversation = await get("/api/conversation?source=0&id=claimed");
      expect(conversation.summary).toMatchObject({ status: "running", statusBasis: "run claim" });
      const running = await version();
      expect(running).not.toBe(idle);
      expect(conversation.version).toBe(running);
      expect((await get("/api/running?c=0/claimed")).running).toEqual({ "0/claimed": "run claim" });
      expect(await get("/api/summary?source=0&id=claimed")).toMatchObject({ statusBasis: "run claim" });

      await claim!.release();
      expect(await statusInList()).toBe("finished (answer)");
      expect(await version()).toBe(idle);
      expect((await get("/api/conversation?source=0&id=claimed")).summary.status).toBe("finished");

      // A claim nobody renews expires: the conversation is not running any more.
      const lapsing = await claimer.claimRun!({ ttlMs: 200 });
      expect(lapsing).toBeDefined();
      expect(await changedFrom("running (run claim)", statusInList)).toBe("finished (answer)");
    } finally {
      await studio.close();
      await Promise.all([writer.close(), claimer.close()]);
    }
  });
});

describe("a long conversation's counted summary under a run claim", () => {
  it("the whole summary and the window's summary say running (run claim) while the claim lives", async () => {
    const long: ModelMessage[] = [];
    for (let index = 0; index < 300; index++)
      long.push(
        { role: "user", content: `prompt ${index}` },
        { role: "assistant", content: [{ type: "text", text: `answer ${index}` }], stop_reason: "end_turn" },
      );
    const store = createJsonlHistoryStore({ path: join(folder, "long", "long.jsonl") });
    await store.replace(long);
    const studio = await startStudio({ store: join(folder, "long") });
    try {
      const get = client(studio);
      expect(await get("/api/summary?source=0&id=long")).toMatchObject({ status: "finished", turns: 300 });
      const claim = await store.claimRun({ ttlMs: 600_000 });
      const window = await get("/api/conversation?source=0&id=long&limit=50");
      expect(window.summary).toMatchObject({ status: "running", statusBasis: "run claim", turns: 300 });
      expect(await get("/api/summary?source=0&id=long")).toMatchObject({
        status: "running",
        statusBasis: "run claim",
      });
      await claim!.release();
      expect(await get("/api/summary?source=0&id=long")).toMatchObject({ status: "finished" });
    } finally {
      await studio.close();
      await store.close();
    }
  });
});
