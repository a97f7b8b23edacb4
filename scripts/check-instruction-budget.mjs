// The loop's cost per turn may not grow unnoticed (issue 39): runs
// `node bench/instructions.mjs lattice --predictable` on the build and fails when the count is more
// than `tolerance` over bench/instruction-budget.json's budget. Skipped (exit 0, said so) where
// valgrind is not installed; .ci/run installs it. About 20–60 s.
//   node scripts/check-instruction-budget.mjs
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const budgetFile = fileURLToPath(new URL("../bench/instruction-budget.json", import.meta.url));
const { budget, tolerance } = JSON.parse(readFileSync(budgetFile, "utf8"));

if (spawnSync("valgrind", ["--version"]).status !== 0) {
  console.log("instruction budget: not checked (valgrind is not installed)");
  process.exit(0);
}
const bench = fileURLToPath(new URL("../bench/instructions.mjs", import.meta.url));
const run = spawnSync(process.execPath, [bench, "lattice", "--predictable"], { encoding: "utf8" });
const counted = /lattice: ([\d,]+) instructions per turn/.exec(run.stdout);
if (run.status !== 0 || !counted) {
  console.error(`instruction budget: the benchmark failed\n${run.stdout}${run.stderr}`);
  process.exit(1);
}
const perTurn = Number(counted[1].replaceAll(",", ""));
const limit = Math.round(budget * (1 + tolerance));
const verdict = `${perTurn.toLocaleString("en")} instructions per turn; budget ${budget.toLocaleString("en")} + ${tolerance * 100}% = ${limit.toLocaleString("en")}`;
if (perTurn > limit) {
  console.error(
    `instruction budget: over — ${verdict}.\nFind what the change costs (bench/README.md, "Instructions per turn") and remove it; if the cost is worth it, raise bench/instruction-budget.json in the same commit, with the measured before/after in the commit message.`,
  );
  process.exit(1);
}
console.log(`instruction budget: within — ${verdict}`);
