// agent-lattice/queue: the Redis commands one job costs, counted with MONITOR on a private server.
// Run: npx tsup --silent && node bench/queue-commands.mjs [--jobs 20] [--latency 20] [--show 1]
// Needs `redis-server` on PATH (a private one is started on a free port, then stopped); loads ../dist.
//
// One worker (concurrency 1, in this process) and one producer run `jobs` one-prompt jobs one after
// the other, each in a new conversation, with a Redis history store on the same server and the mock
// Messages API server answering after `latency` ms. MONITOR records every command a client sends
// (commands a Lua script runs are left out); a MULTI … EXEC block counts as one round trip. Reported
// per job: the round trips of each connection (named after the client that owns it), and the
// sequence of one job (`--show`) with the time of each command from the enqueue.
import { parseArgs } from "node:util";
import { Redis } from "ioredis";
import { importFromDist } from "./lib/dist.mjs";
import { startPrivateRedis } from "./lib/redis-server.mjs";

const { values: options } = parseArgs({
  options: {
    jobs: { type: "string", default: "20" },
    latency: { type: "string", default: "20" },
    show: { type: "string", default: "1" },
  },
});

/** Parses a MONITOR line: `<time> [<db> <addr>] "CMD" "arg" …`; undefined for a script's own commands. */
function parseMonitor(line) {
  const match = /^(\d+\.\d+) \[\d+ ([^\]]+)\] (.*)$/.exec(line);
  if (!match || match[2].startsWith("lua")) return undefined;
  const words = [...match[3].matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((word) => word[1]);
  return { at: Number(match[1]) * 1000, addr: match[2], command: words[0]?.toUpperCase(), args: words.slice(1) };
}

async function main() {
  const jobs = Number(options.jobs);
  const server = await startPrivateRedis();
  const { createAgent } = await importFromDist("index.js");
  const { createRedisHistoryStore } = await importFromDist("stores/redis.js");
  const { createAgentQueue, createAgentWorker } = await importFromDist("queue.js");
  const { startMockAnthropicServer } = await importFromDist("testing.js");
  const model = await startMockAnthropicServer({
    handler: () => ({ content: "ok", usage: { input_tokens: 50, output_tokens: 5 }, delayMs: Number(options.latency) }),
  });
  const monitor = new Redis(server.url);
  const marker = new Redis(server.url);
  await marker.client("SETNAME", "bench-marker");
  const history = new Redis(server.url);
  await history.client("SETNAME", "history-store");
  const seen = [];
  let monitorFeed;
  await new Promise((resolve) => {
    void monitor.monitor((error, feed) => {
      if (error) throw error;
      monitorFeed = feed;
      feed.on("monitor", (time, args, source) => {
        if (source === "lua") return;
        seen.push({ at: Number(time) * 1000, addr: source, command: String(args[0]).toUpperCase(), args: args.slice(1) });
      });
      resolve();
    });
  });
  const name = "commands";
  // Named connections (BullMQ and the queue's lane duplicate them, keeping the name).
  const workerConnection = new Redis(server.url, { connectionName: "worker", maxRetriesPerRequest: null });
  const producerConnection = new Redis(server.url, { connectionName: "producer", maxRetriesPerRequest: null });
  const worker = createAgentWorker({
    connection: workerConnection,
    name,
    concurrency: 1,
    createAgent: ({ conversationId }) =>
      createAgent({
        model: "claude-sonnet-4-6",
        apiKey: "bench",
        baseURL: model.url,
        historyStore: createRedisHistoryStore({ client: history, conversationId, ttlSeconds: 3_600 }),
      }),
  });
  const queue = createAgentQueue({ connection: producerConnection, name });
  await worker.bullmq.waitUntilReady();
  try {
    for (let index = -3; index < jobs; index++) {
      await marker.echo(`job ${index}`);
      const { id } = await queue.enqueue({ conversationId: `c${index}`, input: "One question." });
      await queue.waitForResult(id, { timeoutMs: 30_000 });
      await marker.echo("result");
      // Let the background work of the job (promotion, closing the agent, events) land.
      await new Promise((resolve) => setTimeout(resolve, 50 + Number(options.latency)));
    }
    await marker.echo("end");
    await new Promise((resolve) => setTimeout(resolve, 200));
    const names = new Map();
    for (const line of (await marker.client("LIST")).split("\n")) {
      const addr = /addr=(\S+)/.exec(line)?.[1];
      const clientName = /name=(\S*)/.exec(line)?.[1];
      if (addr) names.set(addr, clientName || addr);
    }
    report(seen, names, jobs);
  } finally {
    await worker.close();
    await queue.close();
    await model.close();
    for (const client of [monitorFeed, monitor, marker, history, workerConnection, producerConnection]) client?.disconnect();
    await server.stop();
  }
}

