// agent-lattice: the CPU and wall time of ONE query, outside any loop or queue — the query a queue
// job runs: createAgent (built-in fetch client to the mock server, a Redis history store on a
// shared ioredis client) + prompt("…") + close().
// Run: npx tsup --silent && node bench/query-cost.mjs [--samples 200] [--warm-up 30] [--latency 100]
//        [--store redis|none] [--profile] [--instructions]
// Needs Redis on 127.0.0.1:6379 (AGENT_LATTICE_BENCH_REDIS_URL overrides); loads ../dist
// (AGENT_LATTICE_DIST overrides).
//
// The mock Messages API server runs in a process of its own (as in bench/queue.mjs), answering
// every request "ok" after `latency` ms; its CPU per request is reported separately. Queries run
// one after the other after `warm-up` unmeasured ones (`--store none`: the same without a history
// store, to see what the store costs); reported: medians (and p10/p90) of the wall
// time and of this process's CPU per query, and the wall time above the model's latency.
//   --profile       also writes a .cpuprofile of the measured queries (bench/results/profiles/)
//                   and prints the heaviest functions;
//   --instructions  counts the machine instructions of (at most 50) queries under callgrind, in the
//                   querying process and in the mock server, each from the end of the warm-up:
//                   counts that do not depend on machine load.
//
// Child roles of this same file: `--role model` (the mock server), `--role query` (the querying
// process under callgrind).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync } from "node:fs";
import http from "node:http";
import { syncBuiltinESMExports } from "node:module";
import { performance } from "node:perf_hooks";
import { Session } from "node:inspector/promises";
import { writeFile } from "node:fs/promises";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Redis } from "ioredis";
import { hasValgrind, startUnderCallgrind } from "./lib/callgrind.mjs";
import { summariseCpuProfile } from "./lib/cpu-profile.mjs";
import { importFromDist } from "./lib/dist.mjs";

const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    role: { type: "string", default: "main" },
    samples: { type: "string", default: "200" },
    "warm-up": { type: "string", default: "30" },
    latency: { type: "string", default: "100" },
    profile: { type: "boolean", default: false },
    instructions: { type: "boolean", default: false },
    "model-url": { type: "string" },
    store: { type: "string", default: "redis" },
  },
});
const redisUrl = process.env.AGENT_LATTICE_BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
const MODEL = "claude-sonnet-4-6";
const PROFILES_FOLDER = fileURLToPath(new URL("./results/profiles/", import.meta.url));

/** The mock Messages API server: every request answered "ok" after `latency` ms; CPU on demand. */
async function serveModel(latency) {
  // Per request: the time from its arrival to the end of its answer (the asked latency included);
  // per server: the connections opened (one per agent would mean no connection reuse).
  const answerMs = [];
  let connections = 0;
  const createServer = http.createServer;
  http.createServer = (...parameters) => {
    const server = Object.assign(createServer(...parameters), { keepAliveTimeout: 60_000 });
    server.on("connection", () => connections++);
    server.on("request", (_, response) => {
      const arrived = performance.now();
      response.once("finish", () => answerMs.push(performance.now() - arrived));
    });
    return server;
  };
  syncBuiltinESMExports(); // the build imports `createServer` by name: make it see the patch
  const { startMockAnthropicServer } = await importFromDist("testing.js");
  const usage = { input_tokens: 50, output_tokens: 5 };
  let requests = 0;
  const server = await startMockAnthropicServer({
    handler: () => {
      requests++;
      server.requests.length = 0; // recorded requests are not kept: this server runs for long
      return { content: "ok", usage, delayMs: latency };
    },
  });
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
  // One line on stdin ("cpu"): answers this process's CPU so far and the requests it served.
  createInterface({ input: process.stdin }).on("line", () => {
    const { user, system } = process.cpuUsage();
    const answer = percentile(answerMs.splice(0), 0.5);
    process.stdout.write(`${JSON.stringify({ cpuMs: (user + system) / 1000, requests, connections, answerMs: answer })}\n`);
  });
  process.stdin.on("close", () => server.close().then(() => process.exit(0)));
}

