// Scenario (c) for one contender, in a process of its own: a warm-up conversation of `warmUpTurns`
// tool turns, then `runs` conversations of `toolTurns`, streamed from the mock server at `url`.
//   node bench/scenarios/streaming.mjs <contender> <url> <toolTurns> <runs> <warmUpTurns>
// Prints one JSON line: per run, µs per tool turn over all turns (see turnWindow), where a turn is
// the time from one HTTP request's start to the next.
import { turnWindow } from "../lib/stats.mjs";
import { createStamps, FINAL_ANSWER } from "../lib/turns.mjs";
import { HTTP_CONTENDERS } from "./http-contenders.mjs";

const [contenderId, url, toolTurnsArgument, runsArgument, warmUpArgument] = process.argv.slice(2);
const contender = HTTP_CONTENDERS[contenderId];
if (!contender) throw new Error(`unknown contender "${contenderId}"; one of ${Object.keys(HTTP_CONTENDERS).join(", ")}`);
const toolTurns = Number(toolTurnsArgument ?? "200");
const runs = Number(runsArgument ?? "1");
const warmUpTurns = Number(warmUpArgument ?? "20");

let stamps;
const stampingFetch = (input, init) => {
  stamps?.stamp();
  return fetch(input, init);
};
const converse = await contender.prepare({ url, fetch: stampingFetch });

async function conversation(turns) {
  stamps = createStamps(turns);
  const answer = await converse(turns);
  if (stamps.count !== turns + 1) throw new Error(`${contenderId} made ${stamps.count} requests, expected ${turns + 1}`);
  if (answer !== FINAL_ANSWER) throw new Error(`${contenderId} answered ${JSON.stringify(answer)}`);
  return stamps;
}

if (warmUpTurns > 0) await conversation(warmUpTurns);
const measured = [];
for (let run = 0; run < runs; run++) {
  const done = await conversation(toolTurns);
  measured.push({ all: turnWindow(done, 0, toolTurns) });
}
process.stdout.write(`${JSON.stringify({ contender: contenderId, toolTurns, runs: measured })}\n`);
