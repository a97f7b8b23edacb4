// agent-lattice/queue: throughput of a fleet, and what a job adds over running the agent in-process.
// Run: npx tsup --silent && node bench/queue.mjs [--conversations 1000] [--turns 5] [--latency 100]
//        [--concurrency 10] [--overhead-samples 100]
// Needs Redis on 127.0.0.1:6379 (AGENT_LATTICE_BENCH_REDIS_URL overrides); loads ../dist.
//
// (a) Throughput: `conversations` × `turns` jobs (each turn one prompt, one model response) against
//     the mock Messages API server, which answers after `latency` ms, in a process of its own. All
//     jobs are enqueued at once (each conversation's turns in order; the queue runs them one at a
//     time), then the same run with 1 and with 4 worker processes of `concurrency` each. Reported:
//     jobs per second, and the ratio 4 workers / 1 worker.
// (b) Overhead per query: one job at a time on one worker (enqueue → waitForResult), against the
//     same agent run in this process (createAgent + prompt over the same Redis history store and
//     model server); the difference of the medians, and the median of the paired differences.
//
// Child roles of this same file: `--role model` (the mock server), `--role worker` (one worker).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import http from "node:http";
import { readFileSync } from "node:fs";
import { cpus } from "node:os";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Redis } from "ioredis";
import { importFromDist } from "./lib/dist.mjs";

const { values: options } = parseArgs({
  options: {
    role: { type: "string", default: "main" },
    conversations: { type: "string", default: "1000" },
    turns: { type: "string", default: "5" },
    latency: { type: "string", default: "100" },
    concurrency: { type: "string", default: "10" },
    "overhead-samples": { type: "string", default: "100" },
    name: { type: "string" },
    "model-url": { type: "string" },
    prefix: { type: "string" },
  },
});
const redisUrl = process.env.AGENT_LATTICE_BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
const MODEL = "claude-sonnet-4-6";


/** The mock Messages API server: every request answered "ok" after `latency` ms. */
async function serveModel(latency) {
  // Keep idle keep-alive connections open (Node closes them after 5 s; a client may reuse one just
  // as it closes, which a benchmark must not count as a failure).
  const createServer = http.createServer;
  http.createServer = (...parameters) => Object.assign(createServer(...parameters), { keepAliveTimeout: 60_000 });
  const { startMockAnthropicServer } = await importFromDist("testing.js");
  const usage = { input_tokens: 50, output_tokens: 5 };
  const server = await startMockAnthropicServer({ handler: () => ({ content: "ok", usage, delayMs: latency }) });
  setInterval(() => (server.requests.length = 0), 250);
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
  process.stdin.resume();
  process.stdin.on("close", () => server.close().then(() => process.exit(0)));
}

/** The agent of one job (or of the in-process baseline). */
async function agentFactory(redis, modelUrl, prefix) {
  const { createAgent } = await importFromDist("index.js");
  const { createRedisHistoryStore } = await importFromDist("stores/redis.js");
  return (conversationId) =>
    createAgent({
      model: MODEL,
      apiKey: "bench",
      baseURL: modelUrl,
      historyStore: createRedisHistoryStore({ client: redis, keyPrefix: prefix, conversationId, ttlSeconds: 3_600 }),
    });
}

async function runWorker() {
  const { createAgentWorker } = await importFromDist("queue.js");
  const redis = new Redis(redisUrl);
  const build = await agentFactory(redis, options["model-url"], options.prefix);
  const worker = createAgentWorker({
    connection: { url: redisUrl },
    name: options.name,
    concurrency: Number(options.concurrency),
    createAgent: ({ conversationId }) => build(conversationId),
  });
  let jobs = 0;
  let readyCpu;
  worker.bullmq.on("completed", () => jobs++);
  process.once("SIGTERM", async () => {
    await worker.close();
    await redis.quit();
    // CPU since the worker was ready (its start-up and module loading are not counted).
    const { user, system } = process.cpuUsage(readyCpu);
    process.stdout.write(`${JSON.stringify({ jobs, cpuMs: (user + system) / 1000 })}\n`);
    process.exit(0);
  });
  await worker.bullmq.waitUntilReady();
  readyCpu = process.cpuUsage();
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
}

