// Scenarios (a) and (b) for one contender, in a process of its own:
//   node bench/scenarios/in-process.mjs <contender> <resultBytes> <toolTurns> <runs> <warmUpTurns> [warmUpConversations]
// `warmUpConversations` warm-up conversations of `warmUpTurns` tool turns (default 1; 0 turns: no
// warm-up, a cold start), then `runs` conversations of `toolTurns`.
// Prints one JSON line: per run, µs per tool turn over all turns, the first 100 and the last 100
// (see turnWindow). A tool turn is the time from one model request to the next.
import { turnWindow } from "../lib/stats.mjs";
import { createStamps, FINAL_ANSWER } from "../lib/turns.mjs";
import { IN_PROCESS_CONTENDERS } from "./in-process-contenders.mjs";

const [contenderId, resultBytesArgument, toolTurnsArgument, runsArgument, warmUpArgument, warmUpConversationsArgument] =
  process.argv.slice(2);
const contender = IN_PROCESS_CONTENDERS[contenderId];
if (!contender) throw new Error(`unknown contender "${contenderId}"; one of ${Object.keys(IN_PROCESS_CONTENDERS).join(", ")}`);
const resultBytes = Number(resultBytesArgument ?? "0");
const toolTurns = Number(toolTurnsArgument ?? "1000");
const runs = Number(runsArgument ?? "1");
const warmUpTurns = Number(warmUpArgument ?? "100");
const warmUpConversations = Number(warmUpConversationsArgument ?? "1");
const WINDOW = Math.min(100, toolTurns);

async function conversation(turns) {
  const stamps = createStamps(turns);
  const answer = await contender.run({ toolTurns: turns, resultBytes, stamp: stamps.stamp });
  if (stamps.count !== turns + 1) throw new Error(`${contenderId} made ${stamps.count} model requests, expected ${turns + 1}`);
  if (answer !== FINAL_ANSWER) throw new Error(`${contenderId} answered ${JSON.stringify(answer)}`);
  return stamps;
}

if (warmUpTurns > 0) for (let warmUp = 0; warmUp < warmUpConversations; warmUp++) await conversation(warmUpTurns);
const measured = [];
for (let run = 0; run < runs; run++) {
  const stamps = await conversation(toolTurns);
  measured.push({
    all: turnWindow(stamps, 0, toolTurns),
    first: turnWindow(stamps, 0, WINDOW),
    last: turnWindow(stamps, toolTurns - WINDOW, toolTurns),
  });
}
process.stdout.write(`${JSON.stringify({ contender: contenderId, resultBytes, toolTurns, runs: measured })}\n`);
