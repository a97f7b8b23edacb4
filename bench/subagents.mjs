// The overhead a subagent call adds over running the same child agent directly, in µs per call,
// with scripted clients (no network). Both variants run a parent query of two turns whose first
// turn calls one tool:
//   direct    — a plain tool (defineTool) that creates the child agent and awaits child.prompt()
//   subagent  — defineSubagent with the same child settings (messages forwarded to the parent's
//               consumer, tagged; cost added to the parent's ledger; interrupt and budget wired)
// The difference of the two is what defineSubagent and the live delivery of the tool phase cost.
//   npm run build && node bench/subagents.mjs [calls per round] [rounds]
import { createAgent, defineSubagent, defineTool } from "../dist/index.js";
import { createScriptedClient } from "../dist/testing.js";
import { z } from "zod";

const CALLS = Number(process.argv[2] ?? 2000);
const ROUNDS = Number(process.argv[3] ?? 7);
const MODEL = "claude-sonnet-4-6";
const CHILD_SYSTEM = "You are the child.";

/** One client for both agents: the parent asks for the tool, the child answers, the parent ends. */
const client = createScriptedClient(
  (request) => {
    if (request.system === CHILD_SYSTEM) return { content: "child answer", usage: { input_tokens: 10, output_tokens: 2 } };
    const last = request.messages.at(-1);
    const answered = Array.isArray(last?.content) && last.content.some((block) => block.type === "tool_result");
    if (answered) return { content: "done", usage: { input_tokens: 10, output_tokens: 1 } };
    return {
      content: [{ type: "tool_use", id: "toolu_1", name: "child", input: { prompt: "work" } }],
      usage: { input_tokens: 10, output_tokens: 5 },
    };
  },
  { record: false, emitEvents: false },
);

const direct = defineTool({
  name: "child",
  description: "Runs the child agent directly.",
  inputSchema: z.object({ prompt: z.string() }),
  execute: async ({ prompt }) => {
    const child = createAgent({ model: MODEL, client, systemPrompt: CHILD_SYSTEM, maxTurns: 50 });
    const result = await child.prompt(prompt);
    await child.close();
    return result.result;
  },
});
const subagent = defineSubagent({ name: "child", description: "Runs the child agent.", systemPrompt: CHILD_SYSTEM });

/** µs per parent query (one tool call each), consuming every message as a caller would. */
async function measure(tool) {
  const agent = createAgent({ model: MODEL, client, tools: [tool] });
  const start = process.hrtime.bigint();
  for (let index = 0; index < CALLS; index++) {
    for await (const message of agent.query("go")) if (message.type === "result" && message.is_error) throw new Error(message.subtype);
    await agent.replaceHistory([]);
  }
  const elapsed = Number(process.hrtime.bigint() - start) / 1000;
  await agent.close();
  return elapsed / CALLS;
}

await measure(direct); // warm-up
await measure(subagent);
const samples = { direct: [], subagent: [] };
for (let round = 0; round < ROUNDS; round++) {
  samples.direct.push(await measure(direct));
  samples.subagent.push(await measure(subagent));
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const d = median(samples.direct);
const s = median(samples.subagent);
console.log(`calls per round ${CALLS}, rounds ${ROUNDS} (medians, wall µs per parent query with one call)`);
console.log(`direct child agent in a plain tool: ${d.toFixed(1)} µs`);
console.log(`defineSubagent:                     ${s.toFixed(1)} µs`);
console.log(`overhead per subagent call:         ${(s - d).toFixed(1)} µs (${((s / d - 1) * 100).toFixed(0)} %)`);
