// Tool search with a catalog of 150 tools (bench/lib/tool-catalog.mjs: 15 services × 10 tools,
// each with a description and a described input schema, as MCP servers list them).
//
// 1. Input tokens of the first request, as the mock Messages API server counts them (its estimate
//    of the prompt: deferred definitions are not in it until a search result references them):
//      all      toolSearch: false — every definition sent
//      provider toolSearch: "provider" — definitions with defer_loading, the API's search tool
//      client   toolSearch: "client" — the agent's search_tools only (a provider without search)
//    Target: deferred ≤ 20 % of all.
// 2. Billed input over a 30-turn run through the mock's prompt cache (simulated clock, 6 s a turn),
//    input + 1.25 × cache writes + 0.1 × cache reads: the model finds its tool on the first turn
//    (provider: the API's search in the same response; client: a search_tools call first), then
//    calls it on each turn, and answers on the last.
// 3. Search quality: for each of 50 fixed queries (QUERIES in bench/lib/tool-catalog.mjs, written
//    for this bench, phrased in other words than the tool's), whether the right tool is among the
//    top 3 of the mock's provider-side search (plain BM25). search_tools ranks with ToolRanker since
//    issue 45: bench/tool-search-quality.mjs measures both, on these and on held-out queries.
//   npm run build && node bench/tool-search.mjs [--json]
import { createAgent, createAnthropicClient, defineTool, SEARCH_TOOLS_TOOL_NAME } from "../dist/index.js";
import { mockToolSearch, startMockAnthropicServer } from "../dist/testing.js";
import { QUERIES, toolCatalog } from "./lib/tool-catalog.mjs";

const MODEL = "claude-sonnet-4-6";
const TURNS = 30;
const STEP_MS = 6_000;
const TARGET_TOOL = "github_create_issue";
const QUERY = "open a new issue in the github repository";

const catalog = toolCatalog();
const tools = (deferLoading) =>
  catalog.map((tool) =>
    defineTool({
      name: tool.name,
      description: tool.description,
      inputSchema: { parse: (input) => input, jsonSchema: tool.inputSchema },
      jsonSchema: tool.inputSchema,
      deferLoading,
      execute: () => JSON.stringify({ ok: true, tool: tool.name }),
    }),
  );

const toolUse = (id, name, input) => ({ type: "tool_use", id, name, input });

/** The scripted model of one mode: find the tool on the first turn, call it, answer on the last. */
function script(mode, turns) {
  return (body, index) => {
    if (index === turns - 1) return { content: "Done." };
    const call = toolUse(`toolu_${index}`, TARGET_TOOL, { target: `item ${index}` });
    if (index === 0 && mode === "provider")
      return { content: [...mockToolSearch(body, QUERY, { id: "srvtoolu_0" }), call], stop_reason: "tool_use" };
    if (index === 0 && mode === "client")
      return { content: [toolUse("toolu_search", SEARCH_TOOLS_TOOL_NAME, { query: QUERY })], stop_reason: "tool_use" };
    return { content: [call], stop_reason: "tool_use" };
  };
}

async function run(mode, turns) {
  let clock = 1_000_000;
  const server = await startMockAnthropicServer({
    toolSearch: mode === "provider",
    promptCache: { now: () => clock },
    handler: (body, index) => {
      clock += STEP_MS;
      return script(mode, turns)(body, index);
    },
  });
  try {
    const agent = createAgent({
      model: MODEL,
      client: createAnthropicClient({ apiKey: "bench-tool-search-key", baseURL: server.url }),
      systemPrompt: "You work for the platform team through the tools you have.",
      tools: tools(mode !== "all"),
      toolSearch: mode === "all" ? false : mode,
      maxTurns: turns + 2,
    });
    const result = await agent.prompt("File an issue for each failing check.");
    if (result.subtype !== "success") throw new Error(`${mode}: ${result.subtype} ${result.error?.message ?? ""}`);
    const usages = (await agent.getHistory()).filter((message) => message.role === "assistant").map((message) => message.usage);
    const prompt = (usage) => usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
    const billed = usages.reduce(
      (sum, usage) => sum + usage.input_tokens + 1.25 * (usage.cache_creation_input_tokens ?? 0) + 0.1 * (usage.cache_read_input_tokens ?? 0),
      0,
    );
    return { first: prompt(usages[0]), requests: usages.length, billed: Math.round(billed) };
  } finally {
    await server.close();
  }
}

function searchQuality() {
  const body = { tools: catalog.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.inputSchema, defer_loading: true })) };
  const misses = [];
  for (const [query, expected] of QUERIES) {
    const [, result] = mockToolSearch(body, query, { limit: 3 });
    const found = result.content.tool_references.map((reference) => reference.tool_name);
    if (!found.includes(expected)) misses.push({ query, expected, found });
  }
  return { queries: QUERIES.length, top3: QUERIES.length - misses.length, misses };
}

const results = {};
for (const mode of ["all", "provider", "client"]) results[mode] = await run(mode, TURNS);
const quality = searchQuality();

if (process.argv.includes("--json")) {
  console.log(JSON.stringify({ results, quality }, null, 2));
} else {
  const all = results.all;
  console.log(`tool search, ${catalog.length} tools, ${TURNS}-turn run\n`);
  console.log("mode       first request (input tokens)   vs all   billed over the run   vs all");
  for (const [mode, result] of Object.entries(results)) {
    console.log(
      `${mode.padEnd(10)} ${String(result.first).padStart(28)}   ${((100 * result.first) / all.first).toFixed(1).padStart(5)} %   ${String(result.billed).padStart(19)}   ${((100 * result.billed) / all.billed).toFixed(1).padStart(5)} %`,
    );
  }
  console.log(`\nsearch quality: right tool in the top 3 for ${quality.top3}/${quality.queries} queries (${((100 * quality.top3) / quality.queries).toFixed(0)} %)`);
  for (const miss of quality.misses) console.log(`  missed: "${miss.query}" → ${miss.expected}; got ${miss.found.join(", ") || "nothing"}`);
}
