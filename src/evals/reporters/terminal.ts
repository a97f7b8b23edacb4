/**
 * The terminal reporter: a progress bar while trials run (redrawn in place on a terminal, a line
 * per tenth of the run otherwise) and a summary table at the end.
 * @module
 */
import type { EvalReport } from "../report";
import { trialReason } from "./markdown";

/** Draws progress to a stream. */
export function createProgress(stream: { write(text: string): unknown; isTTY?: boolean }): {
  update(done: number, total: number, label: string): void;
  end(): void;
} {
  let lastTenth = -1;
  let drawn = false;
  return {
    update(done, total, label) {
      const share = total === 0 ? 1 : done / total;
      if (stream.isTTY) {
        const width = 24;
        const filled = Math.round(share * width);
        stream.write(
          `\r[${"█".repeat(filled)}${"░".repeat(width - filled)}] ${done}/${total} ${label.slice(0, 40).padEnd(40)}`,
        );
        drawn = true;
        return;
      }
      const tenth = Math.floor(share * 10);
      if (tenth === lastTenth) return;
      lastTenth = tenth;
      stream.write(`eval: ${done}/${total} trials\n`);
    },
    end() {
      if (drawn) stream.write("\r\u001b[K");
    },
  };
}

/** The summary table and verdict, as plain text. */
export function terminalReport(report: EvalReport): string {
  const lines: string[] = [];
  for (const summary of report.evals) {
    lines.push(
      `${summary.name}  (${summary.trials} trial(s) per case, threshold ${Math.round(summary.threshold * 100)}%)`,
    );
    const rows = summary.cases.map((row) => [
      row.status === "passed" ? "✔" : row.status === "failed" ? "✘" : "…",
      row.id,
      `${row.passedTrials}/${row.trialsRun}${row.flaky ? " flaky" : ""}`,
      `pass@${summary.k} ${row.passAtK.toFixed(2)}`,
      `pass^${summary.k} ${row.passHatK.toFixed(2)}`,
      `$${row.costUsd.toFixed(4)}`,
      `${row.meanLatencyMs} ms`,
      `${row.meanTurns} turns`,
    ]);
    const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]!.length))) ?? [];
    for (const row of rows)
      lines.push(`  ${row.map((value, column) => value.padEnd(widths[column]!)).join("  ")}`);
    for (const row of summary.cases)
      for (const trial of row.trialRecords.filter((record) => record.status !== "passed"))
        lines.push(`    ${row.id} #${trial.trial} ${trial.status}: ${trialReason(trial)}`);
    if (summary.notRun.length > 0)
      lines.push(
        `  not run: ${summary.notRun.map((item) => `${item.caseId}#${item.trial} (${item.reason})`).join(", ")}`,
      );
  }
  if (report.comparison) {
    for (const change of report.comparison.regressions)
      lines.push(
        `regression: ${change.eval} / ${change.caseId} (${change.before.status} → ${change.after.status})`,
      );
    for (const change of report.comparison.improvements)
      lines.push(
        `improvement: ${change.eval} / ${change.caseId} (${change.before.status} → ${change.after.status})`,
      );
  }
  const { totals } = report;
  lines.push(
    `${report.passed ? "PASS" : "FAIL"}: ${totals.passedCases}/${totals.cases} cases passed, ${totals.trialsRun}/${totals.trials} trials run, agent $${totals.costUsd.toFixed(4)}, judge $${totals.judgeCostUsd.toFixed(4)}${report.complete ? "" : " (incomplete)"}`,
  );
  return `${lines.join("\n")}\n`;
}
