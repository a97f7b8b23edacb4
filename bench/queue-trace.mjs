// agent-lattice/queue: where the time of one job goes, stamp by stamp, against the same query run
// in-process.
// Run: npx tsup --silent && node bench/queue-trace.mjs [--jobs 40] [--latency 100] [--redis URL]
// Needs `redis-server` on PATH unless --redis is given (a private one is started on a free port);
// loads ../dist.
//
// Three processes as in bench/queue.mjs: this one (the producer, and the in-process baseline), one
// worker (concurrency 1) and the mock Messages API server (answers after `latency` ms). Each records
// every Redis command its clients send and when the reply arrives, its model requests (`fetch`),
// and its own stamps (bench/lib/trace-stamps.mjs). Jobs run one at a time, each in a new
// conversation, interleaved with the same query in-process; the first five of each warm up. For
// each step the median time from the start (enqueue, or createAgent in-process) is printed, with
// the median gap to the step before — the gaps are where the overhead is.
//
// Child roles of this same file: `--role model`, `--role worker`.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { importFromDist } from "./lib/dist.mjs";
import { startPrivateRedis } from "./lib/redis-server.mjs";
import { installTracing } from "./lib/trace-stamps.mjs";

const { values: options } = parseArgs({
  options: {
    role: { type: "string", default: "main" },
    jobs: { type: "string", default: "40" },
    latency: { type: "string", default: "100" },
    redis: { type: "string" },
    name: { type: "string" },
    "model-url": { type: "string" },
    // Profiles the worker (V8's sampler, 100 µs) from its first job after the warm-up to the end.
    profile: { type: "string" },
  },
});
const MODEL = "claude-sonnet-4-6";
const WARM_UP = 5;
const tracing = installTracing(options.role === "main" ? "producer" : options.role);
const { stamp } = tracing;

/** Prints this process's stamps (and CPU since `since`) on one line when stdin closes, then exits. */
function dumpOnStdinClose(beforeExit = async () => {}, since = process.cpuUsage(), extra = {}) {
  process.stdin.resume();
  process.stdin.on("close", async () => {
    const { user, system } = process.cpuUsage(since);
    await beforeExit();
    process.stdout.write(`${JSON.stringify({ events: tracing.events, cpuMs: (user + system) / 1000, ...extra })}\n`);
    process.exit(0);
  });
}

async function serveModel(latency) {
  const { startMockAnthropicServer } = await importFromDist("testing.js");
  const usage = { input_tokens: 50, output_tokens: 5 };
  const server = await startMockAnthropicServer({
    handler: () => {
      stamp("model handler");
      return { content: "ok", usage, delayMs: latency };
    },
  });
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
  dumpOnStdinClose(() => server.close());
}

async function agentFactory(redis, modelUrl) {
  const { createAgent } = await importFromDist("index.js");
  const { createRedisHistoryStore } = await importFromDist("stores/redis.js");
  return (conversationId) => {
    stamp("createAgent");
    const agent = createAgent({
      model: MODEL,
      apiKey: "bench",
      baseURL: modelUrl,
      historyStore: createRedisHistoryStore({ client: redis, conversationId, ttlSeconds: 3_600 }),
    });
    stamp("createAgent returned");
    return agent;
  };
}

async function runWorker() {
  const { Redis } = await import("ioredis");
  const { createAgentWorker } = await importFromDist("queue.js");
  const redis = new Redis(options.redis);
  const build = await agentFactory(redis, options["model-url"]);
  const worker = createAgentWorker({
    connection: { url: options.redis },
    name: options.name,
    concurrency: 1,
    createAgent: ({ conversationId }) => build(conversationId),
  });
  // CPU from each job's start (moveToActive's answer) to its completion, and in between.
  const cpu = { inJobs: 0, jobs: 0 };
  let activeCpu;
  const profiler = options.profile ? await startProfilerAfter(worker.bullmq, WARM_UP) : undefined;
  worker.bullmq.on("active", () => {
    stamp("BullMQ active event");
    activeCpu = process.cpuUsage();
  });
  let completed = 0;
  worker.bullmq.on("completed", () => {
    stamp("BullMQ completed event");
    if (++completed <= WARM_UP) return;
    const { user, system } = process.cpuUsage(activeCpu);
    cpu.inJobs += (user + system) / 1000;
    cpu.jobs += 1;
  });
  await worker.bullmq.waitUntilReady();
  const ready = process.cpuUsage();
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
  dumpOnStdinClose(async () => {
    await profiler?.stop(options.profile);
    await worker.close();
    await redis.quit();
  }, ready, cpu);
}

