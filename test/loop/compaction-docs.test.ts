/**
 * The examples of docs/en/compaction.md and docs/zh/compaction.md: every ```ts block is written to
 * a git-ignored folder with its package imports pointed at the sources, type-checked against
 * `src/index` with the project's compiler options, and run (they use the scripted client: no
 * network); what they print is what the pages say they print.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { format } from "node:util";
import ts from "typescript";
import { afterAll, describe, expect, it, vi } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const FOLDER = join(ROOT, ".tmp", `compaction-docs-${process.pid}`);
afterAll(() => rmSync(FOLDER, { recursive: true, force: true }));

/** The ```ts blocks of a page. */
function blocksOf(page: string): string[] {
  const markdown = readFileSync(join(ROOT, page), "utf8");
  return [...markdown.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

/** Writes the blocks as modules importing the sources; returns their paths. */
function writeExamples(language: string, blocks: string[]): string[] {
  mkdirSync(FOLDER, { recursive: true });
  const sources = relative(FOLDER, join(ROOT, "src")).split("\\").join("/");
  return blocks.map((block, index) => {
    const file = join(FOLDER, `${language}-example-${index + 1}.ts`);
    const code = block
      .replaceAll('from "agent-lattice/testing"', `from "${sources}/testing/index"`)
      .replaceAll('from "agent-lattice"', `from "${sources}/index"`);
    // `export {}` makes each file a module, so top-level await and local names are allowed.
    writeFileSync(file, `${code}\nexport {};\n`);
    return file;
  });
}

/** Type errors of `files`, compiled with the project's tsconfig options. */
function typeErrors(files: string[]): string[] {
  const configPath = join(ROOT, "tsconfig.json");
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const program = ts.createProgram(files, { ...options, noEmit: true });
  return files.flatMap((file) => {
    const source = program.getSourceFile(file)!;
    return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map(
      (diagnostic) =>
        `${relative(ROOT, file)}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`,
    );
  });
}

/** Runs the examples in order; returns what they printed with console.log and console.warn. */
async function run(files: string[]): Promise<{ logged: string[]; warned: string[] }> {
  const log = vi.spyOn(console, "log").mockImplementation(() => {});
  const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  try {
    for (const file of files) await import(file);
    return {
      logged: log.mock.calls.map((call) => format(...call)),
      warned: warn.mock.calls.map((call) => format(...call)),
    };
  } finally {
    log.mockRestore();
    warn.mockRestore();
  }
}

const EXPECTED_LOGS = [
  "compacted 1 messages { input_tokens: 30000, output_tokens: 300 }",
  "1 32000",
  "claude-haiku-4-5 2000",
  "success Here is the migration plan.",
  "error_during_execution true",
  expect.stringMatching(/^read_log: 160011 → \d+ characters$/),
  "compacting (auto) a history of 3 messages",
];

const EXPECTED_WARNINGS = [
  "compaction failed (1 in a row): Model provider: summariser unavailable",
  "compaction failed (2 in a row): Model provider: summariser unavailable",
  "compaction failed (3 in a row): Model provider: summariser unavailable",
  expect.stringContaining("failed 3 times in a row"),
];

const PAGES = { en: "docs/en/compaction.md", zh: "docs/zh/compaction.md" } as const;

describe("compaction page examples", () => {
  const files = {
    en: writeExamples("en", blocksOf(PAGES.en)),
    zh: writeExamples("zh", blocksOf(PAGES.zh)),
  };

  it("compile against src/index (both pages, one program)", () => {
    expect(files.en).toHaveLength(6);
    expect(files.zh).toHaveLength(6);
    expect(typeErrors([...files.en, ...files.zh])).toEqual([]);
  }, 120_000);

  it.each(["en", "zh"] as const)("%s: run and print what the page says", async (language) => {
    const { logged, warned } = await run(files[language]);
    expect(logged).toEqual(EXPECTED_LOGS);
    expect(warned).toEqual(EXPECTED_WARNINGS);
    const markdown = readFileSync(join(ROOT, PAGES[language]), "utf8");
    expect(markdown).toContain("compacted 1 messages { input_tokens: 30000, output_tokens: 300 }");
    expect(markdown).toContain("`1 32000`");
  });

  it("the two pages carry the same code, comments aside", () => {
    const withoutComments = (block: string) => block.replace(/\/\/.*$/gm, "").replace(/\s+/g, " ");
    expect(blocksOf(PAGES.zh).map(withoutComments)).toEqual(blocksOf(PAGES.en).map(withoutComments));
  });
});
