// What a tool turn checked by `canUseTool` costs in store writes, on a long conversation: an agent
// with `canUseTool` (it allows) resumes a stored conversation of 500 messages (~1 MB) and runs 20
// tool turns against a scripted model; each gated batch records that none of its calls started and
// takes that record back before they run. Reported per store: ms per tool turn (median of 3 runs).
// Run: npm run build && node bench/gated-turns.mjs   (PostgreSQL on 127.0.0.1:5432 database `test`,
// Redis on 127.0.0.1:6379). AGENT_LATTICE_DIST points at another build folder (default: ../dist).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Redis } from "ioredis";
import pg from "pg";
import { importFromDist } from "./lib/dist.mjs";

const STORED = 500;
const TURNS = 20;
const RUNS = 3;

const { createAgent, createJsonlHistoryStore, defineTool } = await importFromDist("index.js");
const { createScriptedClient } = await importFromDist("testing.js");
const { createSqliteHistoryStore } = await importFromDist("stores/sqlite.js");
const { createPostgresHistoryStore } = await importFromDist("stores/postgres.js");
const { createRedisHistoryStore } = await importFromDist("stores/redis.js");

/** A finished conversation of `STORED` messages, ~2 KB each. */
function storedConversation() {
  const messages = [];
  for (let index = 0; messages.length < STORED; index++) {
    messages.push({ role: "user", content: `question ${index} ${"x".repeat(2000)}` });
    messages.push({ role: "assistant", content: [{ type: "text", text: `answer ${index} ${"y".repeat(2000)}` }] });
  }
  return messages;
}

async function msPerGatedTurn(store) {
  await store.replace(storedConversation());
  const echo = defineTool({
    name: "echo",
    description: "Echoes n.",
    inputSchema: { parse: (input) => input, jsonSchema: { type: "object", properties: { n: { type: "number" } } } },
    execute: ({ n }) => `echo ${n}`,
  });
  const steps = Array.from({ length: TURNS }, (_, index) => ({
    content: [{ type: "tool_use", id: `t${index}`, name: "echo", input: { n: index } }],
  }));
  const agent = createAgent({
    model: "claude-sonnet-4-6",
    client: createScriptedClient([...steps, { content: "Done." }]),
    tools: [echo],
    canUseTool: () => ({ behavior: "allow" }),
    historyStore: store,
  });
  await agent.getHistory(); // loaded before the clock starts
  const started = performance.now();
  const result = await agent.prompt("Echo twenty times.");
  if (result.subtype !== "success") throw new Error(`the run ended ${result.subtype}`);
  return (performance.now() - started) / TURNS;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const folder = await mkdtemp(join(tmpdir(), "gated-turns-"));
const pool = new pg.Pool({ connectionString: "postgres://postgres@127.0.0.1:5432/test" });
const redis = new Redis("redis://127.0.0.1:6379");
const schema = `gated_${process.pid}`;
const stores = {
  jsonl: (run) => createJsonlHistoryStore({ path: join(folder, `c${run}.jsonl`) }),
  sqlite: (run) => createSqliteHistoryStore({ path: join(folder, "h.db"), conversationId: `c${run}` }),
  postgres: (run) => createPostgresHistoryStore({ pool, schema, conversationId: `c${run}` }),
  redis: (run) => createRedisHistoryStore({ client: redis, keyPrefix: `gated-${process.pid}:`, conversationId: `c${run}` }),
};
try {
  for (const [name, open] of Object.entries(stores)) {
    const times = [];
    for (let run = 0; run < RUNS; run++) {
      const store = open(run);
      times.push(await msPerGatedTurn(store));
      await store.close?.();
    }
    console.log(`${name.padEnd(9)} ${median(times).toFixed(2).padStart(7)} ms per gated tool turn (500 stored messages, ~1 MB)`);
  }
} finally {
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
  const keys = await redis.keys(`gated-${process.pid}:*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
  await rm(folder, { recursive: true, force: true });
}
