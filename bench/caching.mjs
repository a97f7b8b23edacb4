// What prompt caching saves on an agent run, against the least any request plan could be billed.
//
// A scripted tool conversation runs through the built Agent and its built-in client against the
// mock Messages API server (over loopback), whose simulated prompt cache reports cache reads and
// writes as the API would. Each run is made twice — with caching on (the default) and with
// `promptCaching: false` — and prints billed input-token equivalents:
//   input + 1.25 × cache writes + 0.1 × cache reads.
// "least" is computed by bench/lib/cache-plan.mjs from the requests the run sent and the cache
// rules (the lower bound on any plan), and checked by replaying the plan that reaches it through a
// fresh MockPromptCache: the "plan" column is what that replay was billed.
//
// Runs (about 3,000 tokens of system prompt and tools; tool results of 2 KB):
//   base       50 tool turns, one call each, then the answer
//   parallel   10 turns of 30 parallel tool calls (60 blocks a turn, past the 20-block lookback)
//   ten        ten conversations of one agent configuration, one after another, 10 turns each
//   compaction 50 tool turns with automatic compaction once in the middle
//   handoff    25 tool turns of the root agent, a handoff (`transfer_to_specialist`), 25 tool turns
//              of a specialist with its own system prompt and tools (the markers must follow)
// The mock's clock is simulated: each request comes 6 s after the one before (5-minute TTL).
// Targets: base on ≤ 0.25 × off; every run on ≤ 1.05 × least.
//   npm run build && node bench/caching.mjs [--only base,parallel,ten,compaction] [--json]
import { createAgent, createAnthropicClient, defineHandoff, defineTool } from "../dist/index.js";
import { defaultMinCacheableTokens, MockPromptCache, startMockAnthropicServer } from "../dist/testing.js";
import { z } from "zod";
import { billed, leastPlan, planMarkers, tailMarkerOnly } from "./lib/cache-plan.mjs";

const MODEL = "claude-sonnet-4-6";
const API_KEY = "bench-caching-key";
const STEP_MS = 6_000;
const RESULT_BYTES = 2048;

const SYSTEM = [
  "You are a careful code reviewer working in a repository through tools.",
  ...Array.from(
    { length: 48 },
    (_, rule) =>
      `Rule ${rule + 1}: read the file before judging it, quote the lines you mean, say why the finding matters, propose the smallest fix and say how to test it.`,
  ),
].join("\n");

const description = (what) =>
  `${what} ${"It returns the text as stored, with line numbers, and an error naming the problem when the path is outside the workspace, missing, or not text. ".repeat(10)}`;

/** A read-only tool of the scenario: a long description, a path in, a 2 KB result out. */
const readTool = (name) =>
  defineTool({
    name,
    description: description(`The ${name.replace("_", " ")} tool.`),
    inputSchema: z.object({ path: z.string().describe("A path relative to the workspace root") }),
    readOnly: true,
    execute: async ({ path }) => resultFor(path),
  });

const TOOLS = ["read_file", "grep", "list_dir"].map(readTool);

/** The specialist of the handoff run: a system prompt and tools of its own, as long as the root's. */
const SPECIALIST = defineHandoff({
  name: "specialist",
  description: "Reviews the security of the module.",
  systemPrompt: SYSTEM.replaceAll("code reviewer", "security reviewer"),
  tools: ["read_secure", "grep_secure", "list_secure"].map(readTool),
});

/** A 2 KB result that differs per call. */
function resultFor(path) {
  const line = `// ${path}: export function value() { return ${path.length}; }\n`;
  return line.repeat(Math.ceil(RESULT_BYTES / line.length)).slice(0, RESULT_BYTES);
}

const RUNS = {
  base: { conversations: 1, turns: 50, calls: 1 },
  parallel: { conversations: 1, turns: 10, calls: 30 },
  ten: { conversations: 10, turns: 10, calls: 1 },
  compaction: { conversations: 1, turns: 50, calls: 1, autoCompact: { thresholdTokens: 20_000 } },
  handoff: { conversations: 1, turns: 50, calls: 1, handoffAt: 25 },
};

