/**
 * Issue 33: `util.inspect` (hence `console.log`, a debugger's hover, a crash dump) of every public
 * object that holds a connection credential shows none of it — the stores given a connection
 * string, a URL or a client, the agent holding them and its key, the queue and the worker given a
 * URL, the studio's handle (its token), the chat handler, the MCP connections.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { buildStudioPage } from "../../scripts/build-studio-page.mjs";
import { createAgent, createAnthropicClient, createJsonlHistoryStore } from "../../src/index";
import { connectMcpServers } from "../../src/integrations/mcp/index";
import { createPostgresHistoryStore } from "../../src/integrations/stores/postgres";
import { createRedisHistoryStore } from "../../src/integrations/stores/redis";
import { createSqliteHistoryStore } from "../../src/integrations/stores/sqlite";
import { createAgentQueue, createAgentWorker } from "../../src/queue/index";
import { startStudio } from "../../src/studio/index";
import { createScriptedClient } from "../../src/testing/index";
import { createChatHandler } from "../../src/ui/index";

const PASSWORD = "inspect-pw-5e8a1c3f9b";
const KEY = "sk-inspect-0c4f7a2e9d1b6c8a";

/** Everything an inspector could show: hidden properties, getters, any depth. */
const shown = (value: unknown) =>
  inspect(value, { depth: Number.POSITIVE_INFINITY, showHidden: true, getters: true });

const folder = mkdtempSync(join(tmpdir(), "al-inspect-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function expectClean(value: unknown, ...secrets: string[]): void {
  const text = shown(value);
  for (const secret of [PASSWORD, KEY, ...secrets]) expect(text).not.toContain(secret);
  expect(shown({ nested: [value] })).not.toContain(PASSWORD);
}

describe("util.inspect shows no connection credential", () => {
  it("PostgreSQL store: from a connection string, and from a pool", async () => {
    const connectionString = `postgres://agent:${PASSWORD}@127.0.0.1:5432/test`;
    const fromString = createPostgresHistoryStore({ connectionString, conversationId: "c1" });
    const pool = new pg.Pool({ connectionString });
    const fromPool = createPostgresHistoryStore({ pool, conversationId: "c2" });
    expect(shown(pool)).toContain(PASSWORD); // the pool itself holds it: the store must not show it
    expectClean(fromString);
    expectClean(fromPool);
    await Promise.all([fromString.close(), fromPool.close()]);
    await pool.end();
  });

  it("Redis store: from a URL, and from a client", async () => {
    // The password is wrong for the test server: nothing is read, only inspected.
    const url = `redis://:${PASSWORD}@127.0.0.1:6379`;
    const client = new Redis(url, { lazyConnect: true });
    expect(shown(client)).toContain(PASSWORD);
    const fromClient = createRedisHistoryStore({ client, conversationId: "c1" });
    const fromUrl = createRedisHistoryStore({ url, conversationId: "c2" });
    expectClean(fromClient);
    expectClean(fromUrl);
    await Promise.allSettled([fromClient.close(), fromUrl.close()]);
    client.disconnect();
  });

  it("SQLite and JSONL stores show their path only", async () => {
    const sqlite = createSqliteHistoryStore({ path: join(folder, "h.db"), conversationId: "c" });
    const jsonl = createJsonlHistoryStore({ path: join(folder, "h.jsonl") });
    expect(shown(jsonl)).toContain("h.jsonl");
    expectClean(sqlite);
    expectClean(jsonl);
    await sqlite.close();
  });

  it("an agent holding a key, a client with a key and a store with a password", async () => {
    const store = createPostgresHistoryStore({
      connectionString: `postgres://agent:${PASSWORD}@127.0.0.1:5432/test`,
      conversationId: "c",
    });
    const withKey = createAgent({ model: "claude-sonnet-4-6", apiKey: KEY, historyStore: store });
    const client = createAnthropicClient({ apiKey: KEY, baseURL: `https://user:${PASSWORD}@example.test` });
    const withClient = createAgent({ model: "claude-sonnet-4-6", client, secrets: ["listed-secret-77"] });
    expectClean(withKey);
    expectClean(client);
    expect(client.secrets).toEqual(expect.arrayContaining([KEY, PASSWORD])); // still there for the agent
    expectClean(withClient, "listed-secret-77");
    // Held by the prototype, for a host's own redaction (the fleet worker): never shown, still there.
    expect(withKey.secrets).toContain(KEY);
    expect(withClient.secrets).toEqual(expect.arrayContaining([KEY, PASSWORD, "listed-secret-77"]));
    expect(Object.keys(withKey)).not.toContain("secrets");
    expect(JSON.stringify(withKey)).not.toContain(KEY);
    await withKey.close();
    await withClient.close();
  });

  it("a queue and a worker given a URL with a password", async () => {
    const connection = { url: `redis://:${PASSWORD}@127.0.0.1:6379`, lazyConnect: true };
    const queue = createAgentQueue({ connection, onError: () => {}, secrets: [KEY] });
    const worker = createAgentWorker({
      connection,
      onError: () => {},
      secrets: [KEY],
      createAgent: () => createAgent({ model: "m", client: createScriptedClient([]) }),
    });
    expectClean(queue);
    expectClean(worker);
    await Promise.allSettled([queue.close(), worker.close({ gracePeriodMs: 0 })]);
  });

  it("the studio's handle shows its address without the token", async () => {
    await buildStudioPage();
    mkdirSync(join(folder, "studio"));
    const studio = await startStudio({ store: join(folder, "studio") });
    try {
      const token = new URL(studio.url).searchParams.get("token")!;
      expect(token.length).toBeGreaterThanOrEqual(32);
      expect(shown(studio)).toMatch(/^Studio \{ url: "http:\/\/127\.0\.0\.1:\d+\/\?token=\[redacted\]" \}$/);
      expectClean(studio, token);
      expect(studio.url).toContain(token); // the property itself still works
    } finally {
      await studio.close();
    }
  }, 120_000);

  it("the chat handler and the MCP connections", async () => {
    const handler = createChatHandler({
      agent: () => createAgent({ model: "m", apiKey: KEY, client: createScriptedClient([]) }),
      secrets: [PASSWORD],
    });
    expectClean(handler);
    await handler.close();
    const mcp = await connectMcpServers({
      remote: {
        type: "http",
        url: `http://127.0.0.1:9/mcp?token=${PASSWORD}`,
        headers: { Authorization: `Bearer ${KEY}` },
        connectTimeoutMs: 2_000,
      },
    });
    expect(mcp.statuses()[0]?.status).toBe("failed");
    expectClean(mcp);
    expectClean(mcp.statuses());
    await mcp.close();
  }, 60_000);
});
