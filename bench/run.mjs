// agent-lattice side by side with its peers, in one run: `npm run bench` (builds first).
//
//   node bench/run.mjs [--only a,b,c,d,e] [--runs 3] [--peer-runs 1] [--peer-parallel 2] [--no-peers]
//                      [--readme] [--profile] [--from bench/results/latest.json]
//
// Every measurement runs in a child process of its own; the mock Messages API server of (c) and (d)
// runs in another. Rounds are interleaved (round 1 of every contender, then round 2 …) so a change
// in the machine's load hits every contender alike; each figure is the median over the rounds.
// The peers of (a)/(b) take tens of seconds per 1,000-turn run, so by default they get one run
// each, two at a time (one per core) — see bench/README.md. Results go to bench/results/latest.json
// and latest.md; --readme also writes them into bench/README.md between the result markers;
// --from re-renders a saved latest.json without measuring.
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { runChild, scenarioScript, startMockServerProcess } from "./lib/child-process.mjs";
import { ensurePeersInstalled } from "./lib/dependencies.mjs";
import { distFolder } from "./lib/dist.mjs";
import { busyShare, describeMachine, loadAverages } from "./lib/machine.mjs";
import { profileContender, profileText } from "./lib/profiling.mjs";
import { buildReport, reportMarkdown, reportText } from "./lib/report.mjs";

const { values: options } = parseArgs({
  options: {
    only: { type: "string", default: "a,b,c,d,e" },
    runs: { type: "string", default: "3" },
    "peer-runs": { type: "string", default: "1" },
    "peer-parallel": { type: "string", default: String(Math.min(2, availableParallelism())) },
    "no-peers": { type: "boolean", default: false },
    readme: { type: "boolean", default: false },
    profile: { type: "boolean", default: false },
    from: { type: "string" },
  },
});
const scenarios = new Set(options.only.split(",").map((name) => name.trim()));
const settings = {
  runs: Number(options.runs),
  peerRuns: Number(options["peer-runs"]),
  peerParallel: Math.max(1, Number(options["peer-parallel"])),
  toolTurns: 1000,
  largeResultBytes: 2048,
  warmUpConversations: 24,
  measuredConversations: 3,
  settlingConversations: 4,
  peerWarmUpTurns: 100,
  streamingTurns: 200,
  streamingWarmUpTurns: 20,
  conversations: 100,
  concurrentTurns: 10,
  idleAgents: 10_000,
};
const BUSY_THRESHOLD = 0.25;
const RESULTS_FOLDER = fileURLToPath(new URL("./results/", import.meta.url));
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s`;
const log = (message) => process.stderr.write(`[bench ${elapsed()}] ${message}\n`);

/**
 * Copies the build to a temporary folder, so that a rebuild by someone else mid-run (tsup cleans
 * dist/ first) cannot break the run. Its node_modules links to the repository's, so the copy
 * resolves its dependencies exactly as dist/ does.
 */
async function snapshotBuild() {
  if (process.env.AGENT_LATTICE_DIST) return { env: process.env, remove: async () => {} };
  if (!existsSync(join(distFolder, "index.js")) || !existsSync(join(distFolder, "testing.js"))) {
    throw new Error(`no build in ${distFolder}: run \`npm run build\` first (or \`npm run bench\`, which builds)`);
  }
  const folder = await mkdtemp(join(tmpdir(), "agent-lattice-bench-"));
  await cp(distFolder, join(folder, "dist"), { recursive: true });
  await symlink(fileURLToPath(new URL("../node_modules", import.meta.url)), join(folder, "node_modules"), "junction");
  return {
    env: { ...process.env, AGENT_LATTICE_DIST: join(folder, "dist") },
    remove: () => rm(folder, { recursive: true, force: true }),
  };
}

let peerProblem;
let env = process.env;
let results;

/** Adds one child's run (or its failure) to `table[id]`; a contender that failed is not retried. */
async function measureInto(table, id, describe, run) {
  const entry = (table[id] ??= { runs: [] });
  if (entry.error) return;
  const began = performance.now();
  try {
    const outcome = await run();
    entry.runs.push(...(outcome.runs ?? [outcome]));
    for (const warning of outcome.warnings ?? []) {
      // One line per scenario and contender, whatever the round or process id.
      const line = `${describe.replace(/,? ?(round \d+\/\d+|\d+ run\(s\))$/, "")}: ${warning.replace(/^\(node:\d+\) /, "")}`;
      if (!results.warnings.includes(line)) results.warnings.push(line);
    }
    log(`${describe} done in ${((performance.now() - began) / 1000).toFixed(1)} s`);
  } catch (error) {
    entry.error = error.message.split("\n")[0];
    log(`${describe} FAILED: ${error.message}`);
  }
}

