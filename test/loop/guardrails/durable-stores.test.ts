/**
 * Guardrail verdicts are durable facts in every store (issue 41 item 3): a trip — on the input, the
 * output, or a tool call — is recorded in JSONL, SQLite, the real PostgreSQL and the real Redis,
 * and a fresh Agent over a fresh connection to that store (no guardrails of its own) never sends
 * the blocked turn again nor runs its tool: its requests, over HTTP to the mock Messages API server
 * (which refuses a malformed history), leave the turn out and stay well-formed.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createAgent,
  createAnthropicClient,
  createJsonlHistoryStore,
  defineGuardrail,
  defineTool,
  type HistoryStore,
  isWellFormedHistory,
  type ModelMessage,
  piiGuardrail,
} from "../../../src/index";
import { createPostgresHistoryStore } from "../../../src/integrations/stores/postgres";
import { createRedisHistoryStore } from "../../../src/integrations/stores/redis";
import { createSqliteHistoryStore } from "../../../src/integrations/stores/sqlite";
import { type MockAnthropicServer, startMockAnthropicServer } from "../../../src/testing/index";
import { MODEL, toolUse } from "../support";

const POSTGRES_URL = process.env.AGENT_LATTICE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const REDIS_URL = process.env.AGENT_LATTICE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const runId = randomBytes(5).toString("hex");
const schema = `agent_lattice_guardrail_${runId}`;
const keyPrefix = `agent-lattice-guardrail:${runId}:`;
let folder = "";
let server: MockAnthropicServer | undefined;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "guardrail-stores-"));
});

afterEach(async () => {
  await server?.close();
  server = undefined;
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

interface StoreKind {
  name: string;
  open(conversationId: string): HistoryStore;
}

const kinds: StoreKind[] = [
  { name: "JSONL", open: (id) => createJsonlHistoryStore({ path: join(folder, `${id}.jsonl`) }) },
  {
    name: "SQLite",
    open: (id) => createSqliteHistoryStore({ path: join(folder, "guard.db"), conversationId: id }),
  },
  {
    name: "PostgreSQL",
    open: (id) => createPostgresHistoryStore({ connectionString: POSTGRES_URL, schema, conversationId: id }),
  },
  { name: "Redis", open: (id) => createRedisHistoryStore({ url: REDIS_URL, keyPrefix, conversationId: id }) },
];

const offTopic = defineGuardrail({
  name: "topic",
  stage: "input",
  check: ({ text }) =>
    text.includes("weather")
      ? { verdict: "tripwire", message: "off topic", info: { topic: "weather" } }
      : { verdict: "allow" },
});

const refundRuns: string[] = [];
const refund = defineTool({
  name: "refund",
  description: "Refunds an order",
  inputSchema: z.object({ order: z.string(), amount: z.number() }),
  execute: ({ order }) => {
    refundRuns.push(order);
    return `refunded ${order}`;
  },
});
const refundLimit = defineGuardrail({
  name: "refund-limit",
  stage: "tool_input",
  check: ({ toolCall }) =>
    ((toolCall?.input ?? {}) as { amount?: number }).amount! > 100
      ? { verdict: "tripwire", message: "too large" }
      : { verdict: "allow" },
});

function client() {
  return createAnthropicClient({ apiKey: "test-key", baseURL: server!.url });
}

/** What a request sent, as text. */
function sent(index: number): string {
  return JSON.stringify(server!.requests[index]!.body.messages);
}

/** A second Agent — no guardrails — over a fresh connection to the store, answering one prompt. */
async function continueElsewhere(kind: StoreKind, id: string, prompt: string): Promise<ModelMessage[]> {
  const store = kind.open(id);
  const agent = createAgent({ model: MODEL, client: client(), tools: [refund], historyStore: store });
  const result = await agent.prompt(prompt);
  expect(result.subtype).toBe("success");
  const history = await agent.getHistory();
  await agent.close();
  return history;
}

function verdicts(history: readonly ModelMessage[]) {
  return history.map((message) => message.meta?.guardrail?.verdict ?? message.meta?.withdrawn ?? null);
}

describe.each(kinds)("guardrail verdicts in the $name store", (kind) => {
  it("an input tripwire is recorded; a new Agent over the store never sends the blocked prompt", async () => {
    server = await startMockAnthropicServer({ responses: [{ content: "Your invoice is paid." }] });
    const id = `input-${kind.name}`;
    const agent = createAgent({
      model: MODEL,
      client: client(),
      historyStore: kind.open(id),
      guardrails: [offTopic],
    });
    const tripped = await agent.prompt("what is the weather in Paris?");
    expect(tripped.subtype).toBe("guardrail_tripwire");
    await agent.close();
    expect(server.requests).toHaveLength(0);

    const history = await continueElsewhere(kind, id, "is my invoice paid?");
    expect(server.requests).toHaveLength(1);
    expect(sent(0)).not.toContain("weather");
    expect(server.requests[0]!.body.messages).toHaveLength(1);
    // Stored history keeps the verdict, for the studio and an audit.
    expect(history[0]).toMatchObject({
      content: "what is the weather in Paris?",
      meta: { withdrawn: "guardrail", guardrail: { name: "topic", stage: "input", verdict: "tripwire" } },
    });
    expect(history).toHaveLength(3);
  });

  it("an output tripwire is recorded; the withheld answer is never sent again", async () => {
    server = await startMockAnthropicServer({
      responses: [{ content: "Call Jane on +44 20 7946 0958" }, { content: "You are welcome." }],
    });
    const id = `output-${kind.name}`;
    const agent = createAgent({
      model: MODEL,
      client: client(),
      historyStore: kind.open(id),
      guardrails: [piiGuardrail({ stage: "output" })],
    });
    expect((await agent.prompt("who do I call?")).subtype).toBe("guardrail_tripwire");
    await agent.close();

    const history = await continueElsewhere(kind, id, "thanks");
    expect(server.requests).toHaveLength(2);
    expect(sent(1)).not.toContain("7946");
    expect(sent(1)).not.toContain("who do I call");
    expect(verdicts(history)).toEqual(["guardrail", "tripwire", null, null]);
  });

  it("a tool_input tripwire: the call never runs, nor in the next Agent, and the requests stay well-formed", async () => {
    refundRuns.length = 0;
    server = await startMockAnthropicServer({
      responses: [
        { content: [toolUse("t1", "refund", { order: "A-1", amount: 5000 })] },
        { content: "How else can I help?" },
      ],
    });
    const id = `tool-${kind.name}`;
    const agent = createAgent({
      model: MODEL,
      client: client(),
      tools: [refund],
      historyStore: kind.open(id),
      guardrails: [refundLimit],
    });
    const tripped = await agent.prompt("refund everything on A-1");
    expect(tripped.subtype).toBe("guardrail_tripwire");
    expect(tripped.guardrail).toMatchObject({ name: "refund-limit", stage: "tool_input" });
    await agent.close();

    const history = await continueElsewhere(kind, id, "never mind");
    expect(refundRuns).toEqual([]);
    expect(server.requests).toHaveLength(2);
    expect(sent(1)).not.toContain("A-1");
    expect(isWellFormedHistory(server.requests[1]!.body.messages)).toBe(true);
    // The tripped turn stays in the store, withdrawn, answered (well-formed as stored too).
    expect(isWellFormedHistory(history)).toBe(true);
    expect(history.slice(0, 3).every((message) => message.meta?.withdrawn === "guardrail")).toBe(true);
  });
});
