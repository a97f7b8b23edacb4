/**
 * The studio's eval endpoints (read only), over the sources that hold eval runs (SQLite results
 * databases of `agent-lattice eval`):
 * - `GET /api/evals` — every run of every source, newest first;
 * - `GET /api/eval-run?source&run` — one run's report.
 * @module
 */
import type { StudioSource } from "./source";

/** An answer of the eval endpoints. */
export interface EvalApiAnswer {
  status: number;
  body: unknown;
}

/** Answers `/api/evals` and `/api/eval-run`. */
export function answerEvalApi(sources: readonly StudioSource[], url: URL): EvalApiAnswer {
  if (url.pathname === "/api/evals") {
    const runs = sources.flatMap((source, index) =>
      (source.evals?.runs() ?? []).map((run) => ({ ...run, source: index, sourceLabel: source.label })),
    );
    runs.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
    return { status: 200, body: { runs } };
  }
  if (url.pathname === "/api/eval-run") {
    const index = Number(url.searchParams.get("source"));
    const runId = url.searchParams.get("run") ?? "";
    const source = Number.isInteger(index) ? sources[index] : undefined;
    const report = source?.evals?.report(runId);
    if (report === undefined) return { status: 404, body: { error: "No such eval run." } };
    return { status: 200, body: report };
  }
  return { status: 404, body: { error: "No such endpoint." } };
}
