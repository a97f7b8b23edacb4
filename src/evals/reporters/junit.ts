/**
 * The JUnit XML reporter: one test suite per eval, one test case per case and trial (named
 * `<case id> #<trial>`), a failed trial as `<failure>` with its reasons, an errored one as
 * `<error>`, a trial not run as `<skipped>` — what CI systems read.
 * @module
 */
import type { EvalReport } from "../report";
import { trialReason } from "./markdown";

/** The report as JUnit XML. */
export function junitReport(report: EvalReport): string {
  const suites = report.evals.map((summary) => {
    const cases = summary.cases.flatMap((row) =>
      row.trialRecords.map((trial) => {
        const open = `    <testcase classname="${xml(summary.name)}" name="${xml(`${row.id} #${trial.trial}`)}" time="${(trial.latencyMs / 1000).toFixed(3)}"`;
        if (trial.status === "passed") return `${open}/>`;
        const tag =
          trial.status === "failed" ? "failure" : trial.status === "interrupted" ? "skipped" : "error";
        const detail = trial.scores
          .map((score) => `${score.pass ? "pass" : "FAIL"} ${score.scorer} (${score.score}): ${score.reason}`)
          .join("\n");
        return `${open}>\n      <${tag} message="${xml(trialReason(trial))}">${xml(detail)}</${tag}>\n    </testcase>`;
      }),
    );
    const skipped = summary.notRun.map(
      (item) =>
        `    <testcase classname="${xml(summary.name)}" name="${xml(`${item.caseId} #${item.trial}`)}">\n      <skipped message="${xml(`not run: ${item.reason}`)}"/>\n    </testcase>`,
    );
    const trials = summary.cases.flatMap((row) => row.trialRecords);
    const count = (status: string) => trials.filter((trial) => trial.status === status).length;
    return [
      `  <testsuite name="${xml(summary.name)}" tests="${trials.length + summary.notRun.length}" failures="${count("failed")}" errors="${count("error")}" skipped="${count("interrupted") + summary.notRun.length}">`,
      ...cases,
      ...skipped,
      "  </testsuite>",
    ].join("\n");
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="agent-lattice eval">\n${suites.join("\n")}\n</testsuites>\n`;
}

function xml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD]/g, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}
