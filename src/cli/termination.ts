/**
 * SIGTERM and SIGHUP (`kill`, a stopping container, a closed terminal): the running query is
 * aborted through its AbortSignal, the process groups of running `bash` commands are killed, and
 * the command exits with 128 + the signal's number, as shells report it (143, 129), as soon as the
 * aborted query has ended and the agent is closed — its last turn is then in the `--session` file,
 * every tool call with its result — or after {@link TERMINATION_GRACE_MS}, or at once on a second
 * signal. Without
 * this, Node's default action ends the process without its `exit` listeners, and a running `bash`
 * command — in a process group of its own — would outlive the command. A closed output (EPIPE, the
 * reader of a pipe went away) stops the command the same way, with {@link EXIT_OUTPUT_CLOSED}.
 * @module
 */
import { constants } from "node:os";
import { killTrackedProcessGroups } from "../shared/process-group";
import { EXIT_AGENT_ERROR, EXIT_OUTPUT_CLOSED } from "./exit-codes";
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
 * out, and a write error on one of `outputs` (stdout, stderr) stops the command too. The command's
 * own exit should use {@link TerminationHandlers.exitCode} when it is set.
 */
export function exitOnTerminationSignals(
  notify: (text: string) => void,
  flush: () => Promise<void> = () => Promise.resolve(),
  outputs: readonly NodeJS.WritableStream[] = [],
): TerminationHandlers {
  let exitCode: number | undefined;
  const stop = (code: number, reason: Error, notice?: string) => {
    exitCode = code;
    const queriesEnded = abortRunningQueries(reason);
    killTrackedProcessGroups();
    if (notice) notify(notice);
    const giveUp = setTimeout(() => process.exit(code), TERMINATION_GRACE_MS);
    void queriesEnded
      .then(runExitCleanups)
      .then(flush)
      .then(() => {
        clearTimeout(giveUp);
        process.exit(code);
      });
  };
  const onSignal = (signal: TerminationSignal) => {
    if (exitCode !== undefined) process.exit(exitCode);
    stop(
      terminationExitCode(signal),
      new Error(`terminated by ${signal}`),
      `agent-lattice: stopped by ${signal}`,
    );
  };
  // Node ignores SIGPIPE: a write to a pipe whose reader went away fails with EPIPE instead, an
  // unhandled stream error without this. It stops the command like SIGPIPE would, quietly; another
  // failure to write is said on stderr. Later errors (each further write fails too) change nothing.
  const onOutputError = (error: NodeJS.ErrnoException) => {
    if (exitCode !== undefined) return;
    if (error.code === "EPIPE") stop(EXIT_OUTPUT_CLOSED, new Error("the output was closed"));
    else stop(EXIT_AGENT_ERROR, error, `agent-lattice: cannot write the output: ${error.message}`);
  };
  for (const signal of TERMINATION_SIGNALS) process.on(signal, onSignal);
  for (const output of outputs) output.on("error", onOutputError);
  return {
    get exitCode() {
      return exitCode;
    },
    remove: () => {
      for (const signal of TERMINATION_SIGNALS) process.off(signal, onSignal);
      for (const output of outputs) output.off("error", onOutputError);
    },
  };
}