/** Runs one scenario against a fresh mock server and returns what was sent and billed. */
async function run(name, scenario, promptCaching) {
  let now = 0;
  const times = [];
  const server = await startMockAnthropicServer({ promptCache: { now: () => now } });
  const client = createAnthropicClient({ apiKey: API_KEY, baseURL: server.url });
  const usages = [];
  let compactions = 0;
  try {
    for (let conversation = 0; conversation < scenario.conversations; conversation++) {
      let turn = 0;
      server.setHandler((body) => {
        now += STEP_MS;
        times.push(now);
        if (!Array.isArray(body.tools)) return { content: "Summary: the files reviewed so far hold no finding." };
        turn++;
        if (turn > scenario.turns) return { content: "Reviewed: no finding." };
        if (turn === scenario.handoffAt)
          return { content: [{ type: "tool_use", id: `toolu_handoff_${turn}`, name: "transfer_to_specialist", input: {} }] };
        // The tools of the agent answering (the specialist's after a handoff), without the transfers.
        const names = body.tools.map((tool) => tool.name).filter((tool) => !tool.startsWith("transfer_to_"));
        return {
          content: Array.from({ length: scenario.calls }, (_, call) => ({
            type: "tool_use",
            id: `toolu_${conversation}_${turn}_${call}`,
            name: names[call % names.length],
            input: { path: `src/module-${conversation}/file-${turn}-${call}.ts` },
          })),
        };
      });
      const agent = createAgent({
        model: MODEL,
        client,
        systemPrompt: SYSTEM,
        tools: TOOLS,
        maxTurns: scenario.turns + 5,
        toolConcurrency: 30,
        promptCaching,
        ...(scenario.handoffAt ? { handoffs: [SPECIALIST] } : {}),
        ...(scenario.autoCompact ? { autoCompact: scenario.autoCompact } : {}),
      });
      for await (const message of agent.query(`Review module ${conversation} of ${name}.`)) {
        if (message.type === "system" && message.subtype === "compaction") compactions++;
        if (message.type === "result") {
          if (message.subtype !== "success") throw new Error(`${name}: ${message.subtype} ${message.error?.message ?? ""}`);
          usages.push(message.usage);
        }
      }
      await agent.close();
    }
  } finally {
    await server.close();
  }
  const requests = server.requests.map((request, index) => ({ body: request.body, time: times[index], apiKey: API_KEY }));
  return { requests, billed: usages.reduce((sum, usage) => sum + billed(usage), 0), compactions };
}

/** Replays `requests` through a fresh mock prompt cache with their times; the billed total. */
function replay(requests, bodies) {
  let now = 0;
  const cache = new MockPromptCache({ now: () => now });
  let total = 0;
  requests.forEach((request, index) => {
    now = request.time;
    const outcome = cache.account(bodies[index], request.apiKey);
    if ("error" in outcome) throw new Error(`request ${index + 1} refused: ${outcome.error}`);
    total += billed(outcome.usage);
  });
  return total;
}

function measure(on, off) {
  const least = leastPlan(on.requests, defaultMinCacheableTokens);
  let markers = 0;
  const planned = least.shapes.map((shape, index) => {
    const placed = planMarkers(shape.body, shape.blocks, least.plans[index]);
    markers = Math.max(markers, placed.markers);
    return placed.body;
  });
  const plan = replay(on.requests, planned);
  const tailOnly = replay(on.requests, least.shapes.map((shape) => tailMarkerOnly(shape.body, shape.blocks)));
  const replayed = replay(on.requests, on.requests.map((request) => request.body));
  if (Math.abs(replayed - on.billed) > 1e-6) throw new Error(`the replay (${replayed}) differs from the run (${on.billed})`);
  return { requests: on.requests.length, on: on.billed, off: off.billed, least: least.total, plan, tailOnly, stablePrefix: least.shapes[0].blocks.filter((block) => block.where.part !== "messages").at(-1).tokens, planMarkers: markers, compactions: on.compactions };
}

const args = process.argv.slice(2);
const onlyAt = args.indexOf("--only");
const only = onlyAt >= 0 ? args[onlyAt + 1].split(",") : Object.keys(RUNS);
const results = {};
for (const name of only) {
  const scenario = RUNS[name];
  if (!scenario) throw new Error(`unknown run ${name} (one of ${Object.keys(RUNS).join(", ")})`);
  const on = await run(name, scenario, true);
  const off = await run(name, scenario, false);
  results[name] = measure(on, off);
}

if (args.includes("--json")) console.log(JSON.stringify(results, null, 2));
else {
  const f = (value) => Math.round(value).toLocaleString("en-US");
  console.log("run         requests  on          off          least        plan (replayed)  tail only    on/off  on/least  tail/least");
  for (const [name, r] of Object.entries(results)) {
    console.log(
      `${name.padEnd(11)} ${String(r.requests).padStart(8)}  ${f(r.on).padStart(10)}  ${f(r.off).padStart(11)}  ${f(r.least).padStart(11)}  ${f(r.plan).padStart(15)}  ${f(r.tailOnly).padStart(10)}  ${(r.on / r.off).toFixed(3).padStart(6)}  ${(r.on / r.least).toFixed(3).padStart(8)}  ${(r.tailOnly / r.least).toFixed(3).padStart(10)}`,
    );
  }
  for (const [name, r] of Object.entries(results)) {
    const verdicts = [`on/least ${(r.on / r.least).toFixed(3)} ${r.on <= 1.05 * r.least ? "≤" : ">"} 1.05`];
    if (name === "base") verdicts.unshift(`on/off ${(r.on / r.off).toFixed(3)} ${r.on <= 0.25 * r.off ? "≤" : ">"} 0.25`);
    const notes = [`tools + system ${f(r.stablePrefix)} tokens`, `plan uses ≤ ${r.planMarkers} markers`, r.compactions ? `${r.compactions} compaction(s)` : ""].filter(Boolean);
    console.log(`${name}: ${verdicts.join(", ")} (${notes.join(", ")}${Math.abs(r.plan - r.least) > 0.5 ? `; plan ≠ least by ${f(r.plan - r.least)}` : ""})`);
  }
}
