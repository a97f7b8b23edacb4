// The cost of agent-lattice/ui: one query whose answer streams as 10,000 text deltas, consumed
// (A) raw — `for await` over `agent.query()` — and (B) through `toUIMessageStream` (every chunk
// read from the ReadableStream). Prints the CPU time (user + system) of each, median of 9 rounds
// after 3 warm-up rounds, rounds interleaved, and the ratio B / A (target: ≤ 1.5), twice:
// - over HTTP: the built-in client reads the deltas as SSE from the mock server (in a child
//   process, so only the client's work is measured) — what a chat endpoint does;
// - in process: a client that hands the events over without any I/O — the adapter's cost against
//   the cheapest possible query, a floor no real model reaches.
//
//   npm run build && node bench/ui-stream.mjs [--deltas 10000] [--rounds 9]
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { importFromDist } from "./lib/dist.mjs";

const { values } = parseArgs({ options: { deltas: { type: "string", default: "10000" }, rounds: { type: "string", default: "9" } } });
const DELTAS = Number(values.deltas);
const ROUNDS = Number(values.rounds);
const { createAgent } = await importFromDist("index.js");
const { toUIMessageStream } = await importFromDist("ui.js");

/** A model client that streams its answer as DELTAS one-character text deltas, without a network. */
const client = {
  async createMessage(request) {
    const emit = request.onEvent ?? (() => {});
    emit({ type: "message_start", message: { id: "msg_bench", type: "message", role: "assistant", model: "bench", content: [], usage: { input_tokens: 10, output_tokens: 0 } } });
    emit({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } });
    for (let index = 0; index < DELTAS; index++) emit({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "x" } });
    emit({ type: "content_block_stop", index: 0 });
    emit({ type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: DELTAS } });
    emit({ type: "message_stop" });
    return { role: "assistant", content: [{ type: "text", text: "x".repeat(DELTAS) }], stop_reason: "end_turn", usage: { input_tokens: 10, output_tokens: DELTAS } };
  },
};

const PRICING = { bench: { inputPerMTok: 1, outputPerMTok: 1 } };
let agent = () => createAgent({ model: "bench", client, includePartialMessages: true, pricing: PRICING });

async function raw() {
  let count = 0;
  for await (const message of agent().query("go")) if (message.type === "stream_event") count++;
  return count;
}

async function ui() {
  let count = 0;
  const reader = toUIMessageStream(agent().query("go")).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (value.type === "text-delta") count++;
  }
  return count;
}

async function measure(run) {
  const cpu = process.cpuUsage();
  const wall = performance.now();
  const count = await run();
  const used = process.cpuUsage(cpu);
  return { cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - wall, count };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function compare(label) {
  for (let round = 0; round < 3; round++) {
    await measure(raw);
    await measure(ui);
  }
  const results = { raw: [], ui: [] };
  for (let round = 0; round < ROUNDS; round++) {
    results.raw.push(await measure(raw));
    results.ui.push(await measure(ui));
  }
  const rawCpu = median(results.raw.map((result) => result.cpuMs));
  const uiCpu = median(results.ui.map((result) => result.cpuMs));
  console.log(`${label}: ${DELTAS} deltas per query (raw saw ${results.raw[0].count} stream events, ui ${results.ui[0].count} text-delta chunks)`);
  console.log(`  raw query():        ${rawCpu.toFixed(1)} ms CPU (${((DELTAS / rawCpu) * 1000).toFixed(0)} deltas/s)`);
  console.log(`  toUIMessageStream:  ${uiCpu.toFixed(1)} ms CPU (${((DELTAS / uiCpu) * 1000).toFixed(0)} deltas/s)`);
  console.log(`  ratio: ${(uiCpu / rawCpu).toFixed(2)}x (target ≤ 1.5x)`);
}

const server = spawn(process.execPath, [fileURLToPath(new URL("./scenarios/ui-delta-server.mjs", import.meta.url))], {
  env: { ...process.env, DELTAS: String(DELTAS) },
  stdio: ["pipe", "pipe", "inherit"],
});
const { url } = JSON.parse(await new Promise((resolve) => createInterface({ input: server.stdout }).once("line", resolve)));
agent = () => createAgent({ model: "bench", apiKey: "bench-key", baseURL: url, includePartialMessages: true, pricing: PRICING });
await compare("over HTTP (built-in client, SSE from the mock server)");
server.stdin.end();
agent = () => createAgent({ model: "bench", client, includePartialMessages: true, pricing: PRICING });
await compare("in process (events handed over without I/O)");
