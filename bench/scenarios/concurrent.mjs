// Scenario (d) for one contender, one run, in a fresh process (so its peak RSS is its own):
//   node bench/scenarios/concurrent.mjs <contender> <url> <conversations> <toolTurns>
// First a warm-up of 10 concurrent conversations, then `conversations` concurrent conversations of
// `toolTurns` tool turns each against the mock server at `url`.
// Prints one JSON line: wall and CPU milliseconds of the measured batch, peak RSS of the process
// (getrusage maxrss), and RSS before the batch.
import { performance } from "node:perf_hooks";
import { cpuMicros } from "../lib/stats.mjs";
import { FINAL_ANSWER } from "../lib/turns.mjs";
import { HTTP_CONTENDERS } from "./http-contenders.mjs";

const [contenderId, url, conversationsArgument, toolTurnsArgument] = process.argv.slice(2);
const contender = HTTP_CONTENDERS[contenderId];
if (!contender) throw new Error(`unknown contender "${contenderId}"; one of ${Object.keys(HTTP_CONTENDERS).join(", ")}`);
const conversations = Number(conversationsArgument ?? "100");
const toolTurns = Number(toolTurnsArgument ?? "10");
const WARM_UP_CONVERSATIONS = 10;

const converse = await contender.prepare({ url });

async function batch(count) {
  const answers = await Promise.all(Array.from({ length: count }, () => converse(toolTurns)));
  const wrong = answers.find((answer) => answer !== FINAL_ANSWER);
  if (wrong !== undefined) throw new Error(`${contenderId} answered ${JSON.stringify(wrong)}`);
}

await batch(WARM_UP_CONVERSATIONS);
const rssBefore = process.memoryUsage().rss;
const cpuStart = process.cpuUsage();
const start = performance.now();
await batch(conversations);
const wallMs = performance.now() - start;
const cpuMs = cpuMicros(cpuStart, process.cpuUsage()) / 1000;
const peakRssBytes = process.resourceUsage().maxRSS * 1024;
process.stdout.write(
  `${JSON.stringify({ contender: contenderId, conversations, toolTurns, wallMs, cpuMs, peakRssBytes, rssBeforeBytes: rssBefore })}\n`,
);
