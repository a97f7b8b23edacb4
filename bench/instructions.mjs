// Machine instructions per turn of scenario (a), counted by Valgrind's callgrind: stable to about
// 1% from run to run, where CPU and wall time move by ±30% on a small machine. Use it to judge a
// change to the loop; use `npm run bench` for the published figures.
//   npm run build && node bench/instructions.mjs [lattice|lattice-zod|floor] [warm-up conversations] [measured]
// The child runs its warm-up conversations with instrumentation off, then the parent switches it on
// (`callgrind_control -i on`) for the measured conversations only, so start-up and JIT warm-up are
// not counted. Needs `valgrind` on the PATH; takes 15–30 s.
import { fileURLToPath } from "node:url";
import { countInstructions, hasValgrind, warmedUp } from "./lib/callgrind.mjs";
import { IN_PROCESS_CONTENDERS } from "./scenarios/in-process-contenders.mjs";

const TOOL_TURNS = 1000;

if (process.argv[2] === "--child") await runChild(...process.argv.slice(3));
else await runParent(process.argv[2] ?? "lattice", Number(process.argv[3] ?? 30), Number(process.argv[4] ?? 20));

async function runParent(contender, warmUp, measured) {
  if (!hasValgrind()) {
    console.error("valgrind is not installed: this benchmark counts instructions with callgrind.");
    process.exit(2);
  }
  const instructions = await countInstructions(fileURLToPath(import.meta.url), [
    "--child",
    contender,
    String(warmUp),
    String(measured),
  ]);
  const perTurn = Math.round(instructions / (measured * TOOL_TURNS));
  console.log(`${contender}: ${perTurn.toLocaleString("en")} instructions per turn (${measured} conversations of ${TOOL_TURNS} tool turns after ${warmUp} warm-up conversations)`);
}

async function runChild(contender, warmUp, measured, folder) {
  const entry = IN_PROCESS_CONTENDERS[contender];
  if (!entry) throw new Error(`unknown contender "${contender}" (lattice, lattice-zod or floor)`);
  const conversation = () => entry.run({ toolTurns: TOOL_TURNS, resultBytes: 0, stamp: () => {} });
  for (let index = 0; index < Number(warmUp); index++) await conversation();
  await warmedUp(folder);
  for (let index = 0; index < Number(measured); index++) await conversation();
}
