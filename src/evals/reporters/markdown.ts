/**
 * The Markdown reporter: a summary for a pull-request comment — the verdict, regressions and
 * improvements against the baseline, one table row per case, and the failed trials' reasons.
 * @module
 */
import type { CaseSummary, EvalReport } from "../report";

/** The report as Markdown. */
export function markdownReport(report: EvalReport): string {
  const lines = [
    `## ${report.passed ? "✅" : "❌"} agent-lattice eval — ${report.totals.passedCases}/${report.totals.cases} cases passed`,
    "",
    `Mode \`${report.mode}\` · ${report.totals.trialsRun}/${report.totals.trials} trials · agent $${report.totals.costUsd.toFixed(4)} · judge $${report.totals.judgeCostUsd.toFixed(4)}${report.complete ? "" : " · **incomplete run**"}`,
    "",
  ];
  if (report.comparison) {
    const { regressions, improvements } = report.comparison;
    lines.push(
      `**Against the baseline:** ${regressions.length} regression(s), ${improvements.length} improvement(s).`,
      "",
    );
    for (const change of regressions)
      lines.push(
        `- ⬇️ \`${change.eval} / ${change.caseId}\`: ${change.before.status} ${percent(change.before.passRate)} → ${change.after.status} ${percent(change.after.passRate)}`,
      );
    for (const change of improvements)
      lines.push(
        `- ⬆️ \`${change.eval} / ${change.caseId}\`: ${change.before.status} ${percent(change.before.passRate)} → ${change.after.status} ${percent(change.after.passRate)}`,
      );
    if (regressions.length + improvements.length > 0) lines.push("");
  }
  for (const summary of report.evals) {
    lines.push(
      `### ${cell(summary.name)} (threshold ${percent(summary.threshold)}, pass@${summary.k} / pass^${summary.k})`,
      "",
    );
    lines.push(
      "| case | status | pass rate | pass@k | pass^k | cost | latency | turns |",
      "| --- | --- | --- | --- | --- | --- | --- | --- |",
    );
    for (const row of summary.cases) lines.push(caseRow(row));
    const failures = summary.cases.flatMap((row) =>
      row.trialRecords
        .filter((trial) => trial.status !== "passed")
        .map((trial) => `- \`${cell(row.id)}\` trial ${trial.trial}: ${cell(trialReason(trial))}`),
    );
    if (failures.length > 0)
      lines.push("", "<details><summary>Failed trials</summary>", "", ...failures, "", "</details>");
    if (summary.notRun.length > 0)
      lines.push(
        "",
        `Not run: ${summary.notRun.map((item) => `${item.caseId}#${item.trial} (${item.reason})`).join(", ")}`,
      );
    lines.push("");
  }
  return `${lines.join("\n")}\n`;
}

function caseRow(row: CaseSummary): string {
  const status =
    row.status === "passed" ? "✅ passed" : row.status === "failed" ? "❌ failed" : "⏸ incomplete";
  return `| ${cell(row.id)} | ${status}${row.flaky ? " (flaky)" : ""} | ${row.passedTrials}/${row.trialsRun} | ${percent(row.passAtK)} | ${percent(row.passHatK)} | $${row.costUsd.toFixed(4)} | ${row.meanLatencyMs} ms | ${row.meanTurns} |`;
}

/** Why a trial did not pass, in one line. */
export function trialReason(trial: CaseSummary["trialRecords"][number]): string {
  if (trial.error) return trial.error;
  const failed = trial.scores.filter((score) => !score.pass);
  return failed.map((score) => `${score.scorer}: ${score.reason}`).join("; ") || trial.status;
}

function percent(value: number): string {
  return `${Math.round(value * 100)}%`;
}

/** Text safe inside a Markdown table cell. */
function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\s+/g, " ").replace(/</g, "&lt;");
}
