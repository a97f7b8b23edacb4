/**
 * The report of an eval run (the JSON reporter writes it as is; its schema is documented in
 * docs/en/evals.md): per eval, per case its trials, pass rate, pass@k, pass^k, flakiness, cost
 * (the judge's apart), latency and turns.
 * @module
 */
import type { EvalMode } from "./model-connection";
import { passAtK, passHatK } from "./pass-at-k";
import type { TrialRecord } from "./run-trial";
import type { EvalCase } from "./types";

/** One case over its trials. */
export interface CaseSummary {
  id: string;
  tags: string[];
  /** Trials asked for. */
  trials: number;
  /** Trials that ran to an end (passed, failed or error). */
  trialsRun: number;
  passedTrials: number;
  /** passedTrials / trialsRun (0 when none ran). */
  passRate: number;
  /** pass@k and pass^k with k = the report's `k` (see pass-at-k.ts). */
  passAtK: number;
  passHatK: number;
  /** Passed some trials but not all. */
  flaky: boolean;
  /** `passed`: every trial ran and the pass rate meets the threshold; `incomplete`: some did not run. */
  status: "passed" | "failed" | "incomplete";
  costUsd: number;
  judgeCostUsd: number;
  meanLatencyMs: number;
  meanTurns: number;
  trialRecords: TrialRecord[];
}

/** A trial that was not started, and why. */
export interface NotRunTrial {
  caseId: string;
  trial: number;
  reason: "budget" | "interrupted";
}

/** One eval of a report. */
export interface EvalSummary {
  name: string;
  threshold: number;
  trials: number;
  k: number;
  passed: boolean;
  cases: CaseSummary[];
  notRun: NotRunTrial[];
  costUsd: number;
  judgeCostUsd: number;
}

/** A regression or improvement against a baseline report. */
export interface CaseChange {
  eval: string;
  caseId: string;
  before: { status: string; passRate: number };
  after: { status: string; passRate: number };
}

/** What changed against `--baseline`. */
export interface BaselineComparison {
  baseline: string;
  regressions: CaseChange[];
  improvements: CaseChange[];
}

/** The report of `runEval` and `agent-lattice eval`. */
export interface EvalReport {
  format: "agent-lattice-eval-report";
  version: 1;
  /** Identifies the run in the results store. */
  runId: string;
  mode: EvalMode;
  startedAt: string;
  finishedAt: string;
  /** `false` when the run was interrupted or the budget stopped it before every trial ran. */
  complete: boolean;
  /** Every eval met its threshold on every case (and, with a baseline, nothing regressed). */
  passed: boolean;
  evals: EvalSummary[];
  totals: {
    cases: number;
    passedCases: number;
    trials: number;
    trialsRun: number;
    costUsd: number;
    judgeCostUsd: number;
  };
  comparison?: BaselineComparison;
}

/** Sums one case's trials. */
export function summariseCase(
  evalCase: EvalCase,
  records: TrialRecord[],
  trials: number,
  k: number,
  threshold: number,
): CaseSummary {
  const ran = records.filter((record) => record.status !== "interrupted");
  const passedTrials = ran.filter((record) => record.status === "passed").length;
  const passRate = ran.length === 0 ? 0 : passedTrials / ran.length;
  const kept = Math.min(k, ran.length);
  const mean = (pick: (record: TrialRecord) => number) =>
    ran.length === 0 ? 0 : Math.round(ran.reduce((sum, record) => sum + pick(record), 0) / ran.length);
  return {
    id: evalCase.id,
    tags: evalCase.tags ?? [],
    trials,
    trialsRun: ran.length,
    passedTrials,
    passRate,
    passAtK: passAtK(ran.length, passedTrials, kept),
    passHatK: passHatK(ran.length, passedTrials, kept),
    flaky: passedTrials > 0 && passedTrials < ran.length,
    status: ran.length < trials ? "incomplete" : passRate >= threshold ? "passed" : "failed",
    costUsd: sum(records.map((record) => record.costUsd)),
    judgeCostUsd: sum(records.map((record) => record.judgeCostUsd)),
    meanLatencyMs: mean((record) => record.latencyMs),
    meanTurns: mean((record) => record.turns),
    trialRecords: [...records].sort((a, b) => a.trial - b.trial),
  };
}

/** Adds numbers, rounded to a millionth of a dollar against floating-point dust. */
export function sum(values: number[]): number {
  return Math.round(values.reduce((total, value) => total + value, 0) * 1e6) / 1e6;
}

/** A report over several evals' summaries. */
export function buildReport(parts: {
  runId: string;
  mode: EvalMode;
  startedAt: string;
  evals: EvalSummary[];
  complete: boolean;
}): EvalReport {
  const cases = parts.evals.flatMap((summary) => summary.cases);
  return {
    format: "agent-lattice-eval-report",
    version: 1,
    runId: parts.runId,
    mode: parts.mode,
    startedAt: parts.startedAt,
    finishedAt: new Date().toISOString(),
    complete: parts.complete,
    passed: parts.complete && parts.evals.every((summary) => summary.passed),
    evals: parts.evals,
    totals: {
      cases: cases.length,
      passedCases: cases.filter((summary) => summary.status === "passed").length,
      trials: cases.reduce((total, summary) => total + summary.trials, 0),
      trialsRun: cases.reduce((total, summary) => total + summary.trialsRun, 0),
      costUsd: sum(parts.evals.map((summary) => summary.costUsd)),
      judgeCostUsd: sum(parts.evals.map((summary) => summary.judgeCostUsd)),
    },
  };
}