/** Reads the JSON lines a child writes on stdout, one at a time. */
function jsonLines(child) {
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return async () => JSON.parse((await lines.next()).value);
}

/** Starts the mock server process (or `started`, the same under callgrind); `cpu()` asks its CPU. */
async function startModelServer(latency, nodeArguments = [], started = undefined) {
  const script = [fileURLToPath(import.meta.url), "--role", "model", "--latency", String(latency)];
  const child = started ?? spawn(process.execPath, [...nodeArguments, ...script], { stdio: ["pipe", "pipe", "inherit"] });
  const next = jsonLines(child);
  const { url } = await next();
  return {
    url,
    script,
    cpu: async () => {
      child.stdin.write("cpu\n");
      return next();
    },
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", resolve);
        child.stdin.end();
      }),
  };
}

/** One query as a queue job runs it: createAgent + prompt + close over a Redis history store. */
async function queryRunner(redis, modelUrl, prefix) {
  const { createAgent } = await importFromDist("index.js");
  const { createRedisHistoryStore } = await importFromDist("stores/redis.js");
  let count = 0;
  return async () => {
    const conversationId = `q${count++}`;
    const agent = createAgent({
      model: MODEL,
      apiKey: "bench",
      baseURL: modelUrl,
      ...(options.store === "redis"
        ? { historyStore: createRedisHistoryStore({ client: redis, keyPrefix: prefix, conversationId, ttlSeconds: 600 }) }
        : {}),
    });
    const result = await agent.prompt("One question.");
    await agent.close();
    if (result.subtype !== "success") throw new Error(`query ended ${result.subtype}`);
  };
}

/** Runs `samples` queries and returns their wall and CPU times (ms). */
async function measure(run, samples) {
  const wall = [];
  const cpu = [];
  for (let sample = 0; sample < samples; sample++) {
    const started = performance.now();
    const before = process.cpuUsage();
    await run();
    const { user, system } = process.cpuUsage(before);
    wall.push(performance.now() - started);
    cpu.push((user + system) / 1000);
  }
  return { wall, cpu };
}

function percentile(values, share) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
}

const spread = (values) =>
  `${percentile(values, 0.5).toFixed(2)} ms (p10 ${percentile(values, 0.1).toFixed(2)}, p90 ${percentile(values, 0.9).toFixed(2)})`;

async function deleteKeys(redis, pattern) {
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", pattern, "COUNT", 1000);
    cursor = next;
    if (keys.length > 0) await redis.unlink(...keys);
  } while (cursor !== "0");
}

/** Profiles `samples` queries with the in-process inspector and prints the heaviest functions. */
async function profileQueries(run, samples) {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 50 });
  await session.post("Profiler.start");
  await measure(run, samples);
  const { profile } = await session.post("Profiler.stop");
  session.disconnect();
  mkdirSync(PROFILES_FOLDER, { recursive: true });
  const file = `${PROFILES_FOLDER}query-cost-${Date.now()}.cpuprofile`;
  await writeFile(file, JSON.stringify(profile));
  await printProfile(`${samples} queries`, file);
}

/** Prints where a profile's time went: by package, then the heaviest functions by self time. */
async function printProfile(what, file) {
  const summary = await summariseCpuProfile(file, 30);
  console.log(`  CPU profile of ${what}: ${summary.totalMs.toFixed(0)} ms sampled (idle included) → ${file}`);
  for (const entry of summary.files) console.log(`    ${entry.selfMs.toFixed(1).padStart(8)} ms  ${entry.file}`);
  console.log("  heaviest functions (self time):");
  for (const entry of summary.functions)
    console.log(`    ${entry.selfMs.toFixed(1).padStart(8)} ms  ${entry.name}  ${entry.location}`);
}

