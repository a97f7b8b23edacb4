// What a durable step (`ToolContext.step`) costs per store: an agent over a stored conversation of
// 100 messages runs 20 tool turns against a scripted model, once with a tool that records STEPS
// steps per call and once with the same tool doing the same work without steps; the difference per
// step is the cost of journaling it (one append while the call runs; the results then replace the
// records in one write, `replaceTail` where the store has it). Reported per store: ms per step
// (median of 3 runs).
// Run: npm run build && node bench/tool-steps.mjs   (PostgreSQL on 127.0.0.1:5432 database `test`,
// Redis on 127.0.0.1:6379). AGENT_LATTICE_DIST points at another build folder (default: ../dist).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Redis } from "ioredis";
import pg from "pg";
import { importFromDist } from "./lib/dist.mjs";

const STORED = 100;
const TURNS = 20;
const STEPS = 3;
const RUNS = 3;

const { createAgent, createJsonlHistoryStore, defineTool } = await importFromDist("index.js");
const { createScriptedClient } = await importFromDist("testing.js");
const { createSqliteHistoryStore } = await importFromDist("stores/sqlite.js");
const { createPostgresHistoryStore } = await importFromDist("stores/postgres.js");
const { createRedisHistoryStore } = await importFromDist("stores/redis.js");

function storedConversation() {
  const messages = [];
  for (let index = 0; messages.length < STORED; index++) {
    messages.push({ role: "user", content: `question ${index} ${"x".repeat(500)}` });
    messages.push({ role: "assistant", content: [{ type: "text", text: `answer ${index} ${"y".repeat(500)}` }] });
  }
  return messages;
}

async function msPerTurn(store, withSteps) {
  await store.replace(storedConversation());
  const work = defineTool({
    name: "work",
    description: "Works in steps.",
    inputSchema: { parse: (input) => input, jsonSchema: { type: "object", properties: { n: { type: "number" } } } },
    execute: async ({ n }, context) => {
      let total = 0;
      for (let step = 0; step < STEPS; step++) {
        const run = () => ({ step, n });
        total += (withSteps ? await context.step(`s${step}`, run) : run()).step;
      }
      return `done ${n} ${total}`;
    },
  });
  const turns = Array.from({ length: TURNS }, (_, index) => ({
    content: [{ type: "tool_use", id: `t${index}`, name: "work", input: { n: index } }],
  }));
  const agent = createAgent({
    model: "claude-sonnet-4-6",
    client: createScriptedClient([...turns, { content: "Done." }]),
    tools: [work],
    historyStore: store,
  });
  await agent.getHistory();
  const started = performance.now();
  const result = await agent.prompt("Work.");
  if (result.subtype !== "success") throw new Error(`the run ended ${result.subtype}`);
  return (performance.now() - started) / TURNS;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const folder = await mkdtemp(join(tmpdir(), "tool-steps-"));
const pool = new pg.Pool({ connectionString: "postgres://postgres@127.0.0.1:5432/test" });
const redis = new Redis("redis://127.0.0.1:6379");
const schema = `steps_${process.pid}`;
let conversation = 0;
const stores = {
  jsonl: () => createJsonlHistoryStore({ path: join(folder, `c${++conversation}.jsonl`) }),
  sqlite: () => createSqliteHistoryStore({ path: join(folder, "h.db"), conversationId: `c${++conversation}` }),
  postgres: () => createPostgresHistoryStore({ pool, schema, conversationId: `c${++conversation}` }),
  redis: () => createRedisHistoryStore({ client: redis, keyPrefix: `steps-${process.pid}:`, conversationId: `c${++conversation}` }),
};
try {
  for (const [name, open] of Object.entries(stores)) {
    const plain = [];
    const stepped = [];
    for (let run = 0; run < RUNS; run++) {
      for (const [withSteps, times] of [[false, plain], [true, stepped]]) {
        const store = open();
        times.push(await msPerTurn(store, withSteps));
        await store.close?.();
      }
    }
    const perStep = (median(stepped) - median(plain)) / STEPS;
    console.log(
      `${name.padEnd(9)} ${perStep.toFixed(2).padStart(6)} ms per step  (tool turn ${median(plain).toFixed(2)} ms without steps, ${median(stepped).toFixed(2)} ms with ${STEPS})`,
    );
  }
} finally {
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
  const keys = await redis.keys(`steps-${process.pid}:*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
  await rm(folder, { recursive: true, force: true });
}
