/**
 * The eval runner's cost (issue 40): `node bench/evals.mjs [--rounds 3]` on a built package.
 *
 * 1. Wall time of `agent-lattice eval examples/evals --replay --trials 3` (34 cases × 3 trials,
 *    every scorer, the judge, the SQLite results store, every reporter), as a user runs it.
 * 2. The runner's CPU overhead, in one process, rounds interleaved: `runEval` in replay mode (no
 *    results store) against a floor that runs the same conversations — the agent's and the judge's —
 *    with plain `createAgent` on a client that hands back the cassettes' responses (and stream
 *    events) in order: same workspace copies, same tools run for real, no matching, no scoring, no
 *    report. Overhead = runner CPU / floor CPU − 1 (median of rounds).
 */
import { spawnSync } from "node:child_process";
import { cp, mkdtemp, readdir, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { z } from "zod";
import { createAgent } from "../dist/index.js";
import { runEval } from "../dist/evals.js";
import { createWorkspaceTools } from "../dist/tools.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const example = join(root, "examples/evals");
const rounds = Number(process.argv[process.argv.indexOf("--rounds") + 1]) || 3;
const TRIALS = 3;

function cliWallTime() {
  const out = join(tmpdir(), `bench-evals-${process.pid}`);
  const started = performance.now();
  const run = spawnSync(process.execPath, [join(root, "dist/cli/main.js"), "eval", example, "--replay", "--trials", String(TRIALS), "--out", out, "--reporter", "json,md,junit"], { encoding: "utf8" });
  const wall = performance.now() - started;
  spawnSync("rm", ["-rf", out]);
  if (run.status !== 0) throw new Error(`the eval failed: ${run.stdout}${run.stderr}`);
  return wall;
}

/** Every cassette of the example: its workspace fixture, prompts and recorded interactions. */
async function loadConversations(definitions) {
  const conversations = [];
  for (const definition of definitions) {
    const cases = (await readFile(join(example, definition.cases), "utf8")).trim().split("\n").map((line) => JSON.parse(line));
    for (const evalCase of cases)
      for (let trial = 1; trial <= TRIALS; trial++) {
        const cassette = JSON.parse(await readFile(join(example, definition.name, `${evalCase.id}.trial-${trial}.json`), "utf8"));
        conversations.push({ evalCase, interactions: cassette.interactions });
      }
  }
  return conversations;
}

function playback(interactions) {
  let next = 0;
  return {
    async createMessage(request) {
      const { events, response } = interactions[next++];
      for (const event of events) request.onEvent?.(event);
      return structuredClone(response);
    },
  };
}

const VERDICT = z.object({ score: z.number().min(0).max(1), pass: z.boolean().optional(), reason: z.string().min(1) });

async function floor(conversations) {
  for (const { evalCase, interactions } of conversations) {
    const workspace = await realpath(await mkdtemp(join(tmpdir(), "bench-evals-")));
    await cp(join(example, evalCase.workspace), workspace, { recursive: true });
    const agentSide = interactions.filter((item) => item.channel === "agent");
    const agent = createAgent({
      model: "claude-sonnet-4-6",
      client: playback(agentSide),
      systemPrompt: agentSide[0].request.system,
      tools: createWorkspaceTools({ root: workspace }),
      maxTurns: 8,
    });
    for (const input of [evalCase.input].flat()) await agent.prompt(input);
    await agent.close();
    const judgeSide = interactions.filter((item) => item.channel === "judge");
    const judge = createAgent({ model: "claude-haiku-4-5", client: playback(judgeSide), systemPrompt: judgeSide[0].request.system, outputSchema: VERDICT, maxTurns: 3 });
    await judge.prompt(judgeSide[0].request.messages[0].content);
    await judge.close();
    await rm(workspace, { recursive: true, force: true });
  }
}

async function runner(definitions) {
  for (const definition of definitions) {
    const report = await runEval(definition, { mode: "replay", baseDir: example, trials: TRIALS });
    if (!report.passed) throw new Error(`runner: ${definition.name} failed`);
  }
}

async function cpu(work) {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const { default: definitions } = await import(pathToFileURL(join(example, "workspace.eval.mjs")).href);
const conversations = await loadConversations(definitions.map((definition) => ({ name: definition.name, cases: definition.cases })));
await floor(conversations); // warm-up
await runner(definitions);
const floors = [];
const runners = [];
for (let round = 0; round < rounds; round++) {
  floors.push(await cpu(() => floor(conversations)));
  runners.push(await cpu(() => runner(definitions)));
}
const walls = [cliWallTime(), cliWallTime()];
const overhead = median(runners) / median(floors) - 1;
console.log(`conversations: ${conversations.length} (34 cases × ${TRIALS} trials, each with its judge)`);
console.log(`CLI wall time, --replay --trials ${TRIALS}: ${walls.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(", ")}`);
console.log(`CPU, floor (plain createAgent): ${floors.map((ms) => ms.toFixed(0)).join(", ")} ms`);
console.log(`CPU, runEval (replay): ${runners.map((ms) => ms.toFixed(0)).join(", ")} ms`);
console.log(`runner overhead (medians): ${(overhead * 100).toFixed(1)} %`);