function inProcessChild(id, resultBytes, runs, warmUpTurns, warmUpConversations = 1) {
  return runChild(
    scenarioScript("in-process.mjs"),
    [id, resultBytes, settings.toolTurns, runs, warmUpTurns, warmUpConversations],
    { env, timeoutMs: 600_000 },
  );
}

const bytesOf = { a: 0, b: settings.largeResultBytes };
const inProcessScenarios = ["a", "b"].filter((scenario) => scenarios.has(scenario));

/** Runs `measure(round)` for rounds 1..runs: round 1 of everything, then round 2 … */
async function inRounds(measure) {
  for (let round = 1; round <= settings.runs; round++) await measure(`round ${round}/${settings.runs}`);
}

/**
 * (a) and (b) for the floor and agent-lattice, warm: each child first runs `warmUpConversations`
 * full conversations, each with a new Agent, until the JIT has settled (see README), then measures
 * `measuredConversations` more (medians over all of them: a GC pause that lands in one 100-turn
 * window of one conversation does not decide a verdict). (a) also
 * measures them cold (the first conversation of a fresh process) and settling (the fifth, while
 * the JIT is still compiling).
 */
async function measureInProcess() {
  results.inProcess = Object.fromEntries(inProcessScenarios.map((scenario) => [scenario, {}]));
  await inRounds(async (round) => {
    for (const scenario of inProcessScenarios) {
      for (const id of ["floor", "lattice"]) {
        await measureInto(results.inProcess[scenario], id, `(${scenario}) ${id} ${round}`, () =>
          inProcessChild(
            id,
            bytesOf[scenario],
            settings.measuredConversations,
            settings.toolTurns,
            settings.warmUpConversations,
          ),
        );
        if (scenario !== "a") continue;
        await measureInto(results.inProcess[scenario], `${id}-cold`, `(${scenario}) ${id}, cold, ${round}`, () =>
          inProcessChild(id, bytesOf[scenario], 1, 0, 0),
        );
        await measureInto(results.inProcess[scenario], `${id}-settling`, `(${scenario}) ${id}, settling, ${round}`, () =>
          inProcessChild(id, bytesOf[scenario], 1, settings.toolTurns, settings.settlingConversations),
        );
      }
    }
  });
}

/**
 * The peers of (a) and (b), `peerParallel` children at a time, longest first (each child measures
 * its own CPU time, which sharing the machine with one other child barely changes).
 */
async function measurePeersInProcess() {
  const jobs = [];
  for (const id of ["openai-agents", "vercel"]) {
    for (const scenario of inProcessScenarios) {
      jobs.push(() =>
        measureInto(results.inProcess[scenario], id, `(${scenario}) ${id}, ${settings.peerRuns} run(s)`, () =>
          inProcessChild(id, bytesOf[scenario], settings.peerRuns, settings.peerWarmUpTurns),
        ),
      );
    }
  }
  log(`peers of (a)/(b): ${jobs.length} children, ${settings.peerParallel} at a time (each takes from seconds to minutes)`);
  const worker = async () => {
    while (jobs.length) await jobs.shift()();
  };
  await Promise.all(Array.from({ length: settings.peerParallel }, worker));
}

/** (c): one streamed conversation per child, after a short warm-up conversation. */
async function measureStreaming(url) {
  results.streaming = {};
  await inRounds(async (round) => {
    for (const id of ["raw-fetch", "raw-sdk", "lattice", "vercel"]) {
      if (id === "vercel" && peerProblem) continue;
      await measureInto(results.streaming, id, `(c) ${id} ${round}`, () =>
        runChild(scenarioScript("streaming.mjs"), [id, url, settings.streamingTurns, 1, settings.streamingWarmUpTurns], {
          env,
        }),
      );
    }
  });
}

/** (d): one batch of concurrent conversations per fresh child. */
async function measureConcurrent(url) {
  results.concurrent = {};
  await inRounds(async (round) => {
    for (const id of ["raw-fetch", "raw-sdk", "lattice", "lattice-shared-client", "vercel"]) {
      if (id === "vercel" && peerProblem) continue;
      await measureInto(results.concurrent, id, `(d) ${id} ${round}`, () =>
        runChild(scenarioScript("concurrent.mjs"), [id, url, settings.conversations, settings.concurrentTurns], {
          env,
        }),
      );
    }
  });
}

/** (e): one child per run and variant. */
async function measureIdleAgents() {
  results.idle = {};
  await inRounds(async (round) => {
    for (const variant of ["shared-client", "own-client"]) {
      await measureInto(results.idle, variant, `(e) ${variant} ${round}`, () =>
        runChild(scenarioScript("idle-agents.mjs"), [variant, settings.idleAgents], {
          nodeArguments: ["--expose-gc"],
          env,
        }),
      );
    }
  });
}

