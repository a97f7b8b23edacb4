/**
 * SIGTERM and SIGHUP (`kill`, a stopping container, a closed terminal): the running query is
 * aborted through its AbortSignal, the process groups of running `bash` commands are killed, and
 * the command exits at once with 128 + the signal's number, as shells report it (143, 129). Without
 * this, Node's default action ends the process without its `exit` listeners, and a running `bash`
 * command — in a process group of its own — would outlive the command.
 * @module
 */
import { constants } from "node:os";
import { killTrackedProcessGroups } from "../workspace-tools/process-group";
import { abortRunningQueries } from "./interrupt-control";

/** The signals that end the command this way. SIGINT (Ctrl-C) interrupts first; see interrupt-control.ts. */
export const TERMINATION_SIGNALS = ["SIGTERM", "SIGHUP"] as const;

/** A termination signal. */
export type TerminationSignal = (typeof TERMINATION_SIGNALS)[number];

/** 128 + the signal's number: 143 for SIGTERM, 129 for SIGHUP. */
export function terminationExitCode(signal: TerminationSignal): number {
  return 128 + constants.signals[signal];
}

/**
 * Installs the handlers; `notify` writes one status line. Returns the function that removes them.
 */
export function exitOnTerminationSignals(notify: (text: string) => void): () => void {
  const onSignal = (signal: TerminationSignal) => {
    abortRunningQueries(new Error(`terminated by ${signal}`));
    killTrackedProcessGroups();
    notify(`agent-lattice: stopped by ${signal}`);
    process.exit(terminationExitCode(signal));
  };
  for (const signal of TERMINATION_SIGNALS) process.on(signal, onSignal);
  return () => {
    for (const signal of TERMINATION_SIGNALS) process.off(signal, onSignal);
  };
}
