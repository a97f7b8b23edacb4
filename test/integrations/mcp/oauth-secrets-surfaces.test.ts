/**
 * Tokens and client secrets on every surface, over each backend (JSONL, SQLite, Redis, PostgreSQL —
 * real services): a real OAuth code flow (dynamic registration issues a client secret), a tool that
 * echoes the caller's access token, a token that expires mid-query and is refreshed, a
 * `client_credentials` server with its own secret, and one refused for a wrong secret. Then every
 * place is read back and searched for each secret: the yielded messages, the UI message stream, the
 * OpenTelemetry spans (in-memory exporter), the requests the model received, the statuses and the
 * errors, the history as the backend holds it raw (every file, table or key but the token store's),
 * and the studio over that store: its JSON API, and its page in headless Chromium (the text shown
 * and the DOM). The token store itself must hold the tokens
 * (the control that the secrets looked for are the real ones).
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import Database from "better-sqlite3";
import { Redis } from "ioredis";
import pg from "pg";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildStudioPage } from "../../../scripts/build-studio-page.mjs";
import { createAgent } from "../../../src/agent/create-agent";
import { createJsonlHistoryStore } from "../../../src/history/jsonl";
import type { HistoryStore } from "../../../src/history/store";
import type { McpTokenStore } from "../../../src/integrations/mcp/oauth/auth-options";
import { createMcpTokenStore } from "../../../src/integrations/mcp/oauth/token-stores";
import { createPostgresHistoryStore } from "../../../src/integrations/stores/postgres";
import { createRedisHistoryStore } from "../../../src/integrations/stores/redis";
import { createSqliteHistoryStore } from "../../../src/integrations/stores/sqlite";
import type { SDKMessage } from "../../../src/messages/sdk-messages";
import { startStudio } from "../../../src/studio/index";
import { createScriptedClient } from "../../../src/testing/scripted-client";
import { toUIMessageStream } from "../../../src/ui/index";
import { startOAuthMcpServer } from "../../fixtures/mcp/oauth-server";
import {
  folderText,
  postgresSchemaTables,
  postgresText,
  redisText,
  sqliteTables,
  sqliteText,
} from "../../fixtures/stores/raw-text";
import { startBrowser } from "../../studio/support";
import { temporaryFolder } from "../../support/temporary-folders";
import { readChunks } from "../../ui/ui-test-kit";

const runId = randomBytes(5).toString("hex");
const POSTGRES_URL = process.env.AGENT_LATTICE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const REDIS_URL = process.env.AGENT_LATTICE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const schema = `agent_lattice_oauth_${runId}`;
const tokenTable = `agent_lattice_oauth_tokens_${runId}`;
const historyPrefix = `agent-lattice-oauth:${runId}:history:`;
const tokenPrefix = `agent-lattice-oauth:${runId}:tokens:`;
const pool = new pg.Pool({ connectionString: POSTGRES_URL });
pool.on("error", () => {});
const redis = new Redis(REDIS_URL);
const databases: Database.Database[] = [];
let chromium: Browser;

beforeAll(async () => {
  chromium = await startBrowser();
}, 120_000);

afterAll(async () => {
  await chromium?.close();
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.query(`DROP TABLE IF EXISTS ${tokenTable}`);
  await pool.end();
  const keys = await redis.keys(`agent-lattice-oauth:${runId}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
  for (const database of databases) database.close();
});

/** One backend: a history store and a token store in the same place, and that place read raw. */
interface Backend {
  name: string;
  open(conversationId: string): { history: HistoryStore; tokens: McpTokenStore; location: string };
  /** Everything the place holds outside the token store, as text. */
  rawHistory(): Promise<string>;
  /** What the token store holds, as text. */
  rawTokens(): Promise<string>;
}

function jsonlBackend(): Backend {
  const folder = temporaryFolder("lattice-oauth-surfaces-");
  const tokenFile = join(folder, "tokens", "mcp-tokens.json");
  return {
    name: "JSONL",
    open: () => ({
      history: createJsonlHistoryStore({ path: join(folder, "history.jsonl") }),
      tokens: createMcpTokenStore({ path: tokenFile }),
      location: join(folder, "history.jsonl"),
    }),
    rawHistory: async () => folderText(folder),
    rawTokens: async () => readFileSync(tokenFile, "utf8"),
  };
}

