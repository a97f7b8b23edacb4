/**
 * Handoffs are durable in every store — JSONL, SQLite, PostgreSQL, Redis and a
 * `defineHistoryStore` — over the mock Messages API server: a fresh Agent over the same
 * conversation is answered by the specialist history names, an approval that paused inside the
 * specialist resumes in it, and a rewind before the handoff gives the conversation back to the root.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createAgent,
  createJsonlHistoryStore,
  defineHandoff,
  defineHistoryStore,
  defineTool,
  type HistoryStore,
  isWellFormedHistory,
  type ModelMessage,
} from "../../../src/index";
import { createPostgresHistoryStore } from "../../../src/integrations/stores/postgres";
import { createRedisHistoryStore } from "../../../src/integrations/stores/redis";
import { createSqliteHistoryStore } from "../../../src/integrations/stores/sqlite";
import { createAnthropicClient } from "../../../src/model/anthropic";
import { toolUse } from "../../support/content";
import { mockServerPerTest } from "../../support/mock-server";

const POSTGRES_URL = process.env.AGENT_LATTICE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const REDIS_URL = process.env.AGENT_LATTICE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const runId = randomBytes(5).toString("hex");
const schema = `agent_lattice_handoffs_${runId}`;
const keyPrefix = `agent-lattice-handoffs:${runId}:`;
let folder = "";
const customRows = new Map<string, string[]>();

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "handoff-stores-"));
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

/** A `defineHistoryStore` over rows of JSON kept by conversation id (what a fresh process would read). */
function customStore(id: string): HistoryStore {
  const rows = () => customRows.get(id) ?? [];
  return defineHistoryStore({
    load: async () => rows().map((row) => JSON.parse(row) as ModelMessage),
    append: async (message) => {
      customRows.set(id, [...rows(), JSON.stringify(message)]);
    },
    replace: async (messages) => {
      customRows.set(
        id,
        messages.map((message) => JSON.stringify(message)),
      );
    },
  });
}

const kinds: Array<{ name: string; open(id: string): HistoryStore }> = [
  { name: "JSONL", open: (id) => createJsonlHistoryStore({ path: join(folder, `${id}.jsonl`) }) },
  {
    name: "SQLite",
    open: (id) => createSqliteHistoryStore({ path: join(folder, "handoffs.db"), conversationId: id }),
  },
  {
    name: "PostgreSQL",
    open: (id) => createPostgresHistoryStore({ connectionString: POSTGRES_URL, schema, conversationId: id }),
  },
  { name: "Redis", open: (id) => createRedisHistoryStore({ url: REDIS_URL, keyPrefix, conversationId: id }) },
  { name: "defineHistoryStore", open: (id) => customStore(id) },
];

const refunded: string[] = [];
const refund = defineTool({
  name: "refund",
  description: "Refunds an invoice.",
  jsonSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  inputSchema: { parse: (input: unknown) => input as { id: string } },
  needsApproval: true,
  execute: ({ id }: { id: string }) => {
    refunded.push(id);
    return `refunded ${id}`;
  },
});

describe.each(kinds)("handoffs in the $name store", ({ name, open }) => {
  const server = mockServerPerTest();
  const billing = defineHandoff({
    name: "billing",
    description: "Invoices and refunds.",
    systemPrompt: "You are billing.",
    tools: [refund],
  });
  const agentOver = (store: HistoryStore) =>
    createAgent({
      model: "claude-sonnet-4-6",
      client: createAnthropicClient({ apiKey: "sk-ant-handoff-stores-0123456789", baseURL: server.url }),
      name: "triage",
      systemPrompt: "You are triage.",
      handoffs: [billing],
      historyStore: store,
    });
  const systems = () =>
    server.requests.map((request) => {
      const system = (request.body as { system?: Array<{ text: string }> | string }).system;
      return typeof system === "string" ? system : (system ?? []).map((block) => block.text).join("");
    });

  it("a fresh Agent is answered by the specialist, resumes its approval in it, and a rewind gives it back", async () => {
    const id = `conversation-${name}-${runId}`.replace(/[^A-Za-z0-9-]/g, "-");
    server.enqueue(
      { content: [toolUse("h1", "transfer_to_billing", { reason: "refund" })] },
      { content: [toolUse("r1", "refund", { id: "A7" })] },
    );
    const first = agentOver(open(id));
    const paused = await first.prompt("Refund invoice A7, please.");
    expect(paused.subtype).toBe("requires_approval");
    expect(paused.pending_approvals?.map((call) => call.name)).toEqual(["refund"]);
    expect(first.activeAgent).toBe("billing");
    await first.close();

    // Another Agent over the same conversation resumes the pause: the specialist's tool runs, it answers.
    server.enqueue({ content: "Refunded A7." });
    const second = agentOver(open(id));
    const resumed = await second.prompt({ approvals: { r1: { approved: true } } });
    expect(resumed).toMatchObject({ subtype: "success", result: "Refunded A7." });
    expect(refunded.filter((entry) => entry === "A7").length).toBeGreaterThan(0);
    expect(second.activeAgent).toBe("billing");
    await second.close();

    // A third one: the next prompt goes to the specialist too.
    server.enqueue({ content: "Anything else on billing?" });
    const third = agentOver(open(id));
    await third.prompt("Thanks!");
    expect(third.activeAgent).toBe("billing");
    expect(systems()).toEqual([
      "You are triage.",
      "You are billing.",
      "You are billing.",
      "You are billing.",
    ]);
    const history = await third.getHistory();
    expect(isWellFormedHistory(history.filter((message) => !isPauseMarker(message)))).toBe(true);
    expect(history.find((message) => message.meta?.handoff)?.meta?.handoff).toEqual({
      from: "triage",
      to: "billing",
    });

    // Rewind to before the first prompt: the root answers again, here and in a fresh Agent.
    const [checkpoint] = await third.checkpoints();
    await third.rewind({ to: checkpoint!.id });
    expect(third.activeAgent).toBe("triage");
    await third.close();
    server.enqueue({ content: "Triage again." });
    const fourth = agentOver(open(id));
    await fourth.prompt("Hello?");
    expect(fourth.activeAgent).toBe("triage");
    expect(systems().at(-1)).toBe("You are triage.");
    await fourth.close();
  });
});

function isPauseMarker(message: ModelMessage): boolean {
  return JSON.stringify(message).includes("pending_approvals");
}
