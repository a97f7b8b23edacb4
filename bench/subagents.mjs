// The overhead a subagent call adds over running the same child agent directly, per call, with
// scripted clients (no network). Both variants run a parent query of two turns whose first turn
// calls one tool:
//   direct    — a plain tool (defineTool) that creates the child agent and awaits child.prompt()
//   subagent  — defineSubagent with the same child settings (messages forwarded to the parent's
//               consumer, tagged; cost shared live with the parent's ledger; interrupt and budget wired)
// The difference of the two is what defineSubagent and the live delivery of the tool phase cost.
//
//   npm run build && node bench/subagents.mjs [calls per round] [rounds]
//     Time: a warm-up round of each variant, then `rounds` rounds alternating the two variants (the
//     order flipped each round), each timing `calls` parent queries. Reports the median µs per call
//     of each variant — wall and CPU time (process.cpuUsage: what the process ran, not the time it
//     waited for a core) — and the median and spread of the per-round overhead.
//   node bench/subagents.mjs --instructions [warm-up calls] [measured calls]
//     Machine instructions per call of each variant, counted by Valgrind's callgrind with
//     instrumentation on only for the measured calls (as bench/instructions.mjs). Defaults 2000 and
//     1000: with 300 warm-up calls the JIT has not settled and the counts move by 30%. Stable to
//     about 1% where time moves by ±30% on a loaded machine. Needs `valgrind`; takes about 3 minutes.
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { createAgent, defineSubagent, defineTool } from "../dist/index.js";
import { createScriptedClient } from "../dist/testing.js";
import { countInstructions, hasValgrind, warmedUp } from "./lib/callgrind.mjs";

const MODEL = "claude-sonnet-4-6";
const CHILD_SYSTEM = "You are the child.";

/** One client for both agents: the parent asks for the tool, the child answers, the parent ends. */
const client = createScriptedClient(
  (request) => {
    if (request.system === CHILD_SYSTEM) return { content: "child answer", usage: { input_tokens: 10, output_tokens: 2 } };
    const last = request.messages.at(-1);
    const answered = Array.isArray(last?.content) && last.content.some((block) => block.type === "tool_result");
    if (answered) return { content: "done", usage: { input_tokens: 10, output_tokens: 1 } };
    return {
      content: [{ type: "tool_use", id: "toolu_1", name: "child", input: { prompt: "work" } }],
      usage: { input_tokens: 10, output_tokens: 5 },
    };
  },
  { record: false, emitEvents: false },
);

const VARIANTS = {
  direct: defineTool({
    name: "child",
    description: "Runs the child agent directly.",
    inputSchema: z.object({ prompt: z.string() }),
    execute: async ({ prompt }) => {
      const child = createAgent({ model: MODEL, client, systemPrompt: CHILD_SYSTEM, maxTurns: 50 });
      const result = await child.prompt(prompt);
      await child.close();
      return result.result;
    },
  }),
  subagent: defineSubagent({ name: "child", description: "Runs the child agent.", systemPrompt: CHILD_SYSTEM }),
};

/** Runs `calls` parent queries with `tool` (one call each), consuming every message as a caller would. */
async function run(tool, calls) {
  const agent = createAgent({ model: MODEL, client, tools: [tool] });
  for (let index = 0; index < calls; index++) {
    for await (const message of agent.query("go"))
      if (message.type === "result" && message.is_error) throw new Error(message.subtype);
    await agent.replaceHistory([]);
  }
  await agent.close();
}

/** Wall and CPU µs per call of `calls` parent queries with `tool`. */
async function timed(tool, calls) {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  await run(tool, calls);
  const wall = Number(process.hrtime.bigint() - start) / 1000 / calls;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / calls };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function timeBoth(calls, rounds) {
  await timed(VARIANTS.direct, calls); // warm-up: JIT, inline caches, the lazy imports
  await timed(VARIANTS.subagent, calls);
  const rows = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? ["subagent", "direct"] : ["direct", "subagent"];
    const row = {};
    for (const name of order) row[name] = await timed(VARIANTS[name], calls);
    rows.push(row);
  }
  console.log(`${calls} calls per round, ${rounds} rounds (µs per parent query with one call; medians)`);
  for (const clock of ["wall", "cpu"]) {
    const d = median(rows.map((row) => row.direct[clock]));
    const s = median(rows.map((row) => row.subagent[clock]));
    const overheads = rows.map((row) => row.subagent[clock] - row.direct[clock]);
    const spread = `${Math.min(...overheads).toFixed(1)}…${Math.max(...overheads).toFixed(1)}`;
    console.log(
      `${clock.padEnd(4)}  direct ${d.toFixed(1)}  subagent ${s.toFixed(1)}  overhead ${median(overheads).toFixed(1)} µs (rounds ${spread})`,
    );
  }
}

async function countSubagentInstructions(warmUp, measured) {
  if (!hasValgrind()) {
    console.error("valgrind is not installed: --instructions counts instructions with callgrind.");
    process.exit(2);
  }
  const counts = {};
  for (const name of Object.keys(VARIANTS)) counts[name] = (await instructionsOf(name, warmUp, measured)) / measured;
  console.log(`instructions per parent query with one call (${measured} measured after ${warmUp} warm-up calls)`);
  console.log(`direct ${Math.round(counts.direct).toLocaleString("en")}  subagent ${Math.round(counts.subagent).toLocaleString("en")}`);
  const overhead = counts.subagent - counts.direct;
  console.log(`overhead ${Math.round(overhead).toLocaleString("en")} instructions per call (${((counts.subagent / counts.direct - 1) * 100).toFixed(1)} %)`);
}

/** Instructions the child process ran for `measured` calls of `name`, after its warm-up. */
function instructionsOf(name, warmUp, measured) {
  return countInstructions(fileURLToPath(import.meta.url), ["--child", name, String(warmUp), String(measured)]);
}

/** Under callgrind: warm up, signal it, wait for instrumentation, run the measured calls. */
async function runChild(name, warmUp, measured, folder) {
  await run(VARIANTS[name], Number(warmUp));
  await warmedUp(folder);
  await run(VARIANTS[name], Number(measured));
}

const [mode, ...rest] = process.argv.slice(2);
if (mode === "--child") await runChild(...rest);
else if (mode === "--instructions") await countSubagentInstructions(Number(rest[0] ?? 2000), Number(rest[1] ?? 1000));
else await timeBoth(Number(mode ?? 3000), Number(rest[0] ?? 9));