/** Starts `node bench/queue.mjs <args>` and resolves once it printed its first JSON line. */
function startChild(args, stdin = "ignore") {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), ...args], {
    stdio: [stdin, "pipe", "inherit"],
  });
  const lines = [];
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`bench child ${args.join(" ")} exited ${code}`)));
    createInterface({ input: child.stdout }).on("line", (line) => {
      lines.push(JSON.parse(line));
      if (lines.length === 1) resolve({ child, first: lines[0], lines });
    });
  });
}

function median(values) {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

async function main() {
  const conversations = Number(options.conversations);
  const turns = Number(options.turns);
  const latency = Number(options.latency);
  const concurrency = Number(options.concurrency);
  const { createAgentQueue } = await importFromDist("queue.js");
  const redis = new Redis(redisUrl);
  const run = randomBytes(4).toString("hex");
  const prefix = `bench-queue-${run}:`;
  const model = await startChild(["--role", "model", "--latency", String(latency)], "pipe");
  const modelUrl = model.first.url;
  const names = [];
  console.log(
    `queue bench: ${conversations} conversations × ${turns} turns, ${latency} ms per response, ` +
      `concurrency ${concurrency} per worker · ${cpus().length} CPUs, Node ${process.version}`,
  );
  try {
    const throughput = {};
    for (const workers of [1, 4]) {
      const name = `bench-queue-${run}-${workers}`;
      names.push(name);
      throughput[workers] = await measureThroughput({ createAgentQueue, name, workers, modelUrl, prefix, conversations, turns, concurrency });
      const { jobsPerSecond, seconds, busy, workerCpuPerJob, producerCpuPerJob } = throughput[workers];
      console.log(
        `  ${workers} worker(s): ${jobsPerSecond.toFixed(1)} jobs/s (${seconds.toFixed(1)} s; machine CPU ${(busy * 100).toFixed(0)}% busy; ` +
          `CPU per job: workers ${workerCpuPerJob.toFixed(2)} ms, producer ${producerCpuPerJob.toFixed(2)} ms)`,
      );
    }
    console.log(`  ratio 4 / 1: ${(throughput[4].jobsPerSecond / throughput[1].jobsPerSecond).toFixed(2)}×`);
    const name = `bench-queue-${run}-overhead`;
    names.push(name);
    const overhead = await measureOverhead({ createAgentQueue, name, modelUrl, prefix, redis, samples: Number(options["overhead-samples"]) });
    console.log(
      `  one query: job ${overhead.job.toFixed(1)} ms, in-process ${overhead.inProcess.toFixed(1)} ms (medians of ${overhead.samples}) → overhead ${(overhead.job - overhead.inProcess).toFixed(1)} ms (median of the paired differences: ${overhead.paired.toFixed(1)} ms)`,
    );
    console.log(
      `  CPU of one in-process query (createAgent + prompt + close): ${overhead.inProcessCpu.toFixed(2)} ms; Redis PING round trip: ${overhead.ping.toFixed(2)} ms (median)`,
    );
  } finally {
    model.child.stdin.end();
    for (const name of names)
      for (const pattern of [`bull:${name}:*`, `agent-lattice:queue:{bull:${name}}:*`]) await deleteKeys(redis, pattern);
    await deleteKeys(redis, `${prefix}*`);
    await redis.quit();
  }
}

/** The machine's CPU counters (Linux): busy and total ticks over every core, for the share busy. */
function cpuTicks() {
  try {
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
    const total = fields.reduce((sum, value) => sum + value, 0);
    return { busy: total - fields[3] - (fields[4] ?? 0), total };
  } catch {
    return undefined;
  }
}

const busyShare = (before, after) =>
  before && after ? (after.busy - before.busy) / Math.max(1, after.total - before.total) : Number.NaN;

async function deleteKeys(redis, pattern) {
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", pattern, "COUNT", 1000);
    cursor = next;
    if (keys.length > 0) await redis.unlink(...keys);
  } while (cursor !== "0");
}

