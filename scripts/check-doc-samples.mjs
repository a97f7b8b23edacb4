#!/usr/bin/env node
/**
 * Typechecks the TypeScript samples of the docs, so a sample that no longer compiles fails CI.
 *
 * Every ```ts (or ```typescript) block of docs/en/*.md, docs/zh/*.md and README.md becomes a module
 * of its own in .tmp/doc-samples/. Two words after the language change that:
 * - `no-check` (```ts no-check) skips the block, for fragments that cannot compile at all;
 * - `continues` (```ts continues) checks the block after the page's previous checked block, for a
 *   sample that goes on using what the one before it declared (`agent`, a tool …).
 *
 * Imports of the package (`agent-lattice`, `agent-lattice/testing`, `agent-lattice/tools`,
 * `agent-lattice/mcp`, `agent-lattice/queue`, `agent-lattice/stores/*`) resolve to the sources
 * through `paths` in a generated tsconfig, and `tsc --noEmit` checks them all in strict mode.
 * Errors are reported at their line in the Markdown page, and the script exits 1.
 *
 * It also fails on a model id that @anthropic-ai/sdk deprecates (the SDK prints a deprecation warning
 * on every request to one) in any code block of those pages or in examples/: see DEPRECATED_MODELS.
 *
 * Usage: `npm run docs:check` (or `node scripts/check-doc-samples.mjs [--root <folder>]`; `--root`
 * checks another tree, for the script's own tests). The generated files stay in .tmp/doc-samples
 * (git-ignored) for inspection.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = rootFolder();
const outputDirectory = join(root, ".tmp", "doc-samples");
const typescriptLanguages = new Set(["ts", "typescript"]);

/** Where the package's public entry points live in the sources. */
const entryPointSources = {
  "agent-lattice": "src/index.ts",
  "agent-lattice/testing": "src/testing/index.ts",
  "agent-lattice/tools": "src/workspace-tools/index.ts",
  "agent-lattice/mcp": "src/integrations/mcp/index.ts",
  "agent-lattice/queue": "src/queue/index.ts",
  "agent-lattice/ui": "src/ui/index.ts",
  "agent-lattice/studio": "src/studio/index.ts",
  "agent-lattice/stores/*": "src/integrations/stores/*.ts",
};

/**
 * The models @anthropic-ai/sdk deprecates, with their end-of-life dates: the SDK warns on every
 * request to one. Its list (`DEPRECATED_MODELS`) is not part of its public API (it lives in
 * `internal/data/deprecated-models.js`), so it is copied here — from @anthropic-ai/sdk 1.14.0, read
 * 2026-12-01. Update it when the SDK is upgraded.
 */
const DEPRECATED_MODELS = {
  "claude-mythos-preview": "June 30th, 2026",
  "claude-opus-4-5": "January 22nd, 2027",
  "claude-sonnet-4-5": "November 30th, 2026",
};

main();

function main() {
  const pages = markdownPages();
  const deprecated = [...pages, ...exampleFiles()].flatMap(deprecatedModelUses);
  if (deprecated.length > 0) {
    for (const use of deprecated) console.error(use);
    console.error(
      `doc samples: ${deprecated.length} use(s) of a model @anthropic-ai/sdk deprecates (it warns on every request); use a current model such as claude-sonnet-4-6`,
    );
    process.exitCode = 1;
  }
  const samples = pages.flatMap(extractSamples);
  rmSync(outputDirectory, { recursive: true, force: true });
  mkdirSync(outputDirectory, { recursive: true });
  for (const sample of samples) writeFileSync(join(outputDirectory, sample.fileName), sample.code);
  writeFileSync(
    join(outputDirectory, "tsconfig.json"),
    `${JSON.stringify(samplesTsconfig(samples), null, 2)}\n`,
  );

  const skipped = pages.reduce((count, page) => count + page.skipped, 0);
  console.log(
    `doc samples: ${samples.length} TypeScript blocks from ${pages.length} pages` +
      (skipped ? ` (${skipped} marked no-check)` : ""),
  );
  if (samples.length === 0) return;

  const checked = spawnSync(
    process.execPath,
    [typescriptCompiler(), "--noEmit", "--pretty", "false", "-p", join(outputDirectory, "tsconfig.json")],
    { cwd: root, encoding: "utf8" },
  );
  if (checked.error) throw checked.error;
  const output = `${checked.stdout}${checked.stderr}`.trim();
  if (checked.status === 0) {
    console.log("doc samples: all typecheck");
    return;
  }
  const bySample = new Map(samples.map((sample) => [sample.fileName, sample]));
  console.error(translateDiagnostics(output, bySample));
  process.exitCode = 1;
}

/** The folder checked: the repository, or the one given with `--root`. */
function rootFolder() {
  const index = process.argv.indexOf("--root");
  if (index !== -1 && process.argv[index + 1]) return resolve(process.argv[index + 1]);
  return resolve(dirname(fileURLToPath(import.meta.url)), "..");
}

/** The example programs, checked for deprecated models like the pages' code blocks. */
function exampleFiles() {
  const directory = join(root, "examples");
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .filter((name) => /\.(?:[cm]?[jt]s)$/.test(name))
    .sort()
    .map((name) => ({ path: join(directory, name), text: readFileSync(join(directory, name), "utf8"), code: true }));
}

