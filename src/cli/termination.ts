/**
 * SIGTERM and SIGHUP (`kill`, a stopping container, a closed terminal): the running query is
 * aborted through its AbortSignal, the process groups of running `bash` commands are killed, and
 * the command exits with 128 + the signal's number, as shells report it (143, 129), as soon as the
 * aborted query has ended and the agent is closed — its last turn is then in the `--session` file,
 * every tool call with its result — or after {@link TERMINATION_GRACE_MS}, or at once on a second
 * signal. Without
 * this, Node's default action ends the process without its `exit` listeners, and a running `bash`
 * command — in a process group of its own — would outlive the command.
 * @module
 */
import { constants } from "node:os";
import { killTrackedProcessGroups } from "../workspace-tools/process-group";
import { abortRunningQueries, runExitCleanups } from "./interrupt-control";

/** The signals that end the command this way. SIGINT (Ctrl-C) interrupts first; see interrupt-control.ts. */
export const TERMINATION_SIGNALS = ["SIGTERM", "SIGHUP"] as const;

/** A termination signal. */
export type TerminationSignal = (typeof TERMINATION_SIGNALS)[number];

/** 128 + the signal's number: 143 for SIGTERM, 129 for SIGHUP. */
export function terminationExitCode(signal: TerminationSignal): number {
  return 128 + constants.signals[signal];
}

/** How long an aborted query may take to end (and save its last turn) before the command exits anyway. */
export const TERMINATION_GRACE_MS = 3_000;

/** The installed handlers. */
export interface TerminationHandlers {
  /** The exit code owed to a termination signal received, or `undefined` when none came. */
  readonly exitCode: number | undefined;
  /** Removes the handlers. */
  remove(): void;
}

/**
 * Installs the handlers; `notify` writes one status line, `flush` waits until what was written is
 * out. The command's own exit should use {@link TerminationHandlers.exitCode} when it is set.
 */
export function exitOnTerminationSignals(
  notify: (text: string) => void,
  flush: () => Promise<void> = () => Promise.resolve(),
): TerminationHandlers {
  let exitCode: number | undefined;
  const onSignal = (signal: TerminationSignal) => {
    if (exitCode !== undefined) process.exit(exitCode);
    exitCode = terminationExitCode(signal);
    const code = exitCode;
    const queriesEnded = abortRunningQueries(new Error(`terminated by ${signal}`));
    killTrackedProcessGroups();
    notify(`agent-lattice: stopped by ${signal}`);
    const giveUp = setTimeout(() => process.exit(code), TERMINATION_GRACE_MS);
    void queriesEnded
      .then(runExitCleanups)
      .then(flush)
      .then(() => {
        clearTimeout(giveUp);
        process.exit(code);
      });
  };
  for (const signal of TERMINATION_SIGNALS) process.on(signal, onSignal);
  return {
    get exitCode() {
      return exitCode;
    },
    remove: () => {
      for (const signal of TERMINATION_SIGNALS) process.off(signal, onSignal);
    },
  };
}
