/**
 * MCP servers' questions (elicitation) answered through the studio's API, against a real MCP server
 * (test/fixtures/mcp/questions-server.mjs over stdio), over a JSONL file, SQLite, PostgreSQL and
 * Redis: the pause listed (`pendingInputs`, the summary's `waiting`), answers that do not fit
 * refused before anything runs (400 for a malformed body or content the question's schema refuses,
 * 409 for an id not pending, 401 / 403 for a missing token, a foreign Host or Origin), then one
 * answer resuming the query — the server's tool completes with its real result, once. A pause
 * waiting on a subagent's approval and a question together is answered in one request.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import {
  createAgent,
  createJsonlHistoryStore,
  defineSubagent,
  type HistoryStore,
  type ModelMessage,
  type ToolResultBlock,
} from "../../src/index";
import { createPostgresHistoryStore } from "../../src/integrations/stores/postgres";
import { createRedisHistoryStore } from "../../src/integrations/stores/redis";
import { createSqliteHistoryStore } from "../../src/integrations/stores/sqlite";
import { startStudio } from "../../src/studio/index";
import { createScriptedClient, type ScriptedStep } from "../../src/testing/scripted-client";
import { deployTool } from "../fixtures/deploy-tool";
import { expectWellFormed } from "../loop/support";
import { temporaryFolder } from "../support/temporary-folders";
import { callAsk, client, logged, PROFILE_QUESTION, QUESTIONS_SERVER as SERVER } from "./inputs-support";

const POSTGRES_URL = process.env.AGENT_LATTICE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const REDIS_URL = process.env.AGENT_LATTICE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const runId = randomBytes(5).toString("hex");
const schema = `agent_lattice_studio_inputs_${runId}`;
const keyPrefix = `agent-lattice-studio-inputs:${runId}:`;

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

interface Kind {
  name: string;
  /** The studio's location and the store of one conversation, in a place of its own per test. */
  make(): { location: string; open(id: string): HistoryStore };
}

const kinds: Kind[] = [
  {
    name: "JSONL",
    make: () => {
      const folder = temporaryFolder("studio-inputs-");
      return {
        location: folder,
        open: (id) => createJsonlHistoryStore({ path: join(folder, `${id}.jsonl`) }),
      };
    },
  },
  {
    name: "SQLite",
    make: () => {
      const path = join(temporaryFolder("studio-inputs-"), "agents.db");
      return {
        location: `sqlite:${path}`,
        open: (id) => createSqliteHistoryStore({ path, conversationId: id }),
      };
    },
  },
  {
    name: "PostgreSQL",
    make: () => {
      return {
        location: `${POSTGRES_URL}?schema=${schema}`,
        open: (id) =>
          createPostgresHistoryStore({ connectionString: POSTGRES_URL, schema, conversationId: id }),
      };
    },
  },
  {
    name: "Redis",
    make: () => {
      const prefix = `${keyPrefix}${randomBytes(3).toString("hex")}:`;
      return {
        location: `${REDIS_URL}?keyPrefix=${encodeURIComponent(prefix)}`,
        open: (id) => createRedisHistoryStore({ client: redis, keyPrefix: prefix, conversationId: id }),
      };
    },
  },
];