/**
 * `page:line: …` for every deprecated model id in the code of `file`: its fenced code blocks (any
 * language), or all of it for a program. A dated snapshot of a deprecated model
 * (`claude-sonnet-4-5-20250929`, `claude-opus-4-5@20251101`) counts too; a longer id does not.
 */
function deprecatedModelUses(file) {
  const uses = [];
  const lines = file.text.split(/\r?\n/);
  let fence;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    if (!file.code) {
      const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
      if (marker && (!fence || (marker[0] === fence[0] && marker.length >= fence.length && /^\s*(`{3,}|~{3,})\s*$/.test(line)))) {
        fence = fence ? undefined : marker;
        continue;
      }
      if (!fence) continue;
    }
    for (const [model, endOfLife] of Object.entries(DEPRECATED_MODELS)) {
      const escaped = model.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      if (new RegExp(`(?<![\\w.-])${escaped}(?![\\w.]|-(?!\\d{8}\\b))`).test(line))
        uses.push(`${relative(root, file.path)}:${index + 1}: "${model}" is deprecated (end of life ${endOfLife})`);
    }
  }
  return uses;
}

/** The Markdown files whose samples are checked. */
function markdownPages() {
  const files = [];
  for (const language of ["en", "zh"]) {
    const directory = join(root, "docs", language);
    if (!existsSync(directory)) continue;
    for (const name of readdirSync(directory).sort())
      if (name.endsWith(".md")) files.push(join(directory, name));
  }
  const readme = join(root, "README.md");
  if (existsSync(readme)) files.push(readme);
  return files.map((path) => ({ path, text: readFileSync(path, "utf8"), skipped: 0 }));
}

/**
 * The TypeScript blocks of one page, each with the Markdown line its code starts on. Fences are
 * three or more backticks or tildes; a fence closes only with the same character, at least as long.
 */
function extractSamples(page) {
  const samples = [];
  const lines = page.text.split(/\r?\n/);
  const pageName = relative(root, page.path)
    .replace(/\.md$/, "")
    .replace(/[^A-Za-z0-9]+/g, "-");
  let fence;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    if (!fence) {
      const opening = /^ {0,3}(`{3,}|~{3,})\s*([^`]*)$/.exec(line);
      if (!opening) continue;
      const words = opening[2]
        .trim()
        .split(/[\s,{]+/)
        .filter(Boolean);
      fence = { marker: opening[1], words, firstLine: index + 1, body: [] };
      continue;
    }
    const closing = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
    if (closing && closing[1][0] === fence.marker[0] && closing[1].length >= fence.marker.length) {
      const language = (fence.words[0] ?? "").toLowerCase();
      if (typescriptLanguages.has(language)) {
        if (fence.words.includes("no-check")) page.skipped += 1;
        else {
          const previous = fence.words.includes("continues") ? samples[samples.length - 1] : undefined;
          const prefix = previous ? previous.body : [];
          const number = String(samples.length + 1).padStart(2, "0");
          const body = [...prefix, ...fence.body];
          samples.push({
            fileName: `${pageName}-${number}.ts`,
            page: relative(root, page.path),
            firstLine: fence.firstLine + 1,
            prefixLines: prefix.length,
            body,
            // `export {}` makes every sample a module: top-level await works and names stay local.
            code: `${body.join("\n")}\nexport {};\n`,
          });
        }
      }
      fence = undefined;
      continue;
    }
    fence.body.push(line);
  }
  return samples;
}

/** A strict tsconfig that maps the package's entry points to the sources. */
function samplesTsconfig(samples) {
  const toSource = (path) => relative(outputDirectory, join(root, path));
  const paths = Object.fromEntries(
    Object.entries(entryPointSources).map(([specifier, source]) => [specifier, [toSource(source)]]),
  );
  return {
    compilerOptions: {
      target: "ES2022",
      lib: ["ES2023"],
      module: "ESNext",
      moduleResolution: "Bundler",
      strict: true,
      esModuleInterop: true,
      skipLibCheck: true,
      resolveJsonModule: true,
      types: ["node"],
      typeRoots: [toSource("node_modules/@types")],
      noEmit: true,
      paths,
    },
    files: samples.map((sample) => sample.fileName),
  };
}

/** tsc's diagnostics with each sample file replaced by its page and line. */
function translateDiagnostics(output, bySample) {
  const report = [];
  let dropping = false;
  for (const line of output.split(/\r?\n/)) {
    // Indented lines continue the diagnostic above them.
    if (/^\s/.test(line)) {
      if (!dropping) report.push(line);
      continue;
    }
    dropping = false;
    const match = /^(?:\.tmp[\\/]doc-samples[\\/])?([^(\s]+\.ts)\((\d+),(\d+)\): (.*)$/.exec(line);
    const sample = match && bySample.get(match[1].split(/[\\/]/).pop());
    if (!sample) {
      report.push(line);
      continue;
    }
    const sampleLine = Number(match[2]) - sample.prefixLines;
    // An error in the lines a `continues` block inherited is reported by the block it came from.
    if (sampleLine < 1) {
      dropping = true;
      continue;
    }
    report.push(`${sample.page}:${sample.firstLine + sampleLine - 1}:${match[3]} ${match[4]}`);
  }
  return report.join("\n");
}

/** The TypeScript compiler of this project. */
function typescriptCompiler() {
  return join(root, "node_modules", "typescript", "bin", "tsc");
}