/** Starts V8's profiler at the `after`+1-th job of `worker`; `stop(file)` writes the profile. */
async function startProfilerAfter(worker, after) {
  const { Session } = await import("node:inspector/promises");
  const { writeFile } = await import("node:fs/promises");
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 100 });
  let seen = 0;
  let started;
  worker.on("active", () => {
    if (++seen === after + 1) started = session.post("Profiler.start");
  });
  return {
    async stop(file) {
      await started;
      const { profile } = await session.post("Profiler.stop");
      await writeFile(file, JSON.stringify(profile));
    },
  };
}

/** Starts `node bench/queue-trace.mjs <args>`; resolves once it printed its first JSON line. */
function startChild(args, nodeArguments = []) {
  const child = spawn(process.execPath, [...nodeArguments, fileURLToPath(import.meta.url), ...args], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = [];
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`trace child ${args.join(" ")} exited ${code}`)));
    createInterface({ input: child.stdout }).on("line", (line) => {
      lines.push(JSON.parse(line));
      if (lines.length === 1) resolve({ child, lines });
    });
  });
}

/** Ends a child and resolves with the stamps it printed. */
async function stopChild({ child, lines }) {
  child.removeAllListeners("exit");
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.stdin.end();
  await exited;
  return lines.at(-1);
}

async function main() {
  const jobs = Number(options.jobs);
  const own = options.redis === undefined ? await startPrivateRedis() : undefined;
  const redisUrl = options.redis ?? own.url;
  const { Redis } = await import("ioredis");
  const { createAgentQueue } = await importFromDist("queue.js");
  const name = `trace-${randomBytes(4).toString("hex")}`;
  const model = await startChild(["--role", "model", "--latency", options.latency]);
  const modelUrl = model.lines[0].url;
  const worker = await startChild([
    "--role", "worker", "--redis", redisUrl, "--name", name, "--model-url", modelUrl,
    ...(options.profile ? ["--profile", options.profile] : []),
  ]);
  const redis = new Redis(redisUrl);
  const queue = createAgentQueue({ connection: { url: redisUrl }, name });
  const build = await agentFactory(redis, modelUrl);
  const windows = { job: [], local: [] };
  const producerCpu = { job: 0, local: 0 };
  const cpuSince = (start) => {
    const { user, system } = process.cpuUsage(start);
    return (user + system) / 1000;
  };
  try {
    for (let sample = -WARM_UP; sample < jobs; sample++) {
      const jobCpu = process.cpuUsage();
      const jobStart = stamp("enqueue");
      const { id } = await queue.enqueue({ conversationId: `${name}-job-${sample}`, input: "One question." });
      stamp("enqueue resolved");
      await queue.waitForResult(id, { timeoutMs: 60_000 });
      stamp("waitForResult resolved");
      const jobEnd = tracing.events.length;
      if (sample >= 0) producerCpu.job += cpuSince(jobCpu);
      await pause(20);
      const localCpu = process.cpuUsage();
      const localStart = stamp("local start");
      const agent = build(`${name}-local-${sample}`);
      await agent.prompt("One question.");
      stamp("prompt resolved");
      await agent.close();
      stamp("close resolved");
      const localEnd = tracing.events.length;
      if (sample >= 0) producerCpu.local += cpuSince(localCpu);
      if (sample >= 0) {
        windows.job.push([tracing.events[jobStart - 1].at, tracing.events[jobEnd - 1].at]);
        windows.local.push([tracing.events[localStart - 1].at, tracing.events[localEnd - 1].at]);
      }
      await pause(20);
    }
  } finally {
    await queue.close();
    if (own === undefined) for (const pattern of [`bull:${name}:*`, `agent-lattice:queue:{bull:${name}}:*`, `agent-lattice:{${name}-*`]) await deleteKeys(redis, pattern);
    await redis.quit();
  }
  const workerDump = await stopChild(worker);
  const events = [...tracing.events, ...workerDump.events, ...(await stopChild(model)).events].sort((a, b) => a.at - b.at);
  await own?.stop();
  console.log(`queue trace: ${jobs} jobs (after ${WARM_UP} to warm up), ${options.latency} ms per response, one worker of concurrency 1`);
  console.log(
    `CPU per job: worker ${(workerDump.cpuMs / (jobs + WARM_UP)).toFixed(2)} ms (warm-up included; ${(workerDump.inJobs / workerDump.jobs).toFixed(2)} from active to completed after it), producer ${(producerCpu.job / jobs).toFixed(2)} ms; ` +
      `in-process query ${(producerCpu.local / jobs).toFixed(2)} ms`,
  );
  report("A job (enqueue → waitForResult), ms from the enqueue", events, windows.job);
  report("The same query in-process (createAgent → prompt → close), ms from the start", events, windows.local);
  if (options.profile) {
    const { summariseCpuProfile } = await import("./lib/cpu-profile.mjs");
    const summary = await summariseCpuProfile(options.profile, 25);
    console.log(`\nWorker profile (${options.profile}), ${jobs} jobs: ${summary.totalMs.toFixed(0)} ms sampled`);
    for (const { file, selfMs } of summary.files) console.log(`  ${(selfMs / jobs).toFixed(3).padStart(8)} ms/job  ${file}`);
    for (const { name, location, selfMs } of summary.functions)
      console.log(`  ${(selfMs / jobs).toFixed(3).padStart(8)} ms/job  ${name} ${location}`);
  }
}

