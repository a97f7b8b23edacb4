/**
 * `agent-lattice eval` under Ctrl-C / SIGTERM: the first stops starting trials and interrupts the
 * running ones (the partial report is still written, atomically); a second exits at once (130),
 * leaving no half-written file since every file is written whole or not at all.
 * @module
 */
import { runEvalCommand } from "./eval-command";
import { EXIT_ABORTED } from "./exit-codes";
import type { CliIo } from "./io";

/** Runs the eval command with the process's termination signals wired to its abort signal. */
export async function runEvalWithSignals(argv: readonly string[], io: CliIo): Promise<number> {
  const stop = new AbortController();
  const onSignal = () => {
    if (stop.signal.aborted) process.exit(EXIT_ABORTED);
    io.stderr.write("\nagent-lattice eval: stopping (finishing the report; Ctrl-C again to quit now)…\n");
    stop.abort(new Error("interrupted by a signal"));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    return await runEvalCommand(argv, io, stop.signal);
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}