function sqliteBackend(): Backend {
  const path = join(temporaryFolder("lattice-oauth-surfaces-"), "agent.db");
  const database = new Database(path);
  databases.push(database);
  return {
    name: "SQLite",
    open: (conversationId) => ({
      history: createSqliteHistoryStore({ path, conversationId }),
      tokens: createMcpTokenStore({ sqlite: database, table: "mcp_tokens" }),
      location: `sqlite:${path}`,
    }),
    rawHistory: async () =>
      sqliteText(
        database,
        sqliteTables(database).filter((name) => name !== "mcp_tokens"),
      ),
    rawTokens: async () => sqliteText(database, ["mcp_tokens"]),
  };
}

function redisBackend(): Backend {
  return {
    name: "Redis",
    open: (conversationId) => ({
      history: createRedisHistoryStore({ client: redis, keyPrefix: historyPrefix, conversationId }),
      tokens: createMcpTokenStore({ redis, keyPrefix: tokenPrefix }),
      location: `${REDIS_URL}?keyPrefix=${encodeURIComponent(historyPrefix)}`,
    }),
    rawHistory: () => redisText(redis, historyPrefix),
    rawTokens: () => redisText(redis, tokenPrefix),
  };
}

function postgresBackend(): Backend {
  return {
    name: "PostgreSQL",
    open: (conversationId) => ({
      history: createPostgresHistoryStore({ connectionString: POSTGRES_URL, schema, conversationId }),
      tokens: createMcpTokenStore({ postgres: pool, table: tokenTable }),
      location: `${POSTGRES_URL}?schema=${schema}`,
    }),
    rawHistory: async () => postgresText(pool, await postgresSchemaTables(pool, schema)),
    rawTokens: () => postgresText(pool, [tokenTable]),
  };
}

const backends = [
  { name: "JSONL", make: jsonlBackend },
  { name: "SQLite", make: sqliteBackend },
  { name: "Redis", make: redisBackend },
  { name: "PostgreSQL", make: postgresBackend },
];

/** Opens the authorization URL and follows the redirect to the client's loopback listener. */
async function approve(authorizationUrl: URL): Promise<void> {
  const approval = await fetch(authorizationUrl, { redirect: "manual" });
  await (await fetch(approval.headers.get("location")!)).text();
}

/** Calls leak, then (the tokens expired meanwhile) leak and whoami again, then answers. */
function scriptedModel(expire: () => void) {
  return createScriptedClient((request) => {
    const answered = request.messages.filter(
      (message) =>
        Array.isArray(message.content) && message.content.some((block) => block.type === "tool_result"),
    ).length;
    const call = (id: string, name: string) => ({ type: "tool_use" as const, id, name, input: {} });
    if (answered === 0)
      return { content: [call("toolu_1", "mcp__crm__leak"), call("toolu_2", "mcp__billing__whoami")] };
    if (answered === 1) {
      expire();
      return { content: [call("toolu_3", "mcp__crm__leak"), call("toolu_4", "mcp__crm__whoami")] };
    }
    return { content: "done" };
  });
}