async function deleteKeys(redis, pattern) {
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", pattern, "COUNT", 1000);
    cursor = next;
    if (keys.length > 0) await redis.unlink(...keys);
  } while (cursor !== "0");
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Prints, for every step seen in each window, its median offset and the median gap before it. */
function report(title, events, windows) {
  const offsets = new Map();
  const gaps = new Map();
  const cpus = new Map();
  for (const [start, end] of windows) {
    const seen = new Map();
    const lastCpu = new Map();
    let previous = start;
    for (const event of events) {
      if (event.at < start || event.at > end) continue;
      const base = `${event.proc.padEnd(8)} ${event.what}`;
      const count = (seen.get(base) ?? 0) + 1;
      seen.set(base, count);
      const step = count === 1 ? base : `${base} #${count}`;
      push(offsets, step, event.at - start);
      push(gaps, step, event.at - previous);
      if (lastCpu.has(event.proc)) push(cpus, step, (event.cpu - lastCpu.get(event.proc)) / 1000);
      lastCpu.set(event.proc, event.cpu);
      previous = event.at;
    }
  }
  const rows = [...offsets]
    .filter(([, values]) => values.length >= windows.length / 2)
    .map(([step, values]) => ({ step, at: median(values), gap: median(gaps.get(step)), cpu: cpus.has(step) ? median(cpus.get(step)) : undefined, n: values.length }))
    .sort((a, b) => a.at - b.at);
  console.log(`\n${title} (median of ${windows.length}; total ${median(windows.map(([a, b]) => b - a)).toFixed(2)} ms):`);
  console.log(`  ${"at".padStart(8)} ${"gap".padStart(7)} ${"cpu".padStart(6)}  step (cpu: of that process since its stamp before)`);
  for (const { step, at, gap, cpu, n } of rows)
    console.log(`  ${at.toFixed(2).padStart(8)} ${gap.toFixed(2).padStart(7)} ${cpu === undefined ? "      " : cpu.toFixed(2).padStart(6)}  ${step}${n < windows.length ? `  (in ${n})` : ""}`);
}

function push(map, key, value) {
  const list = map.get(key) ?? [];
  list.push(value);
  map.set(key, list);
}

if (options.role === "model") await serveModel(Number(options.latency));
else if (options.role === "worker") await runWorker();
else await main();
