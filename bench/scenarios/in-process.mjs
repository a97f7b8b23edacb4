// Scenarios (a) and (b) for one contender, in a process of its own:
//   node --expose-gc bench/scenarios/in-process.mjs <contender> <resultBytes> [toolTurns] [runs]
// One warm-up conversation of 100 tool turns, then `runs` conversations of `toolTurns` tool turns.
// Prints one JSON line: per run, µs per tool turn (wall and CPU) over all turns, the first 100 and
// the last 100. A tool turn is the time from one model request to the next.
import { cpuMicros } from "../lib/stats.mjs";
import { createStamps, FINAL_ANSWER } from "../lib/turns.mjs";
import { IN_PROCESS_CONTENDERS } from "./in-process-contenders.mjs";

const [contenderId, resultBytesArgument, toolTurnsArgument = "1000", runsArgument = "3"] = process.argv.slice(2);
const contender = IN_PROCESS_CONTENDERS[contenderId];
if (!contender) throw new Error(`unknown contender "${contenderId}"; one of ${Object.keys(IN_PROCESS_CONTENDERS).join(", ")}`);
const resultBytes = Number(resultBytesArgument);
const toolTurns = Number(toolTurnsArgument);
const runs = Number(runsArgument);
const WARM_UP_TURNS = 100;
const WINDOW = Math.min(100, toolTurns);

async function conversation(turns) {
  const stamps = createStamps(turns);
  global.gc?.();
  const answer = await contender.run({ toolTurns: turns, resultBytes, stamp: stamps.stamp });
  if (stamps.count !== turns + 1) throw new Error(`${contenderId} made ${stamps.count} model requests, expected ${turns + 1}`);
  if (answer !== FINAL_ANSWER) throw new Error(`${contenderId} answered ${JSON.stringify(answer)}`);
  return stamps;
}

/** µs per turn (wall, CPU) between request `from` and request `to`. */
function window(stamps, from, to) {
  return {
    wall: ((stamps.wall[to] - stamps.wall[from]) * 1000) / (to - from),
    cpu: cpuMicros(stamps.cpu.get(from), stamps.cpu.get(to)) / (to - from),
  };
}

await conversation(WARM_UP_TURNS);
const measured = [];
for (let run = 0; run < runs; run++) {
  const stamps = await conversation(toolTurns);
  measured.push({
    all: window(stamps, 0, toolTurns),
    first: window(stamps, 0, WINDOW),
    last: window(stamps, toolTurns - WINDOW, toolTurns),
  });
}
process.stdout.write(`${JSON.stringify({ contender: contenderId, resultBytes, toolTurns, runs: measured })}\n`);