describe.each(kinds)("answering MCP questions through the studio's API over $name", ({ make }) => {
  it("lists the question, refuses what does not fit, and resumes with the server's real result once", async () => {
    const place = make();
    const log = join(temporaryFolder("studio-inputs-log-"), "calls.jsonl");
    const server = {
      type: "stdio" as const,
      command: process.execPath,
      args: [SERVER],
      env: { QUESTIONS_LOG: log },
    };
    const models: Array<ReturnType<typeof createScriptedClient>> = [];
    const agentFor =
      (script: ScriptedStep[]) =>
      ({ conversationId }: { conversationId: string }) => {
        const model = createScriptedClient(script);
        models.push(model);
        return createAgent({
          model: "claude-sonnet-4-6",
          client: model,
          mcpServers: { questions: server },
          historyStore: place.open(conversationId),
        });
      };
    const first = agentFor([callAsk(PROFILE_QUESTION)])({ conversationId: "deploy" });
    const paused = await first.prompt("Set up the deployment");
    await first.close();
    expect(paused.subtype).toBe("requires_input");

    const studio = await startStudio({
      store: place.location,
      createAgent: agentFor([{ content: "Deployed." }]),
    });
    try {
      const api = client(studio.url);
      const window = await api.get("/api/conversation?source=0&id=deploy");
      expect(window.status).toBe(200);
      expect(window.body.pending).toEqual([]);
      expect(window.body.pendingInputs).toEqual([
        expect.objectContaining({
          id: "toolu_ask/input-1",
          server: "questions",
          mode: "form",
          message: PROFILE_QUESTION.message,
          requestedSchema: PROFILE_QUESTION.requestedSchema,
        }),
      ]);
      expect(window.body.summary).toMatchObject({ status: "paused", waiting: { approvals: 0, inputs: 1 } });
      const listed = await api.get("/api/conversations?status=paused");
      expect(listed.body.items).toEqual([
        expect.objectContaining({ conversationId: "deploy", waiting: { approvals: 0, inputs: 1 } }),
      ]);

      const id = "toolu_ask/input-1";
      const path = "/api/answers?source=0&id=deploy";
      const refused: Array<[unknown, number, RegExp?]> = [
        [{ inputs: { [id]: { action: "maybe" } } }, 400, /inputs/],
        [{ inputs: { [id]: { action: "accept", content: "team" } } }, 400],
        [{ inputs: { [id]: { action: "accept", content: { team: { nested: 1 } } } } }, 400],
        [{ inputs: { [id]: { action: "accept", extra: 1 } } }, 400],
        [
          { inputs: { [id]: { action: "accept", content: { team: "ops", replicas: "three" } } } },
          400,
          /replicas/,
        ],
        [{ inputs: { [id]: { action: "accept", content: { team: "ops", replicas: 2.5 } } } }, 400, /whole/],
        [
          { inputs: { [id]: { action: "accept", content: { team: "ops", replicas: 12 } } } },
          400,
          /at most 9/,
        ],
        [{ inputs: { [id]: { action: "accept", content: { team: "o" } } } }, 400, /at least 2/],
        [{ inputs: { [id]: { action: "accept", content: { replicas: 2 } } } }, 400, /"team" is required/],
        [
          { inputs: { [id]: { action: "accept", content: { team: "ops", region: "mars" } } } },
          400,
          /choices/,
        ],
        [
          { inputs: { [id]: { action: "accept", content: { team: "ops", admin: true } } } },
          400,
          /no field "admin"/,
        ],
        [{ inputs: { [id]: { action: "decline", content: { team: "ops" } } } }, 400, /Only an accepted/],
        [{ inputs: { "toolu_other/input-1": { action: "accept" } } }, 409, /not waiting/],
        [{ decisions: { toolu_ask: { approved: true } } }, 409, /not waiting/],
        [{}, 409],
        ["not json", 400, /JSON/],
        [{ inputs: { [id]: { action: "accept", content: { team: "x".repeat(70_000) } } } }, 400, /too large/],
      ];
      for (const [body, status, message] of refused) {
        const answer = await api.post(path, body);
        expect(answer.status, JSON.stringify(body).slice(0, 200)).toBe(status);
        if (message) expect(answer.body.error).toMatch(message);
      }
      const ok = { inputs: { [id]: { action: "accept", content: { team: "ops", budget: 12.5 } } } };
      // The guard: no token, a foreign Host or Origin.
      const url = new URL(studio.url);
      const bare = await fetch(new URL(path, url), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(ok),
      });
      expect(bare.status).toBe(401);
      expect((await api.post(path, ok, { origin: "http://evil.example" })).status).toBe(403);
      const rebound = await new Promise<number>((resolve, reject) => {
        import("node:http").then(({ request }) => {
          const sent = request(
            {
              host: url.hostname,
              port: url.port,
              path,
              method: "POST",
              headers: {
                host: `evil.example:${url.port}`,
                "x-studio-token": url.searchParams.get("token")!,
                "content-type": "application/json",
              },
            },
            (response) => {
              response.resume();
              resolve(response.statusCode!);
            },
          );
          sent.on("error", reject);
          sent.end(JSON.stringify(ok));
        }, reject);
      });
      expect(rebound).toBe(403);
      // Nothing of that ran: the server was called once (the pause), the question still waits.
      expect((await logged(log)).filter((entry) => entry.tool === "ask")).toHaveLength(1);
      expect((await api.get("/api/conversation?source=0&id=deploy")).body.pendingInputs).toHaveLength(1);

      const resumed = await api.post(path, ok);
      expect(resumed).toEqual({ status: 200, body: { subtype: "success" } });
      expect((await api.post(path, ok)).status).toBe(409);
      // The server got the answer with its defaults filled in, and the call's result is the server's.
      const effects = (await logged(log)).filter((entry) => entry.effect === "answered");
      // The first run was told cancel (the pause); the second got the answer, defaults filled in.
      expect(effects.map((entry) => entry.action)).toEqual(["cancel", "accept"]);
      const filled = { team: "ops", budget: 12.5, replicas: 3, public: false, region: "eu" };
      expect(effects[1]!.content).toEqual(filled);
      const history = (await studioHistory(place, "deploy")) as ModelMessage[];
      expectWellFormed(history);
      const results = history.flatMap((message) =>
        message.role === "user" && Array.isArray(message.content)
          ? message.content.filter((block): block is ToolResultBlock => block.type === "tool_result")
          : [],
      );
      expect(results).toHaveLength(1);
      expect(results[0]!.content).toEqual([
        { type: "text", text: `answer: accept ${JSON.stringify(filled)}` },
      ]);
      expect(history.at(-1)).toMatchObject({
        role: "assistant",
        content: [{ type: "text", text: "Deployed." }],
      });
      const after = await api.get("/api/conversation?source=0&id=deploy");
      expect(after.body.pendingInputs).toEqual([]);
      expect(after.body.summary.waiting).toBeUndefined();
    } finally {
      await studio.close();
    }
  });
});

