/**
 * Comparing a report with a baseline report (`--baseline`): a case is a regression when it passed
 * in the baseline and does not now, or its pass rate fell; an improvement the other way round.
 * Cases in only one of the two reports are neither.
 * @module
 */
import { readFile } from "node:fs/promises";
import { EvalInputError } from "./eval-input-error";
import type { BaselineComparison, CaseChange, EvalReport } from "./report";

/** Reads a report written by the JSON reporter. */
export async function readReport(path: string): Promise<EvalReport> {
  let parsed: Partial<EvalReport>;
  try {
    parsed = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new EvalInputError(`cannot read the baseline report ${path}: ${(error as Error).message}`);
  }
  if (parsed.format !== "agent-lattice-eval-report" || !Array.isArray(parsed.evals))
    throw new EvalInputError(`${path} is not an agent-lattice eval report`);
  return parsed as EvalReport;
}

/** What changed from `baseline` to `report`. */
export function compareReports(
  baseline: EvalReport,
  report: EvalReport,
  baselinePath: string,
): BaselineComparison {
  const before = new Map<string, { status: string; passRate: number }>();
  for (const summary of baseline.evals)
    for (const row of summary.cases)
      before.set(`${summary.name}\u0000${row.id}`, { status: row.status, passRate: row.passRate });
  const regressions: CaseChange[] = [];
  const improvements: CaseChange[] = [];
  for (const summary of report.evals)
    for (const row of summary.cases) {
      const old = before.get(`${summary.name}\u0000${row.id}`);
      if (!old || row.status === "incomplete") continue;
      const change = {
        eval: summary.name,
        caseId: row.id,
        before: old,
        after: { status: row.status, passRate: row.passRate },
      };
      const wasPassing = old.status === "passed";
      const isPassing = row.status === "passed";
      if ((wasPassing && !isPassing) || row.passRate < old.passRate - 1e-9) regressions.push(change);
      else if ((!wasPassing && isPassing) || row.passRate > old.passRate + 1e-9) improvements.push(change);
    }
  return { baseline: baselinePath, regressions, improvements };
}

/** `report` with its comparison, failing it when anything regressed. */
export function withComparison(report: EvalReport, comparison: BaselineComparison): EvalReport {
  return { ...report, comparison, passed: report.passed && comparison.regressions.length === 0 };
}
