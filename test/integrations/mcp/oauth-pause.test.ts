/**
 * The server app's OAuth pause (`auth.redirect: "pause"`), against the real OAuth-protected MCP
 * server of test/fixtures/mcp/oauth-server.ts, over each durable backend (JSONL, SQLite, Redis,
 * PostgreSQL — real services; the token store on the matching backend): the query ends
 * `requires_input` with a `kind: "authorization"` input before the model is called; the test's
 * "browser" follows the authorization URL (the server approves at once) to the app's callback URL;
 * the callback is finished by `finishMcpAuthorization` over another store instance (another process
 * of the fleet); another Agent answers `accept` and the resumed query calls the tool and gets the
 * real result. A replayed callback is refused, and two finishing at once: one wins. No code,
 * verifier, token or client secret reaches the messages, the UI stream, spans, history (raw) or errors.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import Database from "better-sqlite3";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createAgent } from "../../../src/agent/create-agent";
import { createJsonlHistoryStore } from "../../../src/history/jsonl";
import type { HistoryStore } from "../../../src/history/store";
import type { McpTokenStore } from "../../../src/integrations/mcp/oauth/auth-options";
import { McpAuthorizationError } from "../../../src/integrations/mcp/oauth/authorization-error";
import { finishMcpAuthorization } from "../../../src/integrations/mcp/oauth/finish-authorization";
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
import { expectWellFormed } from "../../loop/support";
import { temporaryFolder } from "../../support/temporary-folders";
import { readChunks } from "../../ui/ui-test-kit";
import { CALLBACK, followAuthorization, pausingServers, whoamiModel } from "./oauth-pause-kit";

const runId = randomBytes(5).toString("hex");
const POSTGRES_URL = process.env.AGENT_LATTICE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const REDIS_URL = process.env.AGENT_LATTICE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const schema = `agent_lattice_oauthpause_${runId}`;
const tokenTable = `agent_lattice_oauthpause_tokens_${runId}`;
const historyPrefix = `agent-lattice-oauthpause:${runId}:history:`;
const tokenPrefix = `agent-lattice-oauthpause:${runId}:tokens:`;
const pool = new pg.Pool({ connectionString: POSTGRES_URL });
pool.on("error", () => {});
const redis = new Redis(REDIS_URL);
const databases: Database.Database[] = [];
/** The token stores' own clients (each `open()` is another process's). */
const redisClients: Redis[] = [];
const pools: pg.Pool[] = [];

function kept<T>(list: T[], client: T): T {
  list.push(client);
  return client;
}

