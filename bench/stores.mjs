// Durable history stores: append throughput and load time for a 10,000-message conversation.
// Run: npm run build && node bench/stores.mjs   (needs PostgreSQL on 127.0.0.1:5432 database `test`
// and Redis on 127.0.0.1:6379; override with AGENT_LATTICE_BENCH_POSTGRES_URL / _REDIS_URL).
// AGENT_LATTICE_DIST points at another build folder (default: ../dist).
//
// For each store: 10,000 awaited appends one by one (the way an Agent writes), reported as
// messages per second overall and µs per append over the first and the last 1,000 (equal when an
// append is O(1)); then load() of the whole conversation by a fresh store (median of 5); then one
// replace() of all 10,000. Messages are about 1 KB of JSON, a mix of prompts, tool calls and results.
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { Redis } from "ioredis";
import pg from "pg";

const MESSAGES = 10_000;
const LOADS = 5;
const distFolder = resolve(process.env.AGENT_LATTICE_DIST ?? new URL("../dist", import.meta.url).pathname);
const fromDist = (file) => import(pathToFileURL(join(distFolder, file)).href);
const postgresUrl = process.env.AGENT_LATTICE_BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const redisUrl = process.env.AGENT_LATTICE_BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";

const { createJsonlHistoryStore } = await fromDist("index.js");
const { createSqliteHistoryStore } = await fromDist("stores/sqlite.js");
const { createPostgresHistoryStore } = await fromDist("stores/postgres.js");
const { createRedisHistoryStore } = await fromDist("stores/redis.js");

/** Message `index` of the benchmark conversation: a prompt, a tool call, a tool result, an answer. */
function benchMessage(index) {
  const filler = "lorem ipsum dolor sit amet ".repeat(30);
  switch (index % 4) {
    case 0:
      return { role: "user", content: `Request ${index}: ${filler}` };
    case 1:
      return {
        role: "assistant",
        content: [
          { type: "text", text: `Reading file ${index}.` },
          { type: "tool_use", id: `toolu_${index}`, name: "read_file", input: { path: `src/file-${index}.ts` } },
        ],
        stop_reason: "tool_use",
        usage: { input_tokens: 1200 + index, output_tokens: 40 },
      };
    case 2:
      return { role: "user", content: [{ type: "tool_result", tool_use_id: `toolu_${index - 1}`, content: filler }] };
    default:
      return {
        role: "assistant",
        content: [{ type: "text", text: `Answer ${index}: ${filler}` }],
        stop_reason: "end_turn",
        usage: { input_tokens: 1300 + index, output_tokens: 200 },
      };
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function measure(name, openStore) {
  const writer = await openStore();
  await writer.load();
  const stamps = [performance.now()];
  for (let index = 0; index < MESSAGES; index++) {
    await writer.append(benchMessage(index));
    stamps.push(performance.now());
  }
  const appendSeconds = (stamps[MESSAGES] - stamps[0]) / 1000;
  // Milliseconds for 1,000 appends = microseconds per append.
  const firstThousandUs = stamps[1000] - stamps[0];
  const lastThousandUs = stamps[MESSAGES] - stamps[MESSAGES - 1000];

  const loadTimes = [];
  for (let run = 0; run < LOADS; run++) {
    const reader = await openStore();
    const started = performance.now();
    const loaded = await reader.load();
    loadTimes.push(performance.now() - started);
    if (loaded.length !== MESSAGES) throw new Error(`${name}: loaded ${loaded.length} messages, expected ${MESSAGES}`);
    await reader.close();
  }

  const messages = Array.from({ length: MESSAGES }, (_, index) => benchMessage(index));
  await writer.load();
  const replaceStarted = performance.now();
  await writer.replace(messages);
  const replaceMs = performance.now() - replaceStarted;
  await writer.close();

  return {
    name,
    appendsPerSecond: Math.round(MESSAGES / appendSeconds),
    firstThousandUs: Math.round(firstThousandUs),
    lastThousandUs: Math.round(lastThousandUs),
    loadMs: Math.round(median(loadTimes)),
    replaceMs: Math.round(replaceMs),
  };
}

async function packageVersion(name) {
  const manifest = JSON.parse(await readFile(new URL(`../node_modules/${name}/package.json`, import.meta.url), "utf8"));
  return manifest.version;
}

const runId = randomBytes(4).toString("hex");
const folder = await mkdtemp(join(tmpdir(), "bench-stores-"));
const pool = new pg.Pool({ connectionString: postgresUrl, max: 4 });
// The same server without waiting for the WAL flush at each commit: what the store costs apart from fsync.
const asyncCommitPool = new pg.Pool({ connectionString: postgresUrl, max: 4, options: "-c synchronous_commit=off" });
const redis = new Redis(redisUrl);
const schema = `agent_lattice_bench_${runId}`;
const keyPrefix = `agent-lattice-bench:${runId}:`;

try {
  const results = [
    await measure("JSONL", () => createJsonlHistoryStore({ path: join(folder, "bench.jsonl") })),
    await measure("SQLite (WAL, synchronous=NORMAL)", () =>
      createSqliteHistoryStore({ path: join(folder, "bench.db"), conversationId: "bench" }),
    ),
    await measure("PostgreSQL (loopback)", () => createPostgresHistoryStore({ pool, schema, conversationId: "bench" })),
    await measure("PostgreSQL (loopback, synchronous_commit=off)", () =>
      createPostgresHistoryStore({ pool: asyncCommitPool, schema, conversationId: "bench-async-commit" }),
    ),
    await measure("Redis (loopback)", () => createRedisHistoryStore({ client: redis, keyPrefix, conversationId: "bench" })),
  ];
  const postgresVersion = (await pool.query("SHOW server_version")).rows[0].server_version;
  const redisVersion = /redis_version:(\S+)/.exec(await redis.info("server"))?.[1];
  console.log(`Machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.version}`);
  console.log(
    `Versions: better-sqlite3 ${await packageVersion("better-sqlite3")}, pg ${await packageVersion("pg")} ` +
      `(PostgreSQL ${postgresVersion}), ioredis ${await packageVersion("ioredis")} (Redis ${redisVersion})`,
  );
  console.log(`${MESSAGES.toLocaleString("en")} messages of ~1 KB JSON each.\n`);
  console.log("| store | appends/s | µs per append, first 1,000 | µs per append, last 1,000 | load 10,000 (ms) | replace 10,000 (ms) |");
  console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
  for (const result of results) {
    console.log(
      `| ${result.name} | ${result.appendsPerSecond.toLocaleString("en")} | ${result.firstThousandUs} | ${result.lastThousandUs} | ${result.loadMs} | ${result.replaceMs} |`,
    );
  }
} finally {
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
  await asyncCommitPool.end();
  const keys = await redis.keys(`${keyPrefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
  await rm(folder, { recursive: true, force: true });
}
