// Client-side tool search: our ToolRanker beside two well-kept search libraries, on the same four
// query sets and the same 150 tools as bench/tool-search-quality.mjs (issue 45, "use a library
// where it fits better — measure both, keep the better, with its size"):
//   MiniSearch 7 (BM25+, fields name / description / schema weighted as ours) — as configured out
//     of the box, with its prefix and fuzzy matching, and with our stemming and stop words
//   wink-bm25-text-search 3 with wink-nlp-utils 2 (BM25F, field weights as ours, its usual
//     preparation: lower case, tokenize, stop words removed, Porter2 stems, negations)
//   ToolRanker (what search_tools ranks with)
// For each: top-1 / top-3 on the tuned, held-out, fresh and blind sets, the median time of one search over 1,000
// tools (index built once), and what it adds to an install (bytes on disk, its dependencies in).
// The libraries are installed in bench/ only (bench/package.json), never in the package.
//   npx tsup && (cd bench && npm install) && node bench/tool-search-libraries.mjs
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { performance } from "node:perf_hooks";
import MiniSearch from "minisearch";
import { ToolRanker } from "../dist/index.js";
import { BLIND_QUERIES } from "./lib/blind-queries.mjs";
import { FRESH_QUERIES } from "./lib/fresh-queries.mjs";
import { HELD_OUT_QUERIES } from "./lib/held-out-queries.mjs";
import { QUERIES, thousandTools, toolCatalog } from "./lib/tool-catalog.mjs";

const require = createRequire(import.meta.url);
const bm25 = require("wink-bm25-text-search");
const nlp = require("wink-nlp-utils");

const WEIGHTS = { name: 2, description: 1, schema: 0.25 };

function schemaText(schema, depth = 0) {
  if (depth > 3 || typeof schema !== "object" || schema === null) return "";
  const parts = [];
  if (typeof schema.description === "string") parts.push(schema.description);
  for (const [name, property] of Object.entries(schema.properties ?? {})) parts.push(name, schemaText(property, depth + 1));
  return parts.join(" ");
}
const documentOf = (tool, id) => ({ id, name: tool.name.replace(/[_.-]+/g, " "), description: tool.description, schema: schemaText(tool.inputSchema) });

/** Our stemming and stop words, for MiniSearch's processTerm (null drops a term). */
const STOP = new Set("a an and are as at be by can did do does for from how i in is it me my of on or our the this to what when where which who why with you your".split(" "));
function ourTerm(term) {
  const word = term.toLowerCase();
  if (word.length < 2 || STOP.has(word)) return null;
  return stemLike(word);
}
/** The same light stemmer as src/shared/search-words.ts, inlined: the bench reads no source file. */
function stemLike(word) {
  if (word.length <= 3 || /\d/.test(word)) return word;
  let base = word;
  if (base.endsWith("ies") && base.length > 4) base = `${base.slice(0, -3)}y`;
  else if (/(?:ss|x|z|ch|sh)es$/.test(base)) base = base.slice(0, -2);
  else if (base.endsWith("s") && !/(?:ss|us|is)$/.test(base)) base = base.slice(0, -1);
  else if (base.endsWith("ing") && base.length > 5) base = base.slice(0, -3);
  else if (base.endsWith("ed") && base.length > 4) base = base.slice(0, -2);
  if (base.length >= 6 && /(?:er|or)$/.test(base)) base = base.slice(0, -2);
  if (base.length > 3 && base.endsWith("e")) base = base.slice(0, -1);
  return base;
}

function miniSearch(tools, { searchOptions = {}, processTerm } = {}) {
  const index = new MiniSearch({ fields: ["name", "description", "schema"], storeFields: [], ...(processTerm ? { processTerm } : {}) });
  index.addAll(tools.map(documentOf));
  const names = tools.map((tool) => tool.name);
  return (query, limit) => index.search(query, { boost: WEIGHTS, combineWith: "OR", ...searchOptions }).slice(0, limit).map((hit) => names[hit.id]);
}

