/**
 * Ctrl-C while a query runs: the first press interrupts it (`agent.interrupt()`: the answer stops,
 * a running tool batch finishes first); the second aborts it through its AbortSignal (tools are
 * stopped too, a running `bash` process group is killed) and the command quits; a third quits at once.
 * @module
 */
import type { Agent } from "../agent/create-agent";

/** The controls whose query is running, so a termination signal can abort them all. */
const runningControls = new Set<InterruptControl>();
/** What must run before the process exits on a termination signal (closing the agent: its store). */
const exitCleanups = new Set<() => Promise<void>>();

/** Registers `cleanup` to run before a termination signal ends the process; returns its removal. */
export function beforeTerminationExit(cleanup: () => Promise<void>): () => void {
  exitCleanups.add(cleanup);
  return () => exitCleanups.delete(cleanup);
}

/** Runs the registered cleanups (their failures ignored: the process is exiting). */
export async function runExitCleanups(): Promise<void> {
  await Promise.allSettled([...exitCleanups].map((cleanup) => cleanup()));
}

/**
 * Aborts every running query of this process through its AbortSignal (SIGTERM, SIGHUP): running
 * tools are stopped, a `bash` command's process group is signalled. Resolves once every one of
 * them has ended (its last messages, and the session file's writes, are done).
 */
export function abortRunningQueries(reason: Error): Promise<void> {
  const ended = [...runningControls].map((control) => control.abort(reason));
  return Promise.all(ended).then(() => undefined);
}

/** What a Ctrl-C press did. */
export type InterruptAction = "idle" | "interrupt" | "abort" | "force";

/** Tracks the running query and the Ctrl-C presses made during it. */
export class InterruptControl {
  private readonly agent: Pick<Agent<unknown>, "interrupt">;
  private readonly notify: (text: string) => void;
  private controller: AbortController | undefined;
  private markEnded: () => void = () => {};
  private ended: Promise<void> = Promise.resolve();
  private presses = 0;
  /** For work that is not a query (`/compact`): the first Ctrl-C aborts its signal instead. */
  private interruptByAbort = false;
  /** A second Ctrl-C aborted a query: the command should quit. */
  aborted = false;

  /**
   * @param onFirstPress runs on the first Ctrl-C of a query, before the interrupt (the command
   *   line's MCP authorization ends a wait for the browser's redirect there)
   */
  constructor(
    agent: Pick<Agent<unknown>, "interrupt">,
    notify: (text: string) => void,
    private readonly onFirstPress: () => void = () => {},
  ) {
    this.agent = agent;
    this.notify = notify;
  }

  /**
   * A query starts: returns the signal to pass to it. With `interruptByAbort` (work that is not a
   * query, which `agent.interrupt()` cannot stop), the first Ctrl-C aborts that signal and the
   * command goes on; the second still aborts and quits.
   */
  begin(interruptByAbort = false): AbortSignal {
    this.interruptByAbort = interruptByAbort;
    this.controller = new AbortController();
    this.ended = new Promise((resolve) => {
      this.markEnded = resolve;
    });
    this.presses = 0;
    runningControls.add(this);
    return this.controller.signal;
  }

  /** The query is over. */
  end(): void {
    this.controller = undefined;
    runningControls.delete(this);
    this.markEnded();
  }

  /** Aborts the running query, if any, through its AbortSignal; resolves once it has ended. */
  abort(reason: Error): Promise<void> {
    if (!this.controller) return Promise.resolve();
    this.aborted = true;
    this.controller.abort(reason);
    return this.ended;
  }

  /** Whether a query is running. */
  get running(): boolean {
    return this.controller !== undefined;
  }

  /** Handles one Ctrl-C press. */
  press(): InterruptAction {
    if (!this.controller) return "idle";
    this.presses += 1;
    if (this.presses === 1) {
      this.onFirstPress();
      if (this.interruptByAbort) this.controller.abort(new Error("interrupted with Ctrl-C"));
      else this.agent.interrupt();
      this.notify("⏸ interrupting… (Ctrl-C again to abort and quit)");
      return "interrupt";
    }
    if (this.presses === 2) {
      this.aborted = true;
      this.controller.abort(new Error("aborted with Ctrl-C"));
      this.notify("✗ aborting…");
      return "abort";
    }
    return "force";
  }
}