async function studioHistory(place: { open(id: string): HistoryStore }, id: string) {
  const store = place.open(id);
  const messages = await store.load();
  await store.close?.();
  return messages;
}

describe("a subagent's approval and a server's question waiting together (SQLite)", () => {
  it("shows both and answers both in one request: the child's call runs once, the server's tool completes", async () => {
    const place = kinds[1]!.make();
    const log = join(temporaryFolder("studio-inputs-log-"), "calls.jsonl");
    const runs: string[] = [];
    const deploy = deployTool(runs);
    const agentFor =
      (parent: ScriptedStep[], child: ScriptedStep[]) =>
      ({ conversationId }: { conversationId: string }) =>
        createAgent({
          model: "claude-sonnet-4-6",
          client: createScriptedClient(parent),
          tools: [
            defineSubagent({
              name: "releaser",
              description: "Releases",
              readOnly: true,
              client: createScriptedClient(child),
              tools: [deploy],
            }),
          ],
          mcpServers: {
            questions: {
              type: "stdio",
              command: process.execPath,
              args: [SERVER],
              env: { QUESTIONS_LOG: log, QUESTIONS_READ_ONLY: "1" },
            },
          },
          historyStore: place.open(conversationId),
        });
    const first = agentFor(
      [
        {
          content: [
            { type: "tool_use", id: "toolu_sub", name: "releaser", input: { prompt: "release" } },
            { type: "tool_use", id: "toolu_ask", name: "mcp__questions__ask", input: PROFILE_QUESTION },
          ],
        },
      ],
      [{ content: [{ type: "tool_use", id: "toolu_deploy", name: "deploy", input: { target: "prod" } }] }],
    )({ conversationId: "both" });
    const paused = await first.prompt("Release and set up");
    await first.close();
    expect(paused.subtype).toBe("requires_input");
    expect(paused.pending_approvals).toEqual([
      expect.objectContaining({ tool_use_id: "toolu_deploy", parent_tool_use_id: "toolu_sub" }),
    ]);
    expect(paused.pending_inputs).toEqual([expect.objectContaining({ id: "toolu_ask/input-1" })]);

    const studio = await startStudio({
      store: place.location,
      createAgent: agentFor([{ content: "Both done." }], [{ content: "Released." }]),
    });
    try {
      const api = client(studio.url);
      const window = await api.get("/api/conversation?source=0&id=both");
      expect(window.body.pending).toEqual([expect.objectContaining({ tool_use_id: "toolu_deploy" })]);
      expect(window.body.pendingInputs).toEqual([expect.objectContaining({ id: "toolu_ask/input-1" })]);
      expect(window.body.summary.waiting).toEqual({ approvals: 1, inputs: 1 });
      const path = "/api/answers?source=0&id=both";
      const answer = { "toolu_ask/input-1": { action: "accept", content: { team: "ops" } } };
      // One of the two alone is refused: both stay pending, nothing ran.
      expect((await api.post(path, { inputs: answer })).status).toBe(400);
      expect((await api.post(path, { decisions: { toolu_deploy: { approved: true } } })).status).toBe(400);
      expect(
        (
          await api.post("/api/approvals?source=0&id=both", {
            decisions: { toolu_deploy: { approved: true } },
          })
        ).status,
      ).toBe(400);
      expect(runs).toEqual([]);
      const resumed = await api.post(path, {
        decisions: { toolu_deploy: { approved: true } },
        inputs: answer,
      });
      expect(resumed).toEqual({ status: 200, body: { subtype: "success" } });
      expect(runs).toEqual(["prod"]);
      const answered = (await logged(log)).filter((entry) => entry.effect === "answered");
      expect(answered.map((entry) => entry.action)).toEqual(["cancel", "accept"]);
      const history = await studioHistory(place, "both");
      expectWellFormed(history);
      expect(history.at(-1)).toMatchObject({
        role: "assistant",
        content: [{ type: "text", text: "Both done." }],
      });
    } finally {
      await studio.close();
    }
  });
});