function winkBm25(tools) {
  const engine = bm25();
  engine.defineConfig({ fldWeights: WEIGHTS });
  engine.definePrepTasks([nlp.string.lowerCase, nlp.string.tokenize0, nlp.tokens.removeWords, nlp.tokens.stem, nlp.tokens.propagateNegations]);
  tools.forEach((tool, id) => engine.addDoc(documentOf(tool, id), id));
  engine.consolidate();
  const names = tools.map((tool) => tool.name);
  return (query, limit) => engine.search(query, limit).map(([id]) => names[id]);
}

function ours(tools) {
  const index = new ToolRanker(tools);
  return (query, limit) => index.search(query, limit).map((hit) => hit.name);
}

const rankings = {
  "MiniSearch (defaults)": (tools) => miniSearch(tools),
  "MiniSearch (prefix + fuzzy 0.2)": (tools) => miniSearch(tools, { searchOptions: { prefix: true, fuzzy: 0.2 } }),
  "MiniSearch (our stems + stop words)": (tools) => miniSearch(tools, { processTerm: ourTerm }),
  "wink-bm25-text-search + wink-nlp-utils": winkBm25,
  ToolRanker: ours,
};

const catalog = toolCatalog();
const sets = { tuned: QUERIES.map(([query, tool]) => ({ query, tool })), heldOut: HELD_OUT_QUERIES, fresh: FRESH_QUERIES, blind: BLIND_QUERIES };

function quality(rank, queries) {
  let top1 = 0;
  let top3 = 0;
  for (const { query, tool } of queries) {
    const found = rank(query, 3);
    top1 += found[0] === tool ? 1 : 0;
    top3 += found.includes(tool) ? 1 : 0;
  }
  return { top1, top3, queries: queries.length };
}

function medianSearchMs(make) {
  const rank = make(thousandTools(catalog));
  const queries = [...sets.tuned, ...sets.heldOut].map(({ query }) => query);
  const times = [];
  for (let round = 0; round < 3; round++)
    for (const query of queries) {
      const start = performance.now();
      rank(query, 5);
      times.push(performance.now() - start);
    }
  times.sort((a, b) => a - b);
  return times[times.length >> 1];
}

/** Bytes on disk of installed packages, their dependencies in (read from node_modules, du). */
function installedBytes(names) {
  const found = new Set();
  const visit = (name) => {
    if (found.has(name)) return;
    found.add(name);
    const manifest = JSON.parse(readFileSync(new URL(`node_modules/${name}/package.json`, import.meta.url), "utf8"));
    for (const dependency of Object.keys(manifest.dependencies ?? {})) visit(dependency);
  };
  for (const name of names) visit(name);
  const paths = [...found].map((name) => new URL(`node_modules/${name}`, import.meta.url).pathname);
  const bytes = execFileSync("du", ["-cb", ...paths], { encoding: "utf8" }).trim().split("\n").at(-1).split("\t")[0];
  return { packages: [...found].sort(), bytes: Number(bytes) };
}

const results = {};
for (const [name, make] of Object.entries(rankings))
  results[name] = {
    tuned: quality(make(catalog), sets.tuned),
    heldOut: quality(make(catalog), sets.heldOut),
    fresh: quality(make(catalog), sets.fresh),
    blind: quality(make(catalog), sets.blind),
    searchMs: medianSearchMs(make),
  };
const sizes = { minisearch: installedBytes(["minisearch"]), wink: installedBytes(["wink-bm25-text-search", "wink-nlp-utils"]) };

if (process.argv.includes("--json")) console.log(JSON.stringify({ results, sizes }, null, 2));
else {
  const cell = (set) => `${set.top1}/${set.top3} of ${set.queries}`.padEnd(14);
  console.log("ranking                                  top-1/top-3: tuned  held-out       fresh          blind          search over 1,000 tools");
  for (const [name, { tuned, heldOut, fresh, blind, searchMs }] of Object.entries(results))
    console.log(`${name.padEnd(40)} ${cell(tuned)}       ${cell(heldOut)} ${cell(fresh)} ${cell(blind)} ${searchMs.toFixed(3)} ms`);
  for (const [name, size] of Object.entries(sizes))
    console.log(`\n${name}: ${(size.bytes / 1024).toFixed(0)} KiB installed (${size.packages.join(", ")})`);
}
