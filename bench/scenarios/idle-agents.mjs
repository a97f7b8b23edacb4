// Scenario (e), one run, in a fresh process started with --expose-gc:
//   node --expose-gc bench/scenarios/idle-agents.mjs <variant> <agents>
// Creates `agents` idle Agents and keeps them alive; reports the heap they hold (heapUsed after a
// full GC, minus before) per Agent, and the RSS growth. Variants:
//   shared-client   every Agent gets the same ModelClient and the same one-tool array
//   own-client      every Agent is created with apiKey + baseURL, so each builds its built-in client
import { importFromDist } from "../lib/dist.mjs";
import { ECHO_TOOL, echoOutput, MODEL } from "../lib/turns.mjs";

const [variant = "shared-client", agentsArgument = "10000"] = process.argv.slice(2);
const count = Number(agentsArgument);
if (typeof global.gc !== "function") throw new Error("run with --expose-gc");
const { createAgent, createAnthropicClient, defineTool } = await importFromDist("index.js");

const echo = defineTool({
  name: ECHO_TOOL.name,
  description: ECHO_TOOL.description,
  inputSchema: { parse: (input) => input, jsonSchema: ECHO_TOOL.inputSchema },
  readOnly: true,
  execute: (input) => echoOutput(input.n, 0),
});
const tools = [echo];
const connection = { apiKey: "bench-not-a-real-key", baseURL: "http://127.0.0.1:9" };
const sharedClient = createAnthropicClient(connection);
const create = {
  "shared-client": () => createAgent({ model: MODEL, client: sharedClient, tools }),
  "own-client": () => createAgent({ model: MODEL, ...connection, tools }),
}[variant];
if (!create) throw new Error(`unknown variant "${variant}"`);

// One Agent first, so code and shapes that load lazily are not charged to the 10,000.
let agents = [create()];
function settle() {
  for (let round = 0; round < 3; round++) global.gc();
}
settle();
const before = process.memoryUsage();
agents = Array.from({ length: count }, create);
settle();
const after = process.memoryUsage();
const result = {
  variant,
  agents: agents.length,
  heapBytesPerAgent: (after.heapUsed - before.heapUsed) / count,
  externalBytesPerAgent: (after.external - before.external) / count,
  rssBytesPerAgent: (after.rss - before.rss) / count,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