afterAll(async () => {
  await Promise.all([...redisClients.map((client) => client.quit()), ...pools.map((each) => each.end())]);
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.query(`DROP TABLE IF EXISTS ${tokenTable}`);
  await pool.end();
  const keys = await redis.keys(`agent-lattice-oauthpause:${runId}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
  for (const database of databases) database.close();
});

/** One backend: each `open()` is a fresh history store and token store over the same place (another process). */
interface Backend {
  open(conversationId: string): { history: HistoryStore; tokens: McpTokenStore };
  /** Everything the place holds outside the token store, as text. */
  rawHistory(): Promise<string>;
  /** The place as the studio's `store` option names it. */
  location: string;
}

function jsonlBackend(): Backend {
  const folder = temporaryFolder("lattice-oauth-pause-");
  return {
    open: () => ({
      history: createJsonlHistoryStore({ path: join(folder, "history.jsonl") }),
      tokens: createMcpTokenStore({ path: join(folder, "tokens", "mcp-tokens.json") }),
    }),
    rawHistory: async () => folderText(folder),
    location: join(folder, "history.jsonl"),
  };
}

function sqliteBackend(): Backend {
  const path = join(temporaryFolder("lattice-oauth-pause-"), "agent.db");
  const open = () => {
    const database = new Database(path);
    databases.push(database);
    return database;
  };
  const reader = open();
  return {
    open: (conversationId) => ({
      history: createSqliteHistoryStore({ path, conversationId }),
      tokens: createMcpTokenStore({ sqlite: open(), table: "mcp_tokens" }),
    }),
    rawHistory: async () =>
      sqliteText(
        reader,
        sqliteTables(reader).filter((name) => name !== "mcp_tokens"),
      ),
    location: `sqlite:${path}`,
  };
}

function redisBackend(): Backend {
  return {
    open: (conversationId) => ({
      history: createRedisHistoryStore({ client: redis, keyPrefix: historyPrefix, conversationId }),
      tokens: createMcpTokenStore({
        redis: kept(redisClients, new Redis(REDIS_URL)),
        keyPrefix: tokenPrefix,
      }),
    }),
    rawHistory: () => redisText(redis, historyPrefix),
    location: `${REDIS_URL}?keyPrefix=${encodeURIComponent(historyPrefix)}`,
  };
}

function postgresBackend(): Backend {
  return {
    open: (conversationId) => ({
      history: createPostgresHistoryStore({ connectionString: POSTGRES_URL, schema, conversationId }),
      tokens: createMcpTokenStore({
        postgres: kept(pools, new pg.Pool({ connectionString: POSTGRES_URL, max: 2 })),
        table: tokenTable,
      }),
    }),
    rawHistory: async () => postgresText(pool, await postgresSchemaTables(pool, schema)),
    location: `${POSTGRES_URL}?schema=${schema}`,
  };
}

const backends = [
  { name: "JSONL", make: jsonlBackend },
  { name: "SQLite", make: sqliteBackend },
  { name: "Redis", make: redisBackend },
  { name: "PostgreSQL", make: postgresBackend },
];

describe.each(backends)("the OAuth pause of a server app ($name)", { timeout: 120_000 }, ({ make }) => {
  it("pauses before the model, is finished by another process's callback, and resumes in another Agent with the real result", async () => {
    const backend = make();
    const crm = await startOAuthMcpServer();
    const conversationId = `pause-${runId}`;
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer(
      "oauth-pause",
    );
    try {
      // 1. The web handler's process: the query pauses, the pending input reaches the UI stream.
      const first = backend.open(conversationId);
      const model = whoamiModel();
      const pausing = createAgent({
        model: "claude-sonnet-4-6",
        client: model,
        historyStore: first.history,
        telemetry: { tracer },
        mcpServers: pausingServers(crm.url, first.tokens),
      });
      const messages: SDKMessage[] = [];
      let chunks: unknown[];
      try {
        async function* recorded() {
          for await (const message of pausing.query("Who am I?")) {
            messages.push(message);
            yield message;
          }
        }
        chunks = await readChunks(toUIMessageStream(recorded()));
      } finally {
        await pausing.close();
      }
      const result = messages.at(-1) as Extract<SDKMessage, { type: "result" }>;
      expect(result.subtype).toBe("requires_input");
      const [pending, ...more] = result.pending_inputs ?? [];
      expect(more).toEqual([]);
      expect(pending).toEqual({
        id: "authorization/crm",
        kind: "authorization",
        server: "crm",
        message: expect.stringContaining("needs authorization"),
        mode: "url",
        url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/authorize\?/),
        tool_use_id: "",
      });
      const authorizationUrl = new URL(pending!.url!);
      expect(authorizationUrl.searchParams.get("redirect_uri")).toBe(CALLBACK);
      expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
      expect(authorizationUrl.searchParams.get("resource")).toBe(crm.url);
      // The model was never called: authorization comes first.
      expect(model.requests).toHaveLength(0);
      const init = messages[0] as Extract<SDKMessage, { subtype: "init" }>;
      expect(init.mcp_servers).toEqual([
        { name: "crm", status: "failed", error: expect.stringContaining("Waiting for authorization") },
      ]);
      expect(chunks).toContainEqual({ type: "data-input", id: "authorization/crm", data: pending });

      // The pause is durable: another Agent over the same place sees it.
      const reader = createAgent({
        model: "claude-sonnet-4-6",
        client: createScriptedClient([]),
        historyStore: backend.open(conversationId).history,
      });
      expect(await reader.getPendingInputs()).toEqual([pending]);
      const stored = await reader.getHistory();
      await reader.close();
      expect(stored).toHaveLength(2);
      expect(stored[0]).toMatchObject({ role: "user", content: "Who am I?" });
      expect(stored[1]).toMatchObject({ role: "user", pending_approvals: [], pending_inputs: [pending] });

      // 2. The browser comes back to the app's callback: a different process finishes it.
      const callbackUrl = await followAuthorization(pending!.url!);
      expect(callbackUrl.startsWith(`${CALLBACK}?`)).toBe(true);
      const callback = backend.open(conversationId);
      const servers = pausingServers(crm.url, callback.tokens);
      // Two requests racing with the same callback (a double submit): one finishes, one is refused.
      const outcomes = await Promise.allSettled([
        finishMcpAuthorization({ callbackUrl, mcpServers: servers }),
        finishMcpAuthorization({
          callbackUrl,
          mcpServers: pausingServers(crm.url, backend.open("x").tokens),
        }),
      ]);
      const finished = outcomes.filter((outcome) => outcome.status === "fulfilled");
      const refused = outcomes.filter((outcome) => outcome.status === "rejected");
      expect(finished.map((outcome) => outcome.value)).toEqual([{ server: "crm" }]);
      expect(refused).toHaveLength(1);
      const refusal = (refused[0] as PromiseRejectedResult).reason as McpAuthorizationError;
      expect(refusal).toBeInstanceOf(McpAuthorizationError);
      expect(refusal.reason).toBe("unknown_state");
      expect(crm.tokenRequests.map((request) => request.grant_type)).toEqual(["authorization_code"]);
      // Replayed later: refused too.
      const replay = await finishMcpAuthorization({ callbackUrl, mcpServers: servers }).catch(
        (error) => error,
      );
      expect(replay).toMatchObject({ name: "McpAuthorizationError", reason: "unknown_state" });

      // 3. Another Agent (the next request) answers accept: it connects with the stored tokens.
      const next = backend.open(conversationId);
      const resumedModel = whoamiModel();
      const resuming = createAgent({
        model: "claude-sonnet-4-6",
        client: resumedModel,
        historyStore: next.history,
        telemetry: { tracer },
        mcpServers: pausingServers(crm.url, next.tokens),
      });
      const resumedMessages: SDKMessage[] = [];
      let history: Awaited<ReturnType<typeof resuming.getHistory>>;
      try {
        for await (const message of resuming.query({ inputs: { "authorization/crm": { action: "accept" } } }))
          resumedMessages.push(message);
        history = await resuming.getHistory();
      } finally {
        await resuming.close();
      }
      const resumed = resumedMessages.at(-1) as Extract<SDKMessage, { type: "result" }>;
      expect(resumed.subtype).toBe("success");
      expect(resumed).toMatchObject({ result: "You are an authorized user." });
      expect(resumedModel.requests[0]!.messages).toEqual([{ role: "user", content: "Who am I?" }]);
      const toolResult = history.flatMap((message) =>
        message.role === "user" && Array.isArray(message.content)
          ? message.content.filter((block) => block.type === "tool_result")
          : [],
      );
      expect(toolResult).toEqual([
        expect.objectContaining({
          tool_use_id: "toolu_1",
          content: [{ type: "text", text: "an authorized user" }],
        }),
      ]);
      expect(toolResult[0]).not.toHaveProperty("is_error");
      expectWellFormed(history);
      expect(history.some((message) => "pending_inputs" in message)).toBe(false);
      expect(crm.tokenRequests.map((request) => request.grant_type)).toEqual(["authorization_code"]);

      // No secret of the flow on any surface.
      const secrets = [
        ...crm.issuedSecrets(),
        ...crm.tokenRequests
          .map((request) => request.code_verifier)
          .filter((value): value is string => !!value),
        new URL(callbackUrl).searchParams.get("code")!,
      ];
      expect(secrets.some((secret) => secret.startsWith("at-"))).toBe(true);
      expect(secrets.some((secret) => secret.startsWith("cs-"))).toBe(true);
      // The studio over the same place: its JSON API for the conversation.
      const studio = await startStudio({ store: backend.location });
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
        const list = await get("/api/conversations?limit=50");
        const listed = list.items.find((item: { conversationId: string }) =>
          [conversationId, "history"].includes(item.conversationId),
        );
        expect(listed, JSON.stringify(list.items)).toBeDefined();
        const id = encodeURIComponent(listed.conversationId);
        await get(`/api/conversation?source=0&id=${id}`);
        await get(`/api/summary?source=0&id=${id}`);
        expect(studioTexts.join("\n")).toContain("an authorized user");
      } finally {
        await studio.close();
      }
      const surfaces: Record<string, string> = {
        studio: studioTexts.join("\n"),
        messages: JSON.stringify([...messages, ...resumedMessages], (_key, value) =>
          value instanceof Error ? value.message : value,
        ),
        "UI stream": JSON.stringify(chunks),
        spans: JSON.stringify(
          exporter.getFinishedSpans().map((span) => ({ a: span.attributes, e: span.events, s: span.status })),
        ),
        "model requests": JSON.stringify([...model.requests, ...resumedModel.requests]),
        errors: `${refusal.message}\n${replay.message}`,
        "history raw": await backend.rawHistory(),
      };
      for (const [surface, text] of Object.entries(surfaces))
        for (const secret of secrets)
          expect(text.includes(secret), `${surface} holds ${secret.slice(0, 5)}…`).toBe(false);
    } finally {
      await crm.close();
    }
  });
});
