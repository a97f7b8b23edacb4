/**
 * The results store of the CLI (and of anyone who wants one): every trial's conversation in a SQLite
 * history store (conversation id `<run id>:<eval>:<case>:<trial>`), and beside it two tables the
 * studio reads — `agent_lattice_eval_runs` (one row per run, with its JSON report) and
 * `agent_lattice_eval_trials` (one row per trial, with its scores). Needs `better-sqlite3`.
 * @module
 */
import type { HistoryStore } from "../index";
import { useWriteAheadLog } from "../integrations/stores/sqlite-wal";
import { EvalInputError } from "./eval-input-error";
import type { EvalReport } from "./report";
import type { TrialStoreContext } from "./run-eval";
import type { TrialRecord } from "./run-trial";

/** The table of runs. */
export const EVAL_RUNS_TABLE = "agent_lattice_eval_runs";
/** The table of trials. */
export const EVAL_TRIALS_TABLE = "agent_lattice_eval_trials";

/** An open results database. */
export interface EvalResultsStore {
  /** The history store of one trial's conversation (pass it as `runEval`'s `historyStore`). */
  historyStore(context: TrialStoreContext): Promise<HistoryStore>;
  /** Keeps a trial's scores beside its conversation. */
  recordTrial(runId: string, evalName: string, record: TrialRecord): void;
  /** Keeps (or updates) the run's row with its report so far. */
  recordRun(report: EvalReport): void;
  close(): void;
}

/** How long a write waits for another process holding the results database, in ms. */
const RESULTS_BUSY_TIMEOUT_MS = 5_000;

interface Statement {
  run(...values: unknown[]): unknown;
}
interface Database {
  exec(sql: string): unknown;
  pragma(sql: string): unknown;
  prepare(sql: string): Statement;
  close(): void;
}

/** Opens (creating it, with its folder) the results database at `path`. */
export async function openEvalResults(path: string): Promise<EvalResultsStore> {
  const [{ default: BetterSqlite }, { createSqliteHistoryStore }, { mkdir }, { dirname }] = await Promise.all(
    [
      (import("better-sqlite3") as Promise<{ default: new (path: string) => Database }>).catch(() => {
        throw new EvalInputError(
          "keeping results in results.db needs better-sqlite3 (npm install better-sqlite3), or pass --no-store",
        );
      }),
      import("../integrations/stores/sqlite"),
      import("node:fs/promises"),
      import("node:path"),
    ],
  );
  await mkdir(dirname(path), { recursive: true });
  const database = new BetterSqlite(path);
  database.pragma(`busy_timeout = ${RESULTS_BUSY_TIMEOUT_MS}`);
  useWriteAheadLog(database, RESULTS_BUSY_TIMEOUT_MS);
  database.exec(`
    CREATE TABLE IF NOT EXISTS ${EVAL_RUNS_TABLE} (
      run_id TEXT PRIMARY KEY, started_at TEXT NOT NULL, finished_at TEXT, mode TEXT NOT NULL,
      passed INTEGER NOT NULL, complete INTEGER NOT NULL, report TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS ${EVAL_TRIALS_TABLE} (
      run_id TEXT NOT NULL, eval TEXT NOT NULL, case_id TEXT NOT NULL, trial INTEGER NOT NULL,
      status TEXT NOT NULL, scores TEXT NOT NULL, cost_usd REAL NOT NULL, judge_cost_usd REAL NOT NULL,
      latency_ms INTEGER NOT NULL, turns INTEGER NOT NULL, conversation_id TEXT, error TEXT, output TEXT,
      PRIMARY KEY (run_id, eval, case_id, trial));`);
  const insertTrial = database.prepare(
    `INSERT OR REPLACE INTO ${EVAL_TRIALS_TABLE} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const upsertRun = database.prepare(
    `INSERT OR REPLACE INTO ${EVAL_RUNS_TABLE} VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  return {
    historyStore: async ({ conversationId }) =>
      createSqliteHistoryStore({ database: database as never, conversationId, failOnError: true }),
    recordTrial(runId, evalName, record) {
      insertTrial.run(
        runId,
        evalName,
        record.caseId,
        record.trial,
        record.status,
        JSON.stringify(record.scores),
        record.costUsd,
        record.judgeCostUsd,
        record.latencyMs,
        record.turns,
        record.conversationId ?? null,
        record.error ?? null,
        record.output ?? null,
      );
    },
    recordRun(report) {
      upsertRun.run(
        report.runId,
        report.startedAt,
        report.finishedAt,
        report.mode,
        report.passed ? 1 : 0,
        report.complete ? 1 : 0,
        JSON.stringify(report),
      );
    },
    close: () => database.close(),
  };
}
