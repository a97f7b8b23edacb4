/**
 * docs/en/resilience-and-cost.md: each ```ts block is kept, word for word, as
 * `test/cost/docs-examples/example-<n>.ts` (package imports pointed at the sources), so the project's
 * `tsc --noEmit` compiles every example; this test checks the page and the files agree, runs each
 * example (mock server or scripted client: no network), and checks that the price table on the page
 * is the one `DEFAULT_PRICING` holds. `UPDATE_PRICING_DOCS=1` rewrites the table from the code.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { DEFAULT_PRICING, type ModelPricing } from "../../src/index";
import { exampleFiles, typescriptBlocks } from "../support/doc-examples";

const ROOT = resolve(import.meta.dirname, "../..");
const PAGE = join(ROOT, "docs/en/resilience-and-cost.md");
const EXAMPLES = join(ROOT, "test/cost/docs-examples");
const TABLE_START =
  "<!-- pricing-table:start (generated from DEFAULT_PRICING; see test/cost/docs-examples.test.ts) -->";
const TABLE_END = "<!-- pricing-table:end -->";

function usd(value: number | undefined): string {
  return value === undefined ? "—" : `$${value}`;
}

function bandNote(price: ModelPricing, model: string): string {
  if (price.longPrompt) {
    const band = price.longPrompt;
    return `prompts over ${band.aboveInputTokens.toLocaleString("en-US")} tokens: ${usd(band.inputPerMTok)} / ${usd(band.outputPerMTok)} / ${usd(band.cacheWritePerMTok)} / ${usd(band.cacheReadPerMTok)}`;
  }
  if (model.startsWith("deepseek-")) return "peak-hour rates; off-peak is half";
  return "";
}

/** The table as the page shows it, built from the code. */
function pricingTable(table: Readonly<Record<string, ModelPricing>>): string {
  const rows = Object.entries(table).map(
    ([model, price]) =>
      `| \`${model}\` | ${usd(price.inputPerMTok)} | ${usd(price.outputPerMTok)} | ${usd(price.cacheWritePerMTok)} | ${usd(price.cacheReadPerMTok)} | ${bandNote(price, model)} |`,
  );
  return [
    "| model id | input | output | cache write | cache read | note |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows,
  ].join("\n");
}

function tableSection(markdown: string): string {
  const start = markdown.indexOf(TABLE_START);
  const end = markdown.indexOf(TABLE_END);
  expect(start).toBeGreaterThan(-1);
  expect(end).toBeGreaterThan(start);
  return markdown.slice(start + TABLE_START.length, end).trim();
}

describe("docs/en/resilience-and-cost.md", () => {
  it("shows the price table DEFAULT_PRICING holds", () => {
    let page = readFileSync(PAGE, "utf8");
    if (process.env.UPDATE_PRICING_DOCS) {
      const start = page.indexOf(TABLE_START) + TABLE_START.length;
      page = `${page.slice(0, start)}\n${pricingTable(DEFAULT_PRICING)}\n${page.slice(page.indexOf(TABLE_END))}`;
      writeFileSync(PAGE, page);
    }
    expect(tableSection(page)).toBe(pricingTable(DEFAULT_PRICING));
  });

  it("has examples that are the compiled example files, block for block", () => {
    const blocks = typescriptBlocks(readFileSync(PAGE, "utf8"));
    const files = exampleFiles(EXAMPLES);
    expect(blocks.length).toBe(5);
    expect(files.map((file) => readFileSync(file, "utf8"))).toEqual(blocks);
  });

  it("has examples that run to completion and print what the page says", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      for (const file of exampleFiles(EXAMPLES)) await import(file);
      const logged = log.mock.calls.map((call) => call.map(String).join(" "));
      expect(logged.slice(0, 4)).toEqual([
        "retry 1/2 of claude-opus-4-8 (status 529)",
        "retry 2/2 of claude-opus-4-8 (status 529)",
        "falling back from claude-opus-4-8 to claude-sonnet-4-6",
        "success Answered by the fallback model.",
      ]);
      expect(logged[4]).toBe("401 authentication_error req_mock_1 false");
      // 120k × $0.9 + 4k × $2.7 per million.
      expect(logged[5]).toBe("success 0.1188");
      expect(log.mock.calls[6]![0]).toMatchObject({ input_tokens: 120_000, output_tokens: 4_000 });
      // Opus 4.8: 20k × $5 + 2k × $25; Haiku 4.5: 22k × $1 + 800 × $5 — per million.
      expect(logged.slice(7, 9)).toEqual(["claude-opus-4-8 0.1500", "claude-haiku-4-5 0.0260"]);
      expect(logged.slice(9)).toEqual([
        "3 end_turn",
        "The three causes were: first, a stale cache; second, a race; third, a missing index.",
      ]);
    } finally {
      log.mockRestore();
    }
  });
});

describe("docs/zh/resilience-and-cost.md", () => {
  it("lists the same models and prices as DEFAULT_PRICING (its notes are in Chinese)", () => {
    const page = readFileSync(join(ROOT, "docs/zh/resilience-and-cost.md"), "utf8");
    const pricesOf = (rows: string[]) =>
      rows.map((row) =>
        row
          .split("|")
          .slice(1, 6)
          .map((cell) => cell.trim()),
      );
    const lines = page.split("\n");
    const header = lines.findIndex((line) => line.startsWith("| 模型 id |"));
    expect(header).toBeGreaterThan(-1);
    const end = lines.findIndex((line, index) => index > header && !line.startsWith("|"));
    const shown = lines.slice(header + 2, end);
    const expected = pricingTable(DEFAULT_PRICING).split("\n").slice(2);
    expect(pricesOf(shown)).toEqual(pricesOf(expected));
  });
});
