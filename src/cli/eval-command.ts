/**
 * `agent-lattice eval`: runs the evals of the given files, shows progress, writes the reports
 * (atomically) and the results store under `--out`, compares with `--baseline`, and exits 0 / 1 / 2.
 * Ctrl-C (the signal) stops starting trials and interrupts the running ones; the partial report is
 * written all the same.
 * @module
 */
import { randomUUID } from "node:crypto";
import { join, resolve } from "node:path";
import { writeFileAtomic } from "../evals/atomic-write";
import { compareReports, readReport, withComparison } from "../evals/baseline";
import { EvalInputError } from "../evals/eval-input-error";
import { buildReport, type EvalReport, type EvalSummary } from "../evals/report";
import { junitReport } from "../evals/reporters/junit";
import { markdownReport } from "../evals/reporters/markdown";
import { createProgress, terminalReport } from "../evals/reporters/terminal";
import { type EvalResultsStore, openEvalResults } from "../evals/results-store";
import { runDefinition } from "../evals/run-eval";
import { EVAL_USAGE, type EvalArguments, parseEvalArguments } from "./eval-arguments";
import { findEvalFiles, type LoadedEval, loadEvalFiles } from "./eval-files";
import { EXIT_AGENT_ERROR, EXIT_SUCCESS, EXIT_USAGE_ERROR } from "./exit-codes";
import type { CliIo } from "./io";

/** Runs `agent-lattice eval <argv>`; resolves with the exit code. */
export async function runEvalCommand(
  argv: readonly string[],
  io: CliIo,
  signal: AbortSignal,
): Promise<number> {
  let parsed: EvalArguments;
  try {
    parsed = parseEvalArguments(argv);
  } catch (error) {
    io.stderr.write(`agent-lattice eval: ${(error as Error).message}\n`);
    return EXIT_USAGE_ERROR;
  }
  if (parsed.help) {
    io.stdout.write(EVAL_USAGE);
    return EXIT_SUCCESS;
  }
  try {
    const evals = await loadEvalFiles(await findEvalFiles(parsed.paths, io.cwd));
    const baseline = parsed.baseline ? await readReport(resolve(io.cwd, parsed.baseline)) : undefined;
    let report = await runAll(evals, parsed, io, signal);
    if (baseline) report = withComparison(report, compareReports(baseline, report, parsed.baseline!));
    await writeReports(report, parsed, io);
    if (!report.complete && signal.aborted)
      io.stderr.write("agent-lattice eval: interrupted; the partial report is written.\n");
    return report.passed ? EXIT_SUCCESS : EXIT_AGENT_ERROR;
  } catch (error) {
    if (error instanceof EvalInputError) {
      io.stderr.write(`agent-lattice eval: ${error.message}\n`);
      return EXIT_USAGE_ERROR;
    }
    throw error;
  }
}

async function runAll(
  evals: LoadedEval[],
  parsed: EvalArguments,
  io: CliIo,
  signal: AbortSignal,
): Promise<EvalReport> {
  const runId = randomUUID();
  const startedAt = new Date().toISOString();
  const out = resolve(io.cwd, parsed.out);
  const results: EvalResultsStore | undefined = parsed.store
    ? await openEvalResults(join(out, "results.db"))
    : undefined;
  const progress = parsed.reporters.includes("terminal") ? createProgress(io.stderr) : undefined;
  const summaries: EvalSummary[] = [];
  let complete = true;
  try {
    for (const { definition, baseDir } of evals) {
      if (signal.aborted) break;
      const { summary, complete: whole } = await runDefinition(definition, {
        mode: parsed.mode,
        baseDir,
        runId,
        signal,
        ...(parsed.trials !== undefined && { trials: parsed.trials }),
        ...(parsed.filter !== undefined && { filter: parsed.filter }),
        ...(results && { historyStore: (context) => results.historyStore(context) }),
        onTrial: (record, { done, total, evalName }) => {
          results?.recordTrial(runId, evalName, record);
          progress?.update(done, total, `${evalName} / ${record.caseId} #${record.trial} ${record.status}`);
        },
      });
      summaries.push(summary);
      complete &&= whole;
    }
    complete &&= summaries.length === evals.length;
    const report = buildReport({ runId, mode: parsed.mode, startedAt, evals: summaries, complete });
    results?.recordRun(report);
    return report;
  } finally {
    progress?.end();
    results?.close();
  }
}

async function writeReports(report: EvalReport, parsed: EvalArguments, io: CliIo): Promise<void> {
  const out = resolve(io.cwd, parsed.out);
  const writes: Array<Promise<void>> = [];
  if (parsed.reporters.includes("json"))
    writes.push(writeFileAtomic(join(out, "report.json"), `${JSON.stringify(report, null, 2)}\n`));
  if (parsed.reporters.includes("md"))
    writes.push(writeFileAtomic(join(out, "report.md"), markdownReport(report)));
  if (parsed.reporters.includes("junit"))
    writes.push(writeFileAtomic(join(out, "junit.xml"), junitReport(report)));
  await Promise.all(writes);
  if (parsed.reporters.includes("terminal")) io.stdout.write(terminalReport(report));
}