describe.each(backends)("no OAuth secret on any surface ($name)", { timeout: 240_000 }, ({ make }) => {
  it("a code flow, a refresh mid-query, client_credentials and a refused client: every surface read back", async () => {
    const backend = make();
    await buildStudioPage();
    const crm = await startOAuthMcpServer({ leakyTool: true });
    const worker = { id: "worker-7", secret: `wk-${randomBytes(12).toString("hex")}` };
    const billing = await startOAuthMcpServer({ client: worker });
    const wrongSecret = `wrong-${randomBytes(12).toString("hex")}`;
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const conversationId = `oauth-${runId}`;
    const { history, tokens, location } = backend.open(conversationId);
    const model = scriptedModel(() => crm.expireAccessTokens());
    const agent = createAgent({
      model: "claude-sonnet-4-6",
      client: model,
      historyStore: history,
      telemetry: { tracer: provider.getTracer("oauth-surfaces") },
      mcpServers: {
        crm: { type: "http", url: crm.url, auth: { redirect: approve, tokenStore: tokens } },
        billing: {
          type: "http",
          url: billing.url,
          auth: {
            grant: "client_credentials",
            clientId: worker.id,
            clientSecret: worker.secret,
            tokenStore: tokens,
          },
        },
        refused: {
          type: "http",
          url: billing.url,
          auth: { grant: "client_credentials", clientId: worker.id, clientSecret: wrongSecret },
        },
      },
    });
    const messages: SDKMessage[] = [];
    let readError = "";
    let chunks: unknown[] = [];
    try {
      async function* recorded() {
        for await (const message of agent.query("Who am I, and what is my token?")) {
          messages.push(message);
          yield message;
        }
      }
      chunks = await readChunks(toUIMessageStream(recorded()));
      readError = await agent.mcp.readResource("refused", "crm://anything").then(
        () => "no error",
        (error: Error) => `${error.name}: ${error.message}`,
      );
    } finally {
      await agent.close();
    }

    // The flow happened as described: a code grant, a refresh, client_credentials, a refusal.
    expect(crm.tokenRequests.map((request) => request.grant_type)).toEqual([
      "authorization_code",
      "refresh_token",
    ]);
    // billing's grant, and the refused client's attempts (the same endpoint, the wrong secret).
    const grants = billing.tokenRequests.map((request) => request.grant_type);
    expect(new Set(grants)).toEqual(new Set(["client_credentials"]));
    expect(grants.length).toBeGreaterThanOrEqual(2);
    const init = messages[0] as Extract<SDKMessage, { subtype: "init" }>;
    expect(init.mcp_servers?.find((status) => status.name === "refused")).toMatchObject({ status: "failed" });
    const results = messages.flatMap((message) =>
      message.type === "user" && Array.isArray(message.message.content) ? message.message.content : [],
    );
    expect(results.filter((block) => block.type === "tool_result" && !block.is_error)).toHaveLength(4);

    const secrets = [
      ...crm.issuedSecrets(),
      ...billing.issuedSecrets(),
      worker.secret,
      wrongSecret,
      ...crm.tokenRequests
        .map((request) => request.code_verifier)
        .filter((value): value is string => !!value),
    ];
    expect(secrets.filter((secret) => secret.startsWith("at-")).length).toBeGreaterThanOrEqual(3);
    expect(secrets.some((secret) => secret.startsWith("rt-"))).toBe(true);
    expect(secrets.some((secret) => secret.startsWith("cs-"))).toBe(true);

    // The token store holds the live tokens: the secrets searched for are the real ones.
    const stored = await backend.rawTokens();
    expect(stored).toContain(
      crm
        .issuedSecrets()
        .filter((secret) => secret.startsWith("at-"))
        .at(-1),
    );

    const studio = await startStudio({ store: location });
    const studioTexts: string[] = [];
    try {
      const url = new URL(studio.url);
      const headers = { "x-studio-token": url.searchParams.get("token")! };
      const get = async (path: string) => {
        const response = await fetch(new URL(path, url), { headers });
        expect(response.status, path).toBe(200);
        const text = await response.text();
        studioTexts.push(text);
        return JSON.parse(text);
      };
      await get("/api/info");
      const list = await get("/api/conversations?limit=50");
      // The studio's id of the conversation (a JSONL file is named by its file).
      const listed = list.items.find((item: { conversationId: string }) =>
        [conversationId, "history"].includes(item.conversationId),
      );
      expect(listed, JSON.stringify(list.items)).toBeDefined();
      const id = encodeURIComponent(listed.conversationId);
      await get(`/api/conversation?source=0&id=${id}`);
      await get(`/api/summary?source=0&id=${id}`);
      expect(studioTexts[2]).toContain("your token is [redacted]");
      // The page as a person sees it: the conversation opened in a real browser.
      const page = await chromium.newPage();
      try {
        await page.goto(studio.url);
        await page.click(`tr[data-conversation="${listed.conversationId}"] a`);
        await page.locator("[data-testid=timeline] li.turn").first().waitFor({ timeout: 60_000 });
        // Every collapsed tool call opened, so its input and output are on the page too.
        await page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })");
        const shown = String(await page.evaluate("document.body.innerText"));
        const html = await page.content();
        expect(html).toContain("your token is [redacted]");
        studioTexts.push(shown, html);
      } finally {
        await page.close();
      }
    } finally {
      await studio.close();
    }

    const spans = exporter.getFinishedSpans().map((span) => ({
      name: span.name,
      attributes: span.attributes,
      events: span.events,
      status: span.status,
    }));
    expect(spans.length).toBeGreaterThan(0);
    const surfaces: Record<string, string> = {
      messages: JSON.stringify(messages, (_key, value) => (value instanceof Error ? value.message : value)),
      "UI stream": JSON.stringify(chunks),
      spans: JSON.stringify(spans),
      "model requests": JSON.stringify(model.requests),
      error: readError,
      history: JSON.stringify(await backend.open(conversationId).history.load()),
      "history raw": await backend.rawHistory(),
      studio: studioTexts.join("\n"),
    };
    expect(surfaces["model requests"]).toContain("your token is [redacted]");
    expect(surfaces.error).toMatch(/refused|not connected/i);
    for (const [surface, text] of Object.entries(surfaces)) {
      for (const secret of secrets)
        expect(text.includes(secret), `${surface} holds ${secret.slice(0, 3)}…`).toBe(false);
    }
    await Promise.all([crm.close(), billing.close()]);
  });
});
