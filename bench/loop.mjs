// Per-turn overhead of the agent loop with an in-process scripted model (no network).
// Run: npm run build && node bench/loop.mjs   (or: npm run bench)
//
// (a) 1,000 tool turns with tiny tool results: µs per turn, against a hand-written minimal loop
//     calling the same scripted client (the floor).
// (b) 1,000 tool turns with 2 KB tool results (history grows to ~2 MB): µs per turn over the first
//     100 and the last 100 turns; a loop that copies history every turn grows with the square.
import { performance } from "node:perf_hooks";
import { createAgent, defineTool } from "../dist/index.js";
import { createScriptedClient } from "../dist/testing.js";
import { z } from "zod";

const TURNS = 1000;
const RUNS = 9;
/**
 * Conversations (each with a new Agent) run before measuring: V8 needs about fifteen to finish
 * optimizing the loop (see bench/README.md). The first one is reported on its own as "cold".
 */
const WARM_UP = 24;

function scriptedModel(turns) {
  return createScriptedClient(
    (_request, index) =>
      index < turns
        ? { content: [{ type: "tool_use", id: `t${index}`, name: "echo", input: { n: index } }], usage: { input_tokens: 1, output_tokens: 1 } }
        : { content: "done", usage: { input_tokens: 1, output_tokens: 1 } },
    { record: false, emitEvents: false },
  );
}

const PASS_THROUGH_SCHEMA = { parse: (input) => input, jsonSchema: { type: "object", properties: { n: { type: "number" } } } };

function echoTool(resultBytes, inputSchema = PASS_THROUGH_SCHEMA) {
  const payload = "x".repeat(resultBytes);
  return defineTool({
    name: "echo",
    inputSchema,
    readOnly: true,
    execute: (input) => (resultBytes > 0 ? `${input.n}:${payload}` : String(input.n)),
  });
}

/** The floor: the smallest correct loop over the same client — no SDK. */
async function floorLoop(resultBytes) {
  const client = scriptedModel(TURNS);
  const payload = "x".repeat(resultBytes);
  const messages = [{ role: "user", content: "go" }];
  const stamps = [];
  const signal = new AbortController().signal;
  while (true) {
    const response = await client.createMessage({ model: "m", messages, maxTokens: 1024, signal });
    messages.push(response);
    stamps.push(performance.now());
    const calls = response.content.filter((block) => block.type === "tool_use");
    if (calls.length === 0) break;
    messages.push({
      role: "user",
      content: calls.map((call) => ({ type: "tool_result", tool_use_id: call.id, content: resultBytes > 0 ? `${call.input.n}:${payload}` : String(call.input.n) })),
    });
  }
  return stamps;
}

async function latticeLoop(resultBytes, inputSchema) {
  const agent = createAgent({ model: "claude-sonnet-4-6", client: scriptedModel(TURNS), tools: [echoTool(resultBytes, inputSchema)], maxTurns: TURNS + 1 });
  const stamps = [];
  for await (const message of agent.query("go")) {
    if (message.type === "assistant") stamps.push(performance.now());
    if (message.type === "result" && message.subtype !== "success") throw new Error(`bench run failed: ${message.subtype}`);
  }
  return stamps;
}

function perTurnMicros(stamps, from, to) {
  return ((stamps[to - 1] - stamps[from - 1]) * 1000) / (to - from);
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function measure(name, loop, resultBytes) {
  const whole = [];
  const first = [];
  const last = [];
  let cold;
  for (let run = 0; run < WARM_UP + RUNS; run++) {
    const stamps = await loop(resultBytes);
    if (run === 0) cold = perTurnMicros(stamps, 1, stamps.length);
    if (run < WARM_UP) continue;
    whole.push(perTurnMicros(stamps, 1, stamps.length));
    first.push(perTurnMicros(stamps, 1, 101));
    last.push(perTurnMicros(stamps, stamps.length - 100, stamps.length));
  }
  return { name, perTurn: median(whole), first100: median(first), last100: median(last), cold };
}

const rows = [];
rows.push(await measure("(a) floor: hand-written loop", floorLoop, 0));
rows.push(await measure("(a) agent-lattice", latticeLoop, 0));
// The same tool with a zod input schema: zod validates through safeParseAsync (a promise per call).
const zodSchema = z.object({ n: z.number() });
rows.push(await measure("(a) agent-lattice, zod input", (bytes) => latticeLoop(bytes, zodSchema), 0));
rows.push(await measure("(b) floor, 2 KB results", floorLoop, 2048));
rows.push(await measure("(b) agent-lattice, 2 KB results", latticeLoop, 2048));

const format = (value) => value.toFixed(1).padStart(9);
console.log(`node ${process.version}, ${TURNS} turns, median of ${RUNS} runs after ${WARM_UP} warm-up conversations (wall time)`);
console.log("scenario                             µs/turn  first100  last100  last/first  cold µs/turn");
for (const row of rows) {
  console.log(`${row.name.padEnd(34)} ${format(row.perTurn)} ${format(row.first100)} ${format(row.last100)} ${(row.last100 / row.first100).toFixed(2).padStart(10)} ${format(row.cold)}`);
}
const floor = rows[0].perTurn;
console.log(`agent-lattice / floor (a): ${(rows[1].perTurn / floor).toFixed(1)}×; absolute overhead ${(rows[1].perTurn - floor).toFixed(1)} µs/turn`);
