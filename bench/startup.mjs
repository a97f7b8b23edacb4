// Start-up time, side by side in one run (issue 16):
//   1. `import("agent-lattice")` + `createAgent(...)` against `import("@anthropic-ai/sdk")` (and the
//      `ai` package's import, when bench/node_modules has it) — timed inside a fresh process, from
//      before the import to after `createAgent`, and as the whole process's wall time;
//   2. `node dist/cli/main.js --version` and `--help` against `node -e 0` — whole process wall time.
// Every contender runs in a fresh child process; rounds are interleaved (A B A B …) so a change of
// load hits all alike; figures are medians over the rounds.
//
//   node bench/startup.mjs [--rounds 21] [--json]
//
// Run it on a build (`npx tsup`); AGENT_LATTICE_DIST=<folder> measures another build. Targets
// (issue 39), each the median over the rounds of the ratio taken within one round (a pair run back
// to back): import + createAgent ≤ 0.4× the SDK's import; `--version` ≤ 1.3× `node -e 0`.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { distFolder } from "./lib/dist.mjs";
import { formatNumber, formatRatio, median, textTable } from "./lib/stats.mjs";

const args = process.argv.slice(2);
const rounds = Number(args[args.indexOf("--rounds") + 1]) || 21;
const asJson = args.includes("--json");
const require = createRequire(import.meta.url);

/** Resolves a package as bench/ sees it (bench/node_modules, then the package's own). */
function resolvable(name) {
  try {
    return pathToFileURL(require.resolve(name)).href;
  } catch {
    return undefined;
  }
}

const latticeEntry = pathToFileURL(join(distFolder, "index.js")).href;
const cli = join(distFolder, "cli", "main.js");

/** A child that imports `what` and reports the milliseconds the import (and `then`) took. */
function importScript(specifier, then = "") {
  return `const t0 = performance.now(); const m = await import(${JSON.stringify(specifier)}); ${then}
process.stdout.write(String(performance.now() - t0));`;
}

const IMPORTS = [
  {
    id: "lattice",
    label: 'import("agent-lattice") + createAgent',
    script: importScript(
      latticeEntry,
      'm.createAgent({ model: "claude-sonnet-4-6", apiKey: "bench-not-a-real-key" });',
    ),
  },
  { id: "sdk", label: 'import("@anthropic-ai/sdk")', script: importScript(resolvable("@anthropic-ai/sdk")) },
  ...(resolvable("ai") ? [{ id: "ai", label: 'import("ai")', script: importScript(resolvable("ai")) }] : []),
];

const COMMANDS = [
  { id: "node", label: "node -e 0", argv: ["-e", "0"] },
  { id: "version", label: "agent-lattice --version", argv: [cli, "--version"] },
  { id: "help", label: "agent-lattice --help", argv: [cli, "--help"] },
];

/** Runs one child; returns its wall time and, for an import, the in-process figure. */
function runChild(argv) {
  const started = process.hrtime.bigint();
  const child = spawnSync(process.execPath, argv, { encoding: "utf8" });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (child.status !== 0) throw new Error(`${argv.join(" ")} failed: ${child.stderr}`);
  return { wallMs, importMs: Number.parseFloat(child.stdout) };
}

const samples = new Map([...IMPORTS, ...COMMANDS].map((contender) => [contender.id, []]));
// One warm-up round (file system caches), not counted.
for (let round = -1; round < rounds; round++) {
  for (const contender of IMPORTS) {
    const sample = runChild(["--input-type=module", "-e", contender.script]);
    if (round >= 0) samples.get(contender.id).push(sample);
  }
  for (const contender of COMMANDS) {
    const sample = runChild(contender.argv);
    if (round >= 0) samples.get(contender.id).push(sample);
  }
}

const medianOf = (id, field) => median(samples.get(id).map((sample) => sample[field]));
const results = {
  rounds,
  imports: IMPORTS.map(({ id, label }) => ({
    id,
    label,
    importMs: medianOf(id, "importMs"),
    processMs: medianOf(id, "wallMs"),
  })),
  commands: COMMANDS.map(({ id, label }) => ({ id, label, processMs: medianOf(id, "wallMs") })),
};
const sdk = results.imports.find((entry) => entry.id === "sdk");
const node = results.commands.find((entry) => entry.id === "node");
/** The median over the rounds of `id`'s figure divided by `baseline`'s in the same round. */
const pairedRatio = (id, baseline, field) =>
  median(samples.get(id).map((sample, round) => sample[field] / samples.get(baseline)[round][field]));
results.verdicts = {
  importVersusSdk: pairedRatio("lattice", "sdk", "importMs"),
  versionVersusNode: pairedRatio("version", "node", "wallMs"),
  helpVersusNode: pairedRatio("help", "node", "wallMs"),
};

if (asJson) {
  console.log(JSON.stringify(results, null, 2));
} else {
  console.log(`Start-up, medians of ${rounds} interleaved rounds (fresh process each)\n`);
  console.log(
    textTable(
      ["import", "import ms", "× SDK import", "process ms"],
      results.imports.map((entry) => [
        entry.label,
        formatNumber(entry.importMs),
        formatRatio(entry.importMs / sdk.importMs),
        formatNumber(entry.processMs),
      ]),
    ),
  );
  console.log("");
  console.log(
    textTable(
      ["command", "process ms", "× node -e 0"],
      results.commands.map((entry) => [
        entry.label,
        formatNumber(entry.processMs),
        formatRatio(entry.processMs / node.processMs),
      ]),
    ),
  );
  const { importVersusSdk, versionVersusNode, helpVersusNode } = results.verdicts;
  console.log(
    `\nTargets (median of the paired ratios): import + createAgent ≤ 0.4× the SDK's import: ${formatRatio(importVersusSdk)} ${importVersusSdk <= 0.4 ? "met" : "NOT met"}; ` +
      `--version ≤ 1.3× node -e 0: ${formatRatio(versionVersusNode)} ${versionVersusNode <= 1.3 ? "met" : "NOT met"}; ` +
      `--help: ${formatRatio(helpVersusNode)}`,
  );
}
