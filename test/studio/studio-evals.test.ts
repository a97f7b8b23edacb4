/**
 * The studio's eval view, in headless Chromium over a SQLite results database written as
 * `agent-lattice eval` writes it: the runs listed; one run as cases × trials with each score's
 * reason, cost, latency and turns, linked to the trial's timeline; two runs side by side naming
 * what got worse and better; stored text (a hostile output, a hostile reason) shown as text.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineEval, type EvalRun, runEval } from "../../src/evals/index";
import { openEvalResults } from "../../src/evals/results-store";
import { type Studio, startStudio } from "../../src/studio/index";
import { createScriptedClient } from "../../src/testing/index";
import { HOSTILE_OUTPUT, startBrowser } from "./support";

const WAIT = { timeout: 60_000 };
/** Where the screenshots go: the scratch folder, or docs/images with STUDIO_EVAL_SCREENSHOTS=docs/images. */
const shots = () => process.env.STUDIO_EVAL_SCREENSHOTS ?? folder;
let browser: Browser;
let folder: string;
let studio: Studio | undefined;

beforeAll(async () => {
  browser = await startBrowser();
  folder = await mkdtemp(join(tmpdir(), "studio-evals-"));
}, 120_000);

afterAll(async () => {
  await studio?.close();
  await browser?.close();
  await rm(folder, { recursive: true, force: true });
});

/** One run into the results database; `bad` cases answer wrongly on every trial. */
async function recordRun(database: string, bad: string[]): Promise<string> {
  const results = await openEvalResults(database);
  const definition = defineEval({
    name: "answers",
    agent: ({ caseId }) => ({
      model: "claude-sonnet-4-6",
      client: createScriptedClient(() => ({
        content: bad.includes(caseId) ? HOSTILE_OUTPUT : "good answer",
      })),
    }),
    cases: [
      { id: "alpha", input: "hi" },
      { id: "beta", input: "hi" },
      { id: "gamma", input: "hi" },
    ],
    scorers: [
      function saysGood(run: EvalRun) {
        return {
          score: run.output.includes("good") ? 1 : 0,
          reason: `said <b>${run.output.slice(0, 30)}</b>`,
        };
      },
    ],
    trials: 2,
  });
  const runId = `run-${bad.length}-${Date.now()}`;
  try {
    const report = await runEval(definition, {
      historyStore: (context) => results.historyStore(context),
      onTrial: (record) => results.recordTrial(runId, "answers", record),
      runId,
    });
    results.recordRun(report);
    return runId;
  } finally {
    results.close();
  }
}

describe("the studio's eval view", () => {
  it("lists runs, shows one as cases × trials linked to timelines, and compares two", {
    timeout: 240_000,
  }, async () => {
    const database = join(folder, "results.db");
    const before = await recordRun(database, []);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const after = await recordRun(database, ["beta"]);
    studio = await startStudio({ stores: [`sqlite:${database}`] });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${studio.url}#/evals`);
    const runs = page.getByTestId("eval-runs");
    await runs.locator(`tr[data-run="${after}"]`).waitFor(WAIT);
    expect(await runs.locator("tbody tr").count()).toBe(2);
    expect(await runs.locator(`tr[data-run="${after}"]`).textContent()).toContain("2/3");

    await runs.locator(`tr[data-run="${after}"] a`).click();
    const table = page.getByTestId("eval-answers");
    await table.waitFor(WAIT);
    const beta = table.locator('tr[data-case="beta"]');
    expect(await beta.locator("td").nth(1).textContent()).toBe("failed");
    const trial = await beta.locator('[data-trial="1"]').textContent();
    expect(trial).toContain("saysGood 0.00 — said <b>");
    expect(trial).toContain(HOSTILE_OUTPUT.slice(0, 20));
    expect(trial).toMatch(/\$0\.\d{4} \(\+ judge \$0\.0000\) · \d+ ms · 1 turns/);
    expect(await page.evaluate("window.__pwned")).toBeUndefined();
    await page.screenshot({ path: join(shots(), "studio-evals-run.png") });

    await beta.locator('[data-trial="2"] a', { hasText: "timeline" }).click();
    await page.waitForURL(/#\/c\/0\//, WAIT);
    await page.getByText("hi", { exact: true }).first().waitFor(WAIT);

    await page.goto(`${studio.url}#/evals`);
    await runs.locator(`tr[data-run="${before}"] input`).check();
    await runs.locator(`tr[data-run="${after}"] input`).check();
    await page.getByTestId("compare").click();
    const comparison = page.getByTestId("eval-comparison");
    await comparison.waitFor(WAIT);
    expect(await page.getByTestId("comparison-summary").textContent()).toBe(
      "1 case(s) got worse, 0 got better.",
    );
    expect(await comparison.locator('tr[data-change="worse"]').getAttribute("data-case")).toBe(
      "answers / beta",
    );
    expect(await comparison.locator('tr[data-change="same"]').count()).toBe(2);
    await page.screenshot({ path: join(shots(), "studio-evals-compare.png") });
    await page.close();
  });
});
