/**
 * `runEval`: every case × trial of a definition in fresh Agents, at most `concurrency` at once,
 * stopping to start trials when the budget is spent or the signal aborts; then the report.
 * @module
 */
import { randomUUID } from "node:crypto";
import type { HistoryStore } from "../index";
import { cassetteFolder } from "./cassette";
import { EvalInputError } from "./eval-input-error";
import { loadCases } from "./load-cases";
import type { EvalMode } from "./model-connection";
import {
  buildReport,
  type EvalReport,
  type EvalSummary,
  type NotRunTrial,
  sum,
  summariseCase,
} from "./report";
import { runTrial, type TrialRecord } from "./run-trial";
import type { EvalCase, EvalDefinition } from "./types";

/** Where a trial's conversation is stored. */
export interface TrialStoreContext {
  conversationId: string;
  runId: string;
  evalName: string;
  caseId: string;
  trial: number;
}

/** Options of {@link runEval}. */
export interface RunEvalOptions {
  /** `live` calls the model as configured; `record` also writes cassettes; `replay` answers from them. @default "live" */
  mode?: EvalMode;
  /** The eval file's folder: case files, workspace folders and cassettes are relative to it. @default process.cwd() */
  baseDir?: string;
  /** Trials per case, over the definition's. */
  trials?: number;
  /** Only cases whose id or one of whose tags contains this text. */
  filter?: string;
  /** Aborting stops starting trials and interrupts the running ones; the report is then partial. */
  signal?: AbortSignal;
  /** A store per trial, to keep each trial's conversation (the CLI's: SQLite under `--out`). */
  historyStore?: (context: TrialStoreContext) => HistoryStore | Promise<HistoryStore>;
  /** Called as each trial ends (progress, a results store). */
  onTrial?: (
    record: TrialRecord,
    progress: { done: number; total: number; evalName: string },
  ) => void | Promise<void>;
  /** The run's id (the conversation ids start with it). @default a random UUID */
  runId?: string;
  /** The k of pass@k and pass^k. @default the number of trials */
  k?: number;
}

interface Job {
  evalCase: EvalCase;
  trial: number;
}

/**
 * Runs an eval and resolves with its report (never rejects for a failing trial: a trial that cannot
 * run is an `error` trial). Usable in any test runner:
 *
 * @example
 * const report = await runEval(definition, { mode: "replay", baseDir: import.meta.dirname });
 * expect(report.passed).toBe(true);
 * @throws {EvalInputError} bad cases or options, before any trial runs.
 */
export async function runEval(definition: EvalDefinition, options: RunEvalOptions = {}): Promise<EvalReport> {
  const startedAt = new Date().toISOString();
  const runId = options.runId ?? randomUUID();
  const summary = await runDefinition(definition, { ...options, runId });
  return buildReport({
    runId,
    mode: options.mode ?? "live",
    startedAt,
    evals: [summary.summary],
    complete: summary.complete,
  });
}

/** Runs one definition: its summary, and whether every trial ran. */
export async function runDefinition(
  definition: EvalDefinition,
  options: RunEvalOptions & { runId: string },
): Promise<{ summary: EvalSummary; complete: boolean }> {
  const baseDir = options.baseDir ?? process.cwd();
  const trials = options.trials ?? definition.trials;
  if (!Number.isInteger(trials) || trials < 1) throw new EvalInputError("trials must be a positive integer.");
  const cases = selectCases(await loadCases(definition.cases, baseDir), options.filter);
  const k = Math.min(options.k ?? trials, trials);
  const jobs: Job[] = cases.flatMap((evalCase) =>
    Array.from({ length: trials }, (_, index) => ({ evalCase, trial: index + 1 })),
  );
  const records: TrialRecord[] = [];
  const notRun: NotRunTrial[] = [];
  const signal = options.signal ?? new AbortController().signal;
  let spent = 0;
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++]!;
      const stop = signal.aborted
        ? "interrupted"
        : definition.budgetUsd !== undefined && spent >= definition.budgetUsd
          ? "budget"
          : undefined;
      if (stop) {
        notRun.push({ caseId: job.evalCase.id, trial: job.trial, reason: stop });
        continue;
      }
      const record = await runTrial({
        definition,
        evalCase: job.evalCase,
        trial: job.trial,
        baseDir,
        mode: options.mode ?? "live",
        cassettes: cassetteFolder(baseDir, definition.name),
        signal,
        conversationId: `${options.runId}:${definition.name}:${job.evalCase.id}:${job.trial}`,
        ...(options.historyStore && { historyStore: storeFor(options, definition.name, job) }),
      });
      spent += record.costUsd + record.judgeCostUsd;
      records.push(record);
      await options.onTrial?.(record, {
        done: records.length + notRun.length,
        total: jobs.length,
        evalName: definition.name,
      });
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(definition.concurrency, Math.max(jobs.length, 1)) }, worker),
  );
  const summaries = cases.map((evalCase) =>
    summariseCase(
      evalCase,
      records.filter((record) => record.caseId === evalCase.id),
      trials,
      k,
      definition.threshold,
    ),
  );
  const complete = notRun.length === 0 && records.every((record) => record.status !== "interrupted");
  return {
    complete,
    summary: {
      name: definition.name,
      threshold: definition.threshold,
      trials,
      k,
      passed: summaries.every((summary) => summary.status === "passed"),
      cases: summaries,
      notRun: notRun.sort((a, b) => a.caseId.localeCompare(b.caseId) || a.trial - b.trial),
      costUsd: sum(records.map((record) => record.costUsd)),
      judgeCostUsd: sum(records.map((record) => record.judgeCostUsd)),
    },
  };
}

function storeFor(options: RunEvalOptions & { runId: string }, evalName: string, job: Job) {
  return (conversationId: string) =>
    options.historyStore!({
      conversationId,
      runId: options.runId,
      evalName,
      caseId: job.evalCase.id,
      trial: job.trial,
    });
}

function selectCases(cases: EvalCase[], filter: string | undefined): EvalCase[] {
  if (!filter) return cases;
  const text = filter.toLowerCase();
  return cases.filter(
    (evalCase) =>
      evalCase.id.toLowerCase().includes(text) ||
      (evalCase.tags ?? []).some((tag) => tag.toLowerCase().includes(text)),
  );
}
