/**
 * runEval over scripted clients: trials, pass rate, pass@k, pass^k and flaky marking; a throwing
 * or malformed scorer fails that trial with its error, never the run and never a silent 0; the
 * budget stops starting trials (the judge's cost counted, reported apart); concurrency bounds the
 * trials in flight; an abort leaves a partial report; the filter picks cases by id or tag.
 */

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defineEval, type EvalRun, passAtK, passHatK, runEval } from "../../src/evals/index";
import type { ModelClient } from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";

let baseDir: string;
beforeEach(async () => {
  baseDir = await mkdtemp(join(tmpdir(), "evals-run-"));
});
afterEach(async () => {
  await rm(baseDir, { recursive: true, force: true });
});

/** A client answering `text(trial)` with fixed usage. */
function answering(text: string): ModelClient {
  return createScriptedClient(() => ({ content: text, usage: { input_tokens: 1_000, output_tokens: 100 } }));
}

const passesOnOutput = (run: EvalRun) => ({
  score: run.output === "good" ? 1 : 0,
  reason: `said ${run.output}`,
});

describe("runEval", () => {
  it("reports pass rate, pass@k, pass^k and marks a case that passed some trials as flaky", async () => {
    const report = await runEval(
      defineEval({
        name: "flaky",
        agent: ({ caseId, trial }) => ({
          model: "claude-sonnet-4-6",
          client: answering(caseId === "steady" || trial !== 2 ? "good" : "bad"),
        }),
        cases: [
          { id: "steady", input: "hi" },
          { id: "wobbly", input: "hi" },
        ],
        scorers: [passesOnOutput],
        trials: 3,
        threshold: 0.6,
      }),
      { baseDir },
    );
    const [steady, wobbly] = report.evals[0]!.cases;
    expect(steady).toMatchObject({
      passedTrials: 3,
      passRate: 1,
      passAtK: 1,
      passHatK: 1,
      flaky: false,
      status: "passed",
    });
    expect(wobbly).toMatchObject({ passedTrials: 2, flaky: true, status: "passed", passAtK: 1, passHatK: 0 });
    expect(wobbly!.passRate).toBeCloseTo(2 / 3, 9);
    expect(report.passed).toBe(true);
    expect(report.totals).toMatchObject({ cases: 2, passedCases: 2, trials: 6, trialsRun: 6 });
    expect(report.totals.costUsd).toBeGreaterThan(0);
  });

  it("fails a case under its threshold", async () => {
    const report = await runEval(
      defineEval({
        name: "strict",
        agent: ({ trial }) => ({
          model: "claude-sonnet-4-6",
          client: answering(trial === 1 ? "bad" : "good"),
        }),
        cases: [{ id: "c", input: "hi" }],
        scorers: [passesOnOutput],
        trials: 2,
      }),
      { baseDir },
    );
    expect(report.evals[0]!.cases[0]).toMatchObject({ status: "failed", flaky: true });
    expect(report.passed).toBe(false);
  });

  it("turns a throwing, out-of-range or malformed scorer into a failed score with the error, for that trial only", async () => {
    const report = await runEval(
      defineEval({
        name: "scorers",
        agent: () => ({ model: "claude-sonnet-4-6", client: answering("good") }),
        cases: [{ id: "c", input: "hi" }],
        scorers: [
          function exploding() {
            throw new TypeError("cannot read 'files' of undefined");
          },
          () => ({ score: Number.NaN }),
          () => ({ score: 3 }),
          () => undefined as never,
          passesOnOutput,
        ],
      }),
      { baseDir },
    );
    const trial = report.evals[0]!.cases[0]!.trialRecords[0]!;
    expect(trial.status).toBe("failed");
    expect(trial.scores.map((score) => [score.scorer, score.pass, score.error ?? false])).toEqual([
      ["exploding", false, true],
      ["scorer #2", false, true],
      ["scorer #3", false, true],
      ["scorer #4", false, true],
      ["passesOnOutput", true, false],
    ]);
    expect(trial.scores[0]!.reason).toBe("scorer error: threw: TypeError: cannot read 'files' of undefined");
    expect(trial.scores[1]!.reason).toContain("not a number from 0 to 1");
    expect(trial.scores[3]!.reason).toContain("not { score, pass?, reason? }");
  });

  it("stops starting trials once the budget is spent, the judge's cost included and reported apart", async () => {
    const report = await runEval(
      defineEval({
        name: "budget",
        agent: () => ({ model: "claude-sonnet-4-6", client: answering("good") }),
        cases: [
          { id: "a", input: "hi" },
          { id: "b", input: "hi" },
        ],
        scorers: [
          (run) => {
            run.addJudgeCost(0.5);
            return { score: 1 };
          },
        ],
        trials: 2,
        concurrency: 1,
        budgetUsd: 1,
      }),
      { baseDir },
    );
    const summary = report.evals[0]!;
    // Trial a#1 costs 0.5 (judge) + the agent's: the second trial starts (spent < 1), the rest do not.
    expect(summary.notRun).toEqual([
      { caseId: "b", trial: 1, reason: "budget" },
      { caseId: "b", trial: 2, reason: "budget" },
    ]);
    expect(summary.judgeCostUsd).toBe(1);
    expect(summary.costUsd).toBeGreaterThan(0);
    expect(summary.costUsd).toBeLessThan(0.1);
    expect(report.complete).toBe(false);
    expect(report.passed).toBe(false);
    expect(summary.cases[1]!.status).toBe("incomplete");
  });

  it("keeps at most `concurrency` trials in flight", async () => {
    let inFlight = 0;
    let most = 0;
    const client: ModelClient = {
      async createMessage() {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 20));
        inFlight--;
        return {
          role: "assistant",
          content: [{ type: "text", text: "good" }],
          stop_reason: "end_turn",
          usage: { input_tokens: 1, output_tokens: 1 },
        };
      },
    };
    await runEval(
      defineEval({
        name: "pool",
        agent: () => ({ model: "claude-sonnet-4-6", client }),
        cases: Array.from({ length: 6 }, (_, index) => ({ id: `c${index}`, input: "hi" })),
        scorers: [passesOnOutput],
        trials: 2,
        concurrency: 3,
      }),
      { baseDir },
    );
    expect(most).toBe(3);
  });

  it("writes a partial report when aborted: running trials interrupted, the rest not started", async () => {
    const stop = new AbortController();
    const client: ModelClient = {
      createMessage: (request) =>
        new Promise((_, reject) => {
          stop.abort();
          request.signal.addEventListener("abort", () => reject(request.signal.reason), { once: true });
        }),
    };
    const report = await runEval(
      defineEval({
        name: "abort",
        agent: () => ({ model: "claude-sonnet-4-6", client }),
        cases: [
          { id: "a", input: "hi" },
          { id: "b", input: "hi" },
        ],
        scorers: [passesOnOutput],
        concurrency: 1,
      }),
      { baseDir, signal: stop.signal },
    );
    const summary = report.evals[0]!;
    expect(report.complete).toBe(false);
    expect(summary.cases[0]!.trialRecords[0]!.status).toBe("interrupted");
    expect(summary.notRun).toEqual([{ caseId: "b", trial: 1, reason: "interrupted" }]);
  });

  it("runs only the cases whose id or tag contains the filter", async () => {
    const report = await runEval(
      defineEval({
        name: "filter",
        agent: () => ({ model: "claude-sonnet-4-6", client: answering("good") }),
        cases: [
          { id: "read-one", input: "hi" },
          { id: "write-one", input: "hi", tags: ["smoke"] },
          { id: "other", input: "hi" },
        ],
        scorers: [passesOnOutput],
      }),
      { baseDir, filter: "SMOKE" },
    );
    expect(report.evals[0]!.cases.map((summary) => summary.id)).toEqual(["write-one"]);
  });

  it("sends a multi-turn case's prompts in order to the same agent", async () => {
    const client = createScriptedClient([{ content: "first" }, { content: "good" }]);
    const report = await runEval(
      defineEval({
        name: "turns",
        agent: () => ({ model: "claude-sonnet-4-6", client }),
        cases: [{ id: "two", input: ["one", "two"] }],
        scorers: [
          passesOnOutput,
          (run) => ({ score: run.messages.length === 4 ? 1 : 0, reason: `${run.messages.length} messages` }),
        ],
      }),
      { baseDir },
    );
    expect(report.passed).toBe(true);
    expect(report.evals[0]!.cases[0]!.meanTurns).toBe(2);
  });
});

describe("pass@k and pass^k", () => {
  it("follow the unbiased estimators", () => {
    expect(passAtK(3, 1, 1)).toBeCloseTo(1 / 3, 9);
    expect(passAtK(3, 1, 3)).toBe(1);
    expect(passAtK(3, 0, 3)).toBe(0);
    expect(passAtK(5, 2, 2)).toBeCloseTo(1 - 3 / 10, 9);
    expect(passHatK(3, 2, 2)).toBeCloseTo(1 / 3, 9);
    expect(passHatK(3, 3, 3)).toBe(1);
    expect(passHatK(3, 2, 3)).toBe(0);
  });
});
