/**
 * Eval runs in a SQLite results database (what `agent-lattice eval` writes to `<out>/results.db`):
 * the runs, newest first, and one run's report. A database without the eval tables has no runs.
 * @module
 */
import type Database from "better-sqlite3";

/** One run as the studio lists it. */
export interface EvalRunRow {
  runId: string;
  startedAt: string;
  finishedAt: string | null;
  mode: string;
  passed: boolean;
  complete: boolean;
  evals: string[];
  totals: unknown;
}

/** Reads the eval runs of one database. */
export interface EvalRunsReader {
  runs(): EvalRunRow[];
  /** The run's report (the JSON reporter's schema), or `undefined`. */
  report(runId: string): unknown;
}

const RUNS_TABLE = "agent_lattice_eval_runs";

/** The eval runs of `database`. */
export function evalRunsReader(database: Database.Database): EvalRunsReader {
  const hasTable = () =>
    database.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(RUNS_TABLE) !==
    undefined;
  return {
    runs() {
      if (!hasTable()) return [];
      const rows = database
        .prepare(
          `SELECT run_id, started_at, finished_at, mode, passed, complete, report FROM ${RUNS_TABLE} ORDER BY started_at DESC LIMIT 200`,
        )
        .all() as Array<{
        run_id: string;
        started_at: string;
        finished_at: string | null;
        mode: string;
        passed: number;
        complete: number;
        report: string;
      }>;
      return rows.map((row) => {
        const report = parseReport(row.report);
        return {
          runId: row.run_id,
          startedAt: row.started_at,
          finishedAt: row.finished_at,
          mode: row.mode,
          passed: row.passed === 1,
          complete: row.complete === 1,
          evals: (report?.evals ?? []).map((summary) => String(summary.name)),
          totals: report?.totals ?? null,
        };
      });
    },
    report(runId) {
      if (!hasTable()) return undefined;
      const row = database.prepare(`SELECT report FROM ${RUNS_TABLE} WHERE run_id = ?`).get(runId) as
        | { report: string }
        | undefined;
      return row ? parseReport(row.report) : undefined;
    },
  };
}

function parseReport(text: string): { evals?: Array<{ name: unknown }>; totals?: unknown } | undefined {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