async function main() {
  const samples = Number(options.samples);
  const warmUp = Number(options["warm-up"]);
  const latency = Number(options.latency);
  const serverProfiles = `${PROFILES_FOLDER}query-cost-server-${Date.now()}`;
  const serverArguments = options.profile ? ["--cpu-prof", `--cpu-prof-dir=${serverProfiles}`, "--cpu-prof-interval=50"] : [];
  const model = await startModelServer(latency, serverArguments);
  const redis = new Redis(redisUrl);
  const prefix = `bench-query-cost-${randomBytes(4).toString("hex")}:`;
  console.log(`query cost: ${samples} queries after ${warmUp} warm-up, model latency ${latency} ms, Node ${process.version}`);
  try {
    const run = await queryRunner(redis, model.url, prefix);
    for (let index = 0; index < warmUp; index++) await run();
    const serverBefore = await model.cpu();
    const { wall, cpu } = await measure(run, samples);
    const serverAfter = await model.cpu();
    const serverPerRequest = (serverAfter.cpuMs - serverBefore.cpuMs) / (serverAfter.requests - serverBefore.requests);
    console.log(`  wall per query: ${spread(wall)} → ${(percentile(wall, 0.5) - latency).toFixed(2)} ms above the latency`);
    console.log(`  CPU per query (this process): ${spread(cpu)}`);
    console.log(
      `  mock server: CPU ${serverPerRequest.toFixed(2)} ms per request (mean); arrival → answer sent ${serverAfter.answerMs.toFixed(2)} ms (median); ` +
        `${serverAfter.connections} connection(s) for ${serverAfter.requests} requests`,
    );
    if (options.profile) await profileQueries(run, samples);
    if (options.instructions) await countQueryInstructions(latency, prefix, warmUp, Math.min(samples, 50));
  } finally {
    await model.stop();
    await deleteKeys(redis, `${prefix}*`);
    await redis.quit();
  }
  if (options.profile) await printProfile(`the mock server (${warmUp + 2 * samples} requests, start-up included)`, `${serverProfiles}/${readdirSync(serverProfiles)[0]}`);
}

/**
 * Counts the instructions of `samples` queries after `warmUp`: the querying process and the mock
 * server each under callgrind, counted from the end of the warm-up until both exit.
 */
async function countQueryInstructions(latency, prefix, warmUp, samples) {
  if (!hasValgrind()) {
    console.log("  instructions: valgrind is not installed");
    return;
  }
  const serverArguments = [fileURLToPath(import.meta.url), "--role", "model", "--latency", String(latency)];
  const server = startUnderCallgrind(serverArguments);
  const model = await startModelServer(latency, [], server.child);
  const queryArguments = [fileURLToPath(import.meta.url), "--role", "query", "--model-url", model.url];
  // A prefix of its own: its conversations start empty, like those measured above.
  const counted = ["--warm-up", String(warmUp), "--samples", String(samples), "--store", options.store, `${prefix}counted:`];
  const query = startUnderCallgrind([...queryArguments, ...counted]);
  const next = jsonLines(query.child);
  await next(); // warmed up
  server.countFromNow();
  query.countFromNow();
  query.child.stdin.write("go\n");
  await next(); // done
  query.child.stdin.end();
  const queryInstructions = await query.instructions;
  await model.stop();
  const serverInstructions = await server.instructions;
  const per = (count) => Math.round(count / samples).toLocaleString("en");
  console.log(`  instructions per query (callgrind, ${samples} after ${warmUp} warm-up): ${per(queryInstructions)}; mock server per request: ${per(serverInstructions)}`);
}

/** The process counted under callgrind: warm-up, then `samples` queries once told to go. */
async function runQueries() {
  const [prefix] = positionals;
  const redis = new Redis(redisUrl);
  const run = await queryRunner(redis, options["model-url"], prefix);
  for (let index = 0; index < Number(options["warm-up"]); index++) await run();
  const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  process.stdout.write(`${JSON.stringify({ warm: true })}\n`);
  await lines.next();
  for (let index = 0; index < Number(options.samples); index++) await run();
  process.stdout.write(`${JSON.stringify({ done: true })}\n`);
  await redis.quit();
  await lines.next();
}

if (options.role === "model") await serveModel(Number(options.latency));
else if (options.role === "query") await runQueries();
else await main();
