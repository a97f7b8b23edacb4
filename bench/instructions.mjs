// Machine instructions per turn of scenario (a), counted by Valgrind's callgrind: stable to about
// 1% from run to run, where CPU and wall time move by ±30% on a small machine. Use it to judge a
// change to the loop; use `npm run bench` for the published figures.
//   npm run build && node bench/instructions.mjs [lattice|lattice-zod|floor] [warm-up conversations] [measured] [--predictable]
// `--predictable` runs node with V8's --predictable-gc-schedule (fixed young generation and heap
// growth, no memory reducer): the garbage collector no longer adapts to how fast the machine is,
// so the count repeats to about 0.5% even under load (without it, ±5% on a busy machine). The
// count is higher that way (a smaller young generation collects more often); it is the one
// scripts/check-instruction-budget.mjs compares with bench/instruction-budget.json.
// The child runs its warm-up conversations with instrumentation off, then the parent switches it on
// (`callgrind_control -i on`) for the measured conversations only, so start-up and JIT warm-up are
// not counted. Needs `valgrind` on the PATH; takes 15–30 s.
import { fileURLToPath } from "node:url";
import { countInstructions, hasValgrind, warmedUp } from "./lib/callgrind.mjs";
import { IN_PROCESS_CONTENDERS } from "./scenarios/in-process-contenders.mjs";

const TOOL_TURNS = 1000;

if (process.argv[2] === "--child") await runChild(...process.argv.slice(3));
else {
  const predictable = process.argv.includes("--predictable");
  const [contender = "lattice", warmUp = "30", measured = "20"] = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
  await runParent(contender, Number(warmUp), Number(measured), predictable);
}

async function runParent(contender, warmUp, measured, predictable) {
  if (!hasValgrind()) {
    console.error("valgrind is not installed: this benchmark counts instructions with callgrind.");
    process.exit(2);
  }
  const instructions = await countInstructions(
    fileURLToPath(import.meta.url),
    ["--child", contender, String(warmUp), String(measured)],
    { nodeFlags: predictable ? ["--predictable-gc-schedule"] : [] },
  );
  const perTurn = Math.round(instructions / (measured * TOOL_TURNS));
  const mode = predictable ? ", --predictable" : "";
  console.log(`${contender}: ${perTurn.toLocaleString("en")} instructions per turn (${measured} conversations of ${TOOL_TURNS} tool turns after ${warmUp} warm-up conversations${mode})`);
}

async function runChild(contender, warmUp, measured, folder) {
  const entry = IN_PROCESS_CONTENDERS[contender];
  if (!entry) throw new Error(`unknown contender "${contender}" (lattice, lattice-zod or floor)`);
  const conversation = () => entry.run({ toolTurns: TOOL_TURNS, resultBytes: 0, stamp: () => {} });
  for (let index = 0; index < Number(warmUp); index++) await conversation();
  await warmedUp(folder);
  for (let index = 0; index < Number(measured); index++) await conversation();
}
