#!/usr/bin/env node
/**
 * The studio at scale, in headless Chromium (Debian's /usr/bin/chromium via playwright-core):
 * - first paint of a 10,000-turn conversation (20,001 messages, every turn with a tool call and
 *   its meta): from navigation to the timeline's first entries on screen;
 * - first paint of the list of a store holding 10,000 conversations (+ the long one);
 * - the same list filtered by text (a match far down the list: summaries loaded until found);
 * - what the studio adds to the package (its entry and the page, raw and gzipped).
 *
 * Both in one SQLite file. Usage: `npx tsup && node bench/studio.mjs [--runs 3]`.
 * Prints a Markdown table (median of the runs, and the slowest).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import Database from "better-sqlite3";
import { chromium } from "playwright-core";

const root = resolve(fileURLToPath(import.meta.url), "../..");
const dist = join(root, "dist");
const { createSqliteHistoryStore } = await import(join(dist, "stores/sqlite.js"));
const { startStudio } = await import(join(dist, "studio.js"));
const { createJsonlHistoryStore } = await import(join(dist, "index.js"));

const runsArgument = process.argv.indexOf("--runs");
const RUNS = runsArgument > 0 ? Number(process.argv[runsArgument + 1]) : 3;
const TURNS = 10_000;
const CONVERSATIONS = 10_000;

const folder = mkdtempSync(join(tmpdir(), "bench-studio-"));
const path = join(folder, "bench.db");

function longConversation() {
  const messages = [{ role: "user", content: "Process every file of the archive." }];
  const start = Date.UTC(2026, 11, 3, 9);
  for (let turn = 0; turn < TURNS; turn++) {
    const id = `toolu_${turn}`;
    const at = start + turn * 3_000;
    messages.push({
      role: "assistant",
      content: [
        { type: "text", text: `Reading file ${turn}.` },
        { type: "tool_use", id, name: "read_file", input: { path: `archive/${turn}.txt` } },
      ],
      stop_reason: "tool_use",
      model: "claude-sonnet-4-6",
      usage: { input_tokens: 200, output_tokens: 40, cache_read_input_tokens: 1_000 + turn * 10, cache_creation_input_tokens: 120 },
      meta: {
        started_at: new Date(at).toISOString(),
        ended_at: new Date(at + 1_800).toISOString(),
        latency_ms: 1_800,
        cost_usd: 0.0021,
      },
    });
    messages.push({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: id, content: `contents of file ${turn}` }],
      meta: { tool_durations_ms: { [id]: 40 } },
    });
  }
  return messages;
}

async function seed() {
  const started = performance.now();
  const long = createSqliteHistoryStore({ path, conversationId: "long" });
  await long.replace(longConversation());
  await long.close();
  // The small ones straight into the store's tables, in one transaction (the long one went through the store).
  const database = new Database(path);
  const conversation = database.prepare(
    "INSERT INTO agent_lattice_messages_conversations (id, version, message_count, created_at, updated_at) VALUES (?, 1, 2, ?, ?)",
  );
  const message = database.prepare(
    "INSERT INTO agent_lattice_messages (conversation_id, ordinal, message) VALUES (?, ?, ?)",
  );
  database.transaction(() => {
    for (let index = 0; index < CONVERSATIONS; index++) {
      const id = `conversation-${String(index).padStart(5, "0")}`;
      const at = new Date(Date.UTC(2026, 11, 2) + index * 1_000).toISOString();
      conversation.run(id, at, at);
      message.run(id, 0, JSON.stringify({ role: "user", content: `Question number ${index}` }));
      message.run(
        id,
        1,
        JSON.stringify({ role: "assistant", content: [{ type: "text", text: `Answer ${index}` }], model: "claude-haiku-4-5", stop_reason: "end_turn" }),
      );
    }
  })();
  database.close();
  return performance.now() - started;
}

/**
 * From navigation to `selector` on screen, as the page's own clock says (performance.now() counts
 * from the navigation's start), read by a poll inside the page every animation frame.
 */
async function timed(page, url, selector) {
  await page.goto("about:blank");
  await page.goto(url, { waitUntil: "commit" });
  return page.evaluate(
    (wanted) =>
      new Promise((resolve) => {
        const check = () => (document.querySelector(wanted) ? resolve(performance.now()) : requestAnimationFrame(check));
        check();
      }),
    selector,
  );
}

function summary(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)], max: sorted.at(-1) };
}

function packageShare() {
  const files = [
    ...readdirSync(dist).filter((name) => name.startsWith("studio.")).map((name) => join(dist, name)),
    ...readdirSync(join(dist, "studio-page")).map((name) => join(dist, "studio-page", name)),
  ];
  let raw = 0;
  let gzipped = 0;
  for (const file of files) {
    raw += statSync(file).size;
    gzipped += gzipSync(readFileSync(file)).length;
  }
  const script = readFileSync(join(dist, "studio-page/app.js"));
  return { raw, gzipped, files: files.length, script: script.length, scriptGzipped: gzipSync(script).length };
}

