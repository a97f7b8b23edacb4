// What context editing saves on a long agent run: peak context, billed input, cache breaks.
//
// One agent reads a 20 KB file per turn for 200 turns, then answers, through the built Agent and
// its built-in client against the mock Messages API server (over loopback), whose simulated prompt
// cache reports cache reads and writes as the API would (the mock's clock: 6 s between requests).
// Modes:
//   unmanaged  no context management
//   provider   contextManagement.clearToolUses (defaults: trigger 100,000 tokens, keep 3 tool
//              uses, steps of 20,000 tokens) applied by the server (where: "provider")
//   client     the same edits applied by the SDK to each outgoing request, against a server that
//              ignores context_management (where: "client")
//   compact-provider  autoCompact (default threshold: 150,000 tokens for this model) by the
//              server's compaction (where: "provider", compact_20260112)
//   compact-client    autoCompact by the SDK (where: "client": a summary request), against a
//              server that ignores context_management
// Compaction's own requests (the server's compaction iteration, the SDK's summary request) are
// billed too (from the `compaction` messages' usage), and counted apart.
// Per mode: the peak input tokens of one request (input + cache reads + cache writes), the billed
// input-token equivalents of the whole run (input + 1.25 × cache writes + 0.1 × cache reads), and
// the requests that broke the cache (read less than the request before them had cached).
// Targets: peak ≤ 40 % of unmanaged, billed below unmanaged, on both paths.
//   npm run build && node bench/context.mjs [--turns 200] [--modes unmanaged,compact-provider] [--json]
import { createAgent, createAnthropicClient, defineTool } from "../dist/index.js";
import { startMockAnthropicServer } from "../dist/testing.js";
import { z } from "zod";

const args = process.argv.slice(2);
const TURNS = Number(args[args.indexOf("--turns") + 1]) || 200;
const STEP_MS = 6_000;
const RESULT_BYTES = 20 * 1024;

/** A 20 KB file, different for every turn. */
function fileText(n) {
  const lines = [];
  for (let line = 0; lines.join("\n").length < RESULT_BYTES; line++)
    lines.push(`file ${n}, line ${line}: ${"the quick brown fox jumps over the lazy dog ".repeat(2)}`);
  return lines.join("\n").slice(0, RESULT_BYTES);
}

const read = defineTool({
  name: "read_file",
  description: "Reads one file of the repository.",
  inputSchema: z.object({ n: z.number() }),
  readOnly: true,
  execute: ({ n }) => fileText(n),
});

/** The agent's options of each mode, beyond the common ones. */
const MODES = {
  unmanaged: {},
  provider: { contextManagement: { clearToolUses: true, where: "provider" } },
  client: { contextManagement: { clearToolUses: true, where: "client" } },
  "compact-provider": { autoCompact: { where: "provider" } },
  "compact-client": { autoCompact: { where: "client" } },
};

async function run(mode) {
  let now = 0;
  let reads = 0;
  const server = await startMockAnthropicServer({
    promptCache: { now: () => now },
    contextManagement: mode !== "client" && mode !== "compact-client",
    handler: (body) => {
      now += STEP_MS;
      // The SDK's summary request carries no tools.
      if (!Array.isArray(body.tools)) return { content: `Read files 0 to ${reads - 1}; all ordinary.` };
      const n = reads++;
      return n < TURNS
        ? { content: [{ type: "tool_use", id: `call_${n}`, name: "read_file", input: { n } }] }
        : { content: "Read them all." };
    },
  });
  try {
    const agent = createAgent({
      model: "claude-sonnet-4-6",
      client: createAnthropicClient({ apiKey: "sk-bench-context", baseURL: server.url }),
      systemPrompt: "You read every file of the repository, one per turn. ".repeat(20),
      tools: [read],
      maxTurns: TURNS + 5,
      ...MODES[mode],
    });
    const usages = [];
    const compactions = [];
    const notices = { context_edits: 0, context_management_fallback: 0, compaction: 0 };
    for await (const message of agent.query("Read all the files.")) {
      if (message.type === "assistant" && message.message.usage) usages.push(message.message.usage);
      if (message.type === "system" && message.subtype === "compaction") compactions.push(message.usage);
      if (message.type === "system" && message.subtype in notices) notices[message.subtype] += 1;
    }
    let peak = 0;
    let billed = 0;
    let breaks = 0;
    let cachedBefore = 0;
    for (const usage of usages) {
      const read = usage.cache_read_input_tokens ?? 0;
      const written = usage.cache_creation_input_tokens ?? 0;
      peak = Math.max(peak, usage.input_tokens + read + written);
      billed += usage.input_tokens + 1.25 * written + 0.1 * read;
      if (cachedBefore > 0 && read < cachedBefore) breaks += 1;
      cachedBefore = read + written;
    }
    for (const usage of compactions) {
      const read = usage.cache_read_input_tokens ?? 0;
      const written = usage.cache_creation_input_tokens ?? 0;
      billed += usage.input_tokens + 1.25 * written + 0.1 * read;
    }
    return { mode, requests: usages.length, peak, billed: Math.round(billed), breaks, notices };
  } finally {
    await server.close();
  }
}

const results = [];
for (const mode of args.includes("--modes") ? args[args.indexOf("--modes") + 1].split(",") : Object.keys(MODES)) {
  const started = Date.now();
  results.push(await run(mode));
  process.stderr.write(`${mode}: ${Math.round((Date.now() - started) / 1000)} s\n`);
}
if (args.includes("--json")) {
  console.log(JSON.stringify(results, null, 2));
} else {
  const base = results[0];
  console.log(`| mode | requests | compactions | peak input tokens | peak vs unmanaged | billed input-token equivalents | billed vs unmanaged | cache-breaking requests |`);
  console.log(`| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |`);
  for (const result of results) {
    const ratio = (value, of) => `${((100 * value) / of).toFixed(1)} %`;
    console.log(
      `| ${result.mode} | ${result.requests} | ${result.notices.compaction} | ${result.peak.toLocaleString("en-US")} | ${ratio(result.peak, base.peak)} | ${result.billed.toLocaleString("en-US")} | ${ratio(result.billed, base.billed)} | ${result.breaks} |`,
    );
  }
  for (const result of results.slice(1)) {
    const ok = result.peak <= 0.4 * base.peak && result.billed < base.billed;
    console.log(`${result.mode}: peak ≤ 40 % and billed below unmanaged — ${ok ? "met" : "NOT met"}`);
  }
}