/** Splits the feed at the markers and prints the round trips per job and per connection. */
function report(seen, names, jobs) {
  const perJob = [];
  let current;
  for (const entry of seen) {
    if (entry.command === "ECHO" && String(entry.args[0]).startsWith("job ")) {
      const index = Number(String(entry.args[0]).slice(4));
      current = index >= 0 ? { index, start: entry.at, trips: [] } : undefined;
      if (current) perJob.push(current);
      continue;
    }
    if (entry.command === "ECHO" && current) current.result ??= entry.at - current.start;
    if (entry.command === "ECHO" || entry.command === "MONITOR" || !current) continue;
    current.trips.push(entry);
  }
  // A connection is the lane's when it touches the queue's own keys, BullMQ's otherwise.
  const lanes = new Set(seen.filter((entry) => entry.args.some((arg) => String(arg).startsWith("agent-lattice:queue:"))).map((entry) => entry.addr));
  const label = (addr) => {
    const clientName = names.get(addr) ?? addr;
    if (clientName === "worker" || clientName === "producer") return `${clientName} ${lanes.has(addr) ? "lane" : "BullMQ"}`;
    if (clientName.endsWith(":qe")) return "producer QueueEvents";
    if (clientName.startsWith("bull:")) return "worker BullMQ (blocking)";
    return clientName;
  };
  const totals = new Map();
  for (const job of perJob) {
    const inMulti = new Set();
    for (const trip of job.trips) {
      const who = label(trip.addr);
      if (inMulti.has(trip.addr)) {
        if (trip.command === "EXEC") inMulti.delete(trip.addr);
        continue;
      }
      if (trip.command === "MULTI") inMulti.add(trip.addr);
      totals.set(who, (totals.get(who) ?? 0) + 1);
    }
  }
  let sum = 0;
  console.log(`Redis round trips per job (mean of ${jobs} jobs; MULTI…EXEC = 1):`);
  for (const [who, count] of [...totals].sort((a, b) => b[1] - a[1])) {
    sum += count / jobs;
    console.log(`  ${who.padEnd(28)} ${(count / jobs).toFixed(2)}`);
  }
  console.log(`  ${"total".padEnd(28)} ${sum.toFixed(2)}`);
  const ends = perJob.map((job) => job.result).sort((a, b) => a - b);
  console.log(`enqueue → result seen by the producer: median ${ends[Math.floor(ends.length / 2)].toFixed(2)} ms`);
  for (const job of perJob.slice(0, Number(options.show))) {
    console.log(`\nJob ${job.index}, every command (ms from the enqueue):`);
    for (const trip of job.trips) {
      const what = trip.command === "EVALSHA" ? `EVALSHA ${String(trip.args[0]).slice(0, 8)} ${trip.args.slice(2, 3)}` : `${trip.command} ${trip.args.slice(0, 2).join(" ")}`;
      console.log(`  ${(trip.at - job.start).toFixed(2).padStart(8)}  ${label(trip.addr).padEnd(28)} ${what.slice(0, 110)}`);
    }
  }
}

await main();