/** Jobs per second of `workers` worker processes on `conversations` × `turns` jobs enqueued at once. */
async function measureThroughput({ createAgentQueue, name, workers, modelUrl, prefix, conversations, turns, concurrency }) {
  const children = await Promise.all(
    Array.from({ length: workers }, () =>
      startChild(["--role", "worker", "--name", name, "--model-url", modelUrl, "--prefix", prefix, "--concurrency", String(concurrency)]),
    ),
  );
  const queue = createAgentQueue({ connection: { url: redisUrl }, name });
  const ticks = cpuTicks();
  const producerCpu = process.cpuUsage();
  const started = performance.now();
  const ids = await Promise.all(
    Array.from({ length: conversations }, async (_, index) => {
      const conversationId = `${name}-c${index}`;
      const jobs = [];
      for (let turn = 0; turn < turns; turn++) jobs.push((await queue.enqueue({ conversationId, input: `Turn ${turn}.` })).id);
      return jobs;
    }),
  );
  const results = await Promise.all(ids.flat().map((id) => queue.waitForResult(id, { timeoutMs: 1_800_000 })));
  const seconds = (performance.now() - started) / 1000;
  const busy = busyShare(ticks, cpuTicks());
  const failed = results.filter((result) => result.subtype !== "success").length;
  if (failed > 0) throw new Error(`${failed} jobs did not succeed`);
  const producer = process.cpuUsage(producerCpu);
  for (const { child } of children) child.kill("SIGTERM");
  await Promise.all(children.map(({ child }) => new Promise((resolve) => child.once("exit", resolve))));
  await queue.close();
  const workerCpuMs = children.reduce((sum, { lines }) => sum + (lines.at(-1)?.cpuMs ?? 0), 0);
  return {
    jobsPerSecond: results.length / seconds,
    seconds,
    busy,
    workerCpuPerJob: workerCpuMs / results.length,
    producerCpuPerJob: (producer.user + producer.system) / 1000 / results.length,
  };
}

/** Median latency of one query as a job (one worker, one job at a time) and in-process. */
async function measureOverhead({ createAgentQueue, name, modelUrl, prefix, redis, samples }) {
  const { child } = await startChild(["--role", "worker", "--name", name, "--model-url", modelUrl, "--prefix", prefix, "--concurrency", "1"]);
  const queue = createAgentQueue({ connection: { url: redisUrl }, name });
  const build = await agentFactory(redis, modelUrl, prefix);
  const job = [];
  const inProcess = [];
  const inProcessCpu = [];
  try {
    for (let sample = -5; sample < samples; sample++) {
      // Interleaved, so both see the same machine load; the first five warm up.
      let started = performance.now();
      const { id } = await queue.enqueue({ conversationId: `${name}-job-${sample}`, input: "One question." });
      await queue.waitForResult(id, { timeoutMs: 60_000 });
      if (sample >= 0) job.push(performance.now() - started);
      started = performance.now();
      const cpu = process.cpuUsage();
      const agent = build(`${name}-local-${sample}`);
      await agent.prompt("One question.");
      await agent.close();
      if (sample >= 0) {
        inProcess.push(performance.now() - started);
        const { user, system } = process.cpuUsage(cpu);
        inProcessCpu.push((user + system) / 1000);
      }
    }
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
    await queue.close();
  }
  const pings = [];
  for (let index = 0; index < 50; index++) {
    const started = performance.now();
    await redis.ping();
    pings.push(performance.now() - started);
  }
  // Each job is paired with the in-process query run right after it: the median of the differences
  // is less moved by the machine's load drifting during the run than the difference of the medians.
  const paired = median(job.map((value, index) => value - inProcess[index]));
  return { job: median(job), inProcess: median(inProcess), paired, inProcessCpu: median(inProcessCpu), samples, ping: median(pings) };
}

if (options.role === "model") await serveModel(Number(options.latency));
else if (options.role === "worker") await runWorker();
else await main();
