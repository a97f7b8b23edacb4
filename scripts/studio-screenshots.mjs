/**
 * Takes the studio screenshots of the docs (docs/images/studio-list.png, studio-timeline.png):
 * records a few conversations over the mock Messages API into a temporary JSONL folder — tool
 * calls, a subagent, a pause for approval — opens the studio in headless Chromium and shoots.
 * Usage: `npx tsup && node scripts/studio-screenshots.mjs`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = resolve(fileURLToPath(import.meta.url), "../..");
const lattice = await import(join(root, "dist/index.js"));
const { startMockAnthropicServer } = await import(join(root, "dist/testing.js"));
const { startStudio } = await import(join(root, "dist/studio.js"));
const { createAgent, createAnthropicClient, createJsonlHistoryStore, defineSubagent, defineTool } = lattice;

const folder = mkdtempSync(join(tmpdir(), "studio-shots-"));
const server = await startMockAnthropicServer();
const client = createAnthropicClient({ apiKey: "sk-demo", baseURL: server.url });
const store = (id) => createJsonlHistoryStore({ path: join(folder, `${id}.jsonl`) });
let clock = Date.UTC(2026, 11, 3, 9, 30);
const now = () => clock;
const slow = (ms, value) => {
  clock += ms;
  return value;
};
const timed = { createMessage: (request) => slow(900 + (request.messages.length % 5) * 350, client.createMessage(request)) };
const schema = { parse: (value) => ({ success: true, data: value }), jsonSchema: { type: "object" } };
const readFile = defineTool({ name: "read_file", description: "Reads a file", readOnly: true, inputSchema: schema, execute: ({ path }) => slow(120, `# ${path}\nexport function total(items) { … }`) });
const runTests = defineTool({ name: "run_tests", description: "Runs the tests", inputSchema: schema, execute: () => slow(2400, "42 passed, 1 failed: total() of an empty cart") });
const deploy = defineTool({ name: "deploy", description: "Deploys", inputSchema: schema, needsApproval: true, execute: () => "deployed" });
const reviewer = defineSubagent({ name: "reviewer", description: "Reviews a change", historyStore: (call) => store(`fix-cart:${call.toolUseId}`) });
const use = (id, name, input) => ({ type: "tool_use", id, name, input });
const usage = (input, read, write, output) => ({ input_tokens: input, cache_read_input_tokens: read, cache_creation_input_tokens: write, output_tokens: output });

async function record(id, prompt, steps, tools, model = "claude-sonnet-4-6") {
  server.enqueue(...steps);
  const agent = createAgent({ model, client: timed, tools, historyStore: store(id), toolConcurrency: 1, _internal: { now } });
  const result = await agent.prompt(prompt);
  await agent.close();
  clock += 600_000;
  return result;
}

await record("fix-cart", "The cart total is wrong for an empty cart. Find the bug, fix it and run the tests.", [
  { content: [{ type: "thinking", thinking: "Start with the cart module and its tests.", signature: "sig" }, { type: "text", text: "Let me read the cart module first." }, use("t1", "read_file", { path: "src/cart.ts" }), use("t2", "read_file", { path: "test/cart.test.ts" })], usage: usage(2_400, 0, 3_100, 180) },
  { content: [{ type: "text", text: "Running the tests to see the failure." }, use("t3", "run_tests", {})], usage: usage(600, 3_100, 1_900, 90) },
  { content: [{ type: "text", text: "Asking the reviewer to check the fix." }, use("t4", "reviewer", { prompt: "Review: total() returns 0 for []" })], usage: usage(500, 5_000, 800, 120) },
  { content: "Looks right: an empty cart totals 0 now, and the rounding is unchanged.", usage: usage(900, 0, 0, 40) },
  { content: "Fixed: `total([])` returned `NaN` because the reduce had no initial value. It now starts at 0; the reviewer agrees, and all 43 tests pass.", usage: usage(700, 5_800, 400, 95) },
], [readFile, runTests, reviewer]);
await record("release-2-4", "Ship release 2.4 to production.", [
  { content: [{ type: "text", text: "Everything is green; deploying needs your approval." }, use("d1", "deploy", { target: "production", version: "2.4.0" })], usage: usage(1_800, 0, 2_000, 60) },
], [deploy]);
for (const [index, prompt] of ["Summarise yesterday's support tickets.", "Translate the release notes into Chinese.", "Which endpoints have no tests?"].entries())
  await record(`chat-${index + 1}`, prompt, [{ content: `Done: ${prompt.toLowerCase()}`, usage: usage(900 + index * 300, 0, 0, 200) }], [], index === 1 ? "claude-haiku-4-5" : "claude-sonnet-4-6");

const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
const studio = await startStudio({ store: folder, createAgent: () => { throw new Error("screenshots only"); } });
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 520 }, deviceScaleFactor: 1 });
  await page.goto(studio.url);
  await page.locator("[data-testid=conversation-list] tbody tr").first().waitFor();
  await page.screenshot({ path: join(root, "docs/images/studio-list.png") });
  await page.setViewportSize({ width: 1100, height: 1200 });
  await page.goto(`${studio.url}#/c/0/fix-cart`);
  await page.locator("[data-testid=timeline] li.turn").first().waitFor();
  await page.locator('details.call[data-tool="run_tests"] > summary').click();
  await page.screenshot({ path: join(root, "docs/images/studio-timeline.png") });
} finally {
  await studio.close();
  await browser.close();
  await server.close();
  rmSync(folder, { recursive: true, force: true });
}