describe("a server that asks again once answered (JSONL)", () => {
  it("resumes requires_input and lists the next question, which the next answer completes", async () => {
    const place = kinds[0]!.make();
    const server = { type: "stdio" as const, command: process.execPath, args: [SERVER] };
    const agentFor =
      (script: ScriptedStep[]) =>
      ({ conversationId }: { conversationId: string }) =>
        createAgent({
          model: "claude-sonnet-4-6",
          client: createScriptedClient(script),
          mcpServers: { questions: server },
          historyStore: place.open(conversationId),
        });
    const first = agentFor([
      { content: [{ type: "tool_use", id: "toolu_s", name: "mcp__questions__signup", input: {} }] },
    ])({ conversationId: "signup" });
    expect((await first.prompt("Sign me up")).subtype).toBe("requires_input");
    await first.close();
    const studio = await startStudio({
      store: place.location,
      createAgent: agentFor([{ content: "Signed up." }]),
    });
    try {
      const api = client(studio.url);
      const path = "/api/answers?source=0&id=signup";
      const name = await api.post(path, {
        inputs: { "toolu_s/input-1": { action: "accept", content: { name: "Grace" } } },
      });
      expect(name).toEqual({ status: 200, body: { subtype: "requires_input" } });
      const window = await api.get("/api/conversation?source=0&id=signup");
      expect(window.body.pendingInputs).toEqual([
        expect.objectContaining({ id: "toolu_s/input-2", message: "Which plan for Grace?" }),
      ]);
      // The plan is a choice: another value is refused before anything runs.
      const wrong = await api.post(path, {
        inputs: { "toolu_s/input-2": { action: "accept", content: { plan: "gold" } } },
      });
      expect(wrong.status).toBe(400);
      const plan = await api.post(path, {
        inputs: { "toolu_s/input-2": { action: "accept", content: { plan: "pro" } } },
      });
      expect(plan).toEqual({ status: 200, body: { subtype: "success" } });
      const history = await studioHistory(place, "signup");
      expectWellFormed(history);
      expect(JSON.stringify(history)).toContain("signed up Grace on pro");
    } finally {
      await studio.close();
    }
  });
});
