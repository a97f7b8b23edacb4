// Run claims: what taking, renewing, reading and releasing a claim costs in each durable store.
// Run: npm run build && node bench/run-claims.mjs [--cycles 300]   (needs PostgreSQL on 127.0.0.1:5432
// database `test` and Redis on 127.0.0.1:6379; override with AGENT_LATTICE_BENCH_POSTGRES_URL / _REDIS_URL).
// AGENT_LATTICE_DIST points at another build folder (default: ../dist).
//
// For each store: `cycles` rounds of claimRun() → renew() → isRunClaimed() → release() on one
// conversation, one at a time; reported as the median and 90th percentile of each operation in µs.
// A chat run pays one take and one release, a renewal every 10 s, and the studio one read per poll.
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { Redis } from "ioredis";

const cyclesArgument = process.argv.indexOf("--cycles");
const CYCLES = cyclesArgument > 0 ? Number(process.argv[cyclesArgument + 1]) : 300;
const distFolder = resolve(process.env.AGENT_LATTICE_DIST ?? new URL("../dist", import.meta.url).pathname);
const fromDist = (file) => import(pathToFileURL(join(distFolder, file)).href);
const postgresUrl = process.env.AGENT_LATTICE_BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const redisUrl = process.env.AGENT_LATTICE_BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";

const { createJsonlHistoryStore } = await fromDist("index.js");
const { createSqliteHistoryStore } = await fromDist("stores/sqlite.js");
const { createPostgresHistoryStore } = await fromDist("stores/postgres.js");
const { createRedisHistoryStore } = await fromDist("stores/redis.js");

const runId = randomBytes(4).toString("hex");
const schema = `bench_claims_${runId}`;
const keyPrefix = `bench-claims:${runId}:`;
const folder = await mkdtemp(join(tmpdir(), "bench-claims-"));

const stores = {
  JSONL: () => createJsonlHistoryStore({ path: join(folder, "claimed.jsonl") }),
  SQLite: () => createSqliteHistoryStore({ path: join(folder, "claims.db"), conversationId: "claimed" }),
  PostgreSQL: () => createPostgresHistoryStore({ connectionString: postgresUrl, schema, conversationId: "claimed" }),
  Redis: () => createRedisHistoryStore({ url: redisUrl, keyPrefix, conversationId: "claimed" }),
};

function percentile(values, fraction) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
}

async function timed(samples, work) {
  const started = performance.now();
  const result = await work();
  samples.push((performance.now() - started) * 1000);
  return result;
}

console.log(`${CYCLES} cycles per store; µs, median / p90`);
console.log("| store | take | renew | isRunClaimed | release |");
console.log("| --- | ---: | ---: | ---: | ---: |");
try {
  for (const [name, open] of Object.entries(stores)) {
    const store = open();
    const samples = { take: [], renew: [], read: [], release: [] };
    // Warm-up: tables, scripts, lazily loaded modules.
    await (await store.claimRun()).release();
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const claim = await timed(samples.take, () => store.claimRun({ ttlMs: 30_000 }));
      if (!claim) throw new Error(`${name}: the claim was not free`);
      await timed(samples.renew, () => claim.renew());
      await timed(samples.read, () => store.isRunClaimed());
      await timed(samples.release, () => claim.release());
    }
    const cell = (values) =>
      `${Math.round(percentile(values, 0.5)).toLocaleString("en-US")} / ${Math.round(percentile(values, 0.9)).toLocaleString("en-US")}`;
    console.log(
      `| ${name} | ${cell(samples.take)} | ${cell(samples.renew)} | ${cell(samples.read)} | ${cell(samples.release)} |`,
    );
    await store.close();
  }
} finally {
  await rm(folder, { recursive: true, force: true });
  const pool = new pg.Pool({ connectionString: postgresUrl });
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
  const redis = new Redis(redisUrl);
  const keys = await redis.keys(`${keyPrefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
}