/** Installs the peers if needed, snapshots the build, and measures every selected scenario. */
async function measureAll() {
  peerProblem = options["no-peers"] ? "skipped (--no-peers)" : ensurePeersInstalled(log);
  if (peerProblem && !options["no-peers"]) log(`the peers cannot run: ${peerProblem}`);
  const snapshot = await snapshotBuild();
  env = snapshot.env;
  results = {
    date: new Date().toISOString(),
    machine: describeMachine(),
    settings,
    load: { start: loadAverages(), busyAtStart: await busyShare() },
    warnings: [],
  };
  try {
    if (inProcessScenarios.length) await measureInProcess();
    if (scenarios.has("c") || scenarios.has("d")) {
      const server = await startMockServerProcess(env);
      try {
        if (scenarios.has("c")) await measureStreaming(server.url);
        if (scenarios.has("d")) await measureConcurrent(server.url);
      } finally {
        await server.stop();
      }
    }
    if (scenarios.has("e")) await measureIdleAgents();
    if (inProcessScenarios.length && !peerProblem) await measurePeersInProcess();
    else if (inProcessScenarios.length) {
      for (const scenario of inProcessScenarios) {
        for (const id of ["vercel", "openai-agents"]) results.inProcess[scenario][id] = { runs: [], error: peerProblem };
      }
    }
    results.load.end = loadAverages();
    results.load.busyAtEnd = await busyShare();
    // Busy: other work took more than a quarter of the machine while we ran nothing (the load
    // average alone would count our own build and children).
    results.loaded = Math.max(results.load.busyAtStart, results.load.busyAtEnd) > BUSY_THRESHOLD;
    results.elapsedSeconds = (performance.now() - started) / 1000;
    if (options.profile) await profileLattice();
  } finally {
    await snapshot.remove();
  }
  return results;
}

/** CPU profiles of agent-lattice in (a) and (c), printed after the tables (--profile). */
async function profileLattice() {
  results.profiles = [];
  for (const [scenario, id] of [
    ["a", "lattice"],
    ["c", "lattice"],
  ]) {
    log(`profiling (${scenario}) ${id} with --cpu-prof`);
    results.profiles.push(profileText(await profileContender(scenario, id, { env })));
  }
}

/** Prints the tables and verdicts, saves them under bench/results/, and (--readme) in README.md. */
async function publish() {
  const report = buildReport(results);
  process.stdout.write(`\n${reportText(results, report)}\n`);
  if (results.warnings.length) {
    process.stdout.write(`\nWarnings printed by the contenders:\n${results.warnings.map((line) => `  ${line}`).join("\n")}\n`);
  }
  for (const profile of results.profiles ?? []) process.stdout.write(`\n${profile}\n`);
  if (results.loaded) {
    const busiest = Math.round(Math.max(results.load.busyAtStart, results.load.busyAtEnd) * 100);
    process.stdout.write(
      `\nNOTE: other work kept the machine busy (${busiest}% of all cores while the benchmark was idle): means are inflated by stalls and noisy, so the (a)/(b) verdicts used the typical turn. Re-run on a quiet machine for the figures to publish.\n`,
    );
  }
  if (results.elapsedSeconds > 300) {
    process.stdout.write(`\nNOTE: this run took ${Math.round(results.elapsedSeconds)} s (target: under 300 s).\n`);
  }
  const markdown = reportMarkdown(results, report);
  if (!options.from) {
    await mkdir(RESULTS_FOLDER, { recursive: true });
    await writeFile(`${RESULTS_FOLDER}latest.json`, `${JSON.stringify(results, null, 2)}\n`);
    await writeFile(`${RESULTS_FOLDER}latest.md`, `${markdown}\n`);
    log("results written to bench/results/latest.json and latest.md");
  }
  if (options.readme) await writeReadme(markdown);
}

/** Replaces the block between the result markers of bench/README.md; the rest stays as it is. */
async function writeReadme(markdown) {
  const readmePath = new URL("./README.md", import.meta.url);
  const readme = await readFile(readmePath, "utf8");
  const start = "<!-- bench-results:start -->";
  const end = "<!-- bench-results:end -->";
  const from = readme.indexOf(start);
  const to = readme.indexOf(end);
  if (from === -1 || to < from) {
    log("bench/README.md has no result markers; not updated");
    return;
  }
  const generated = `${start}\n<!-- written by \`node bench/run.mjs --readme\`; edit the text around it, not this block -->\n\n${markdown}\n\n`;
  await writeFile(readmePath, readme.slice(0, from) + generated + readme.slice(to));
  log("bench/README.md results updated");
}

if (options.from) results = JSON.parse(await readFile(options.from, "utf8"));
else await measureAll();
await publish();