const seedMs = await seed();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
});
let studio = await startStudio({ store: `sqlite:${path}` });
const results = {
  conversation: [],
  tiny: [],
  list: [],
  filtered: [],
  apiConversation: [],
  apiList: [],
  apiSummary: [],
  storeLoad: [],
  storeWindow: [],
  jsonlLoad: [],
  jsonlWindow: [],
};
let token = new URL(studio.url).searchParams.get("token");
const jsonlPath = join(folder, "long.jsonl");
{
  const jsonl = createJsonlHistoryStore({ path: jsonlPath });
  await jsonl.replace(longConversation());
  await jsonl.close();
}
/** The stores alone: the long conversation whole (`load()`) and its newest 200 (`loadRange`). */
async function storeTimes() {
  for (const [store, whole, window] of [
    [createSqliteHistoryStore({ path, conversationId: "long" }), "storeLoad", "storeWindow"],
    [createJsonlHistoryStore({ path: jsonlPath }), "jsonlLoad", "jsonlWindow"],
  ]) {
    let started = performance.now();
    await store.load();
    results[whole].push(performance.now() - started);
    started = performance.now();
    await store.loadRange({ limit: 200 });
    results[window].push(performance.now() - started);
    await store.close();
  }
}
async function apiTime(path) {
  const started = performance.now();
  const response = await fetch(new URL(path, studio.url), { headers: { "x-studio-token": token } });
  await response.json();
  return performance.now() - started;
}
try {
  for (let run = 0; run < RUNS; run++) {
    // A fresh studio each run: nothing counted or cached from the run before.
    if (run > 0) {
      await studio.close();
      studio = await startStudio({ store: `sqlite:${path}` });
      token = new URL(studio.url).searchParams.get("token");
    }
    await storeTimes(run);
    results.apiConversation.push(await apiTime("/api/conversation?source=0&id=long&limit=200"));
    results.apiList.push(await apiTime(`/api/conversations?limit=50&run=${run}`));
    results.apiSummary.push(await apiTime("/api/summary?source=0&id=long"));
    await studio.close();
    studio = await startStudio({ store: `sqlite:${path}` });
    token = new URL(studio.url).searchParams.get("token");
    const page = await browser.newPage();
    results.tiny.push(await timed(page, `${studio.url}#/c/0/conversation-00001`, "[data-testid=timeline] li.turn"));
    results.conversation.push(await timed(page, `${studio.url}#/c/0/long`, "[data-testid=timeline] li.turn"));
    results.list.push(await timed(page, `${studio.url}#/`, "[data-testid=conversation-list] tbody tr"));
    results.filtered.push(
      await timed(page, `${studio.url}#/?text=Question%20number%209999`, "[data-testid=conversation-list] tbody tr"),
    );
    await page.close();
  }
} finally {
  await studio.close();
  await browser.close();
  rmSync(folder, { recursive: true, force: true });
}
const share = packageShare();
const format = (ms) => `${Math.round(ms)} ms`;
console.log(`Seeded ${TURNS.toLocaleString("en-US")} turns + ${CONVERSATIONS.toLocaleString("en-US")} conversations in ${format(seedMs)}; ${RUNS} runs.\n`);
console.log("| measure | median | slowest |\n| --- | --- | --- |");
for (const [name, label] of [
  ["conversation", "first paint, 10,000-turn conversation (newest 200 messages, charts)"],
  ["tiny", "first paint, a 1-turn conversation of the same store, first in each run (the floor)"],
  ["list", "first paint, list of 10,001 conversations (50 summarised)"],
  ["filtered", "list filtered by text, match at the end of 10,001"],
  ["apiConversation", "of which the API: the conversation's newest 200 messages (fresh studio)"],
  ["apiList", "of which the API: the list's first 50 (fresh studio)"],
  ["apiSummary", "the API: the long conversation's totals counted whole (/api/summary, after the page)"],
  ["storeLoad", "SQLite store: load() of the 20,001 messages"],
  ["storeWindow", "SQLite store: loadRange({ limit: 200 })"],
  ["jsonlLoad", "JSONL store (the same conversation in one file): load()"],
  ["jsonlWindow", "JSONL store: loadRange({ limit: 200 })"],
]) {
  const { median, max } = summary(results[name]);
  console.log(`| ${label} | ${format(median)} | ${format(max)} |`);
}
console.log(
  `\nPackage share: ${share.files} files, ${(share.raw / 1024).toFixed(1)} kB raw, ${(share.gzipped / 1024).toFixed(1)} kB gzipped (page script ${(share.script / 1024).toFixed(1)} kB, ${(share.scriptGzipped / 1024).toFixed(1)} kB gzipped).`,
);
