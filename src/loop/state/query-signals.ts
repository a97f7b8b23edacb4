/**
 * The cancellation of one query: the caller's signal, `interrupt()`, and a consumer that stops
 * early, combined into the signals model requests and tool calls follow.
 * @module
 */
import { type LinkedController, linkSignals } from "../../shared/signals";

const NEVER_ABORTED = new AbortController().signal;

/** The abort reason used for interrupts. */
export class InterruptReason extends Error {
  constructor() {
    super("The query was interrupted.");
    this.name = "InterruptReason";
  }
}

/** The signals of one query. Linked lazily: a query never run leaves no listener on the caller's signal. */
export class QuerySignals {
  /** The caller's signal: aborts the whole query, tools included. */
  readonly user: AbortSignal;
  private interruptRequested = false;
  private modelLink: LinkedController | undefined;
  private toolLink: LinkedController | undefined;
  /** Whether {@link model} / {@link tools} aborted: kept by a listener, read where a turn checks them. */
  private modelCancelled = false;
  private toolsCancelled = false;
  private readonly callerSignal: AbortSignal | undefined;
  private disposed = false;
  private readonly interruptController = new AbortController();
  private readonly stopController = new AbortController();

  constructor(signal: AbortSignal | undefined) {
    this.user = signal ?? NEVER_ABORTED;
    // Without a caller's signal there is nothing to follow: linking to one shared never-aborting
    // signal would put a listener per running query on it (100 concurrent queries, 100 listeners).
    this.callerSignal = signal;
  }

  /** The caller's signal to follow; none once disposed (a late use must not leave a listener). */
  private get followed(): AbortSignal | undefined {
    return this.disposed ? undefined : this.callerSignal;
  }

  /** Whether the caller's signal aborted (none given: never, without reading a signal). */
  get aborted(): boolean {
    return this.callerSignal?.aborted === true;
  }

  /** Whether `interrupt()` was called. */
  get interrupted(): boolean {
    return this.interruptRequested;
  }

  /** Aborted by `interrupt()` only (a subagent's child is interrupted with its parent). */
  get interruption(): AbortSignal {
    return this.interruptController.signal;
  }

  /** Cancels model requests, retry waits and hooks: aborted by the caller, an interrupt, or the consumer. */
  get model(): AbortSignal {
    if (!this.modelLink) {
      this.modelLink = linkSignals(
        this.followed,
        this.interruptController.signal,
        this.stopController.signal,
      );
      this.modelCancelled = watchAbort(this.modelLink.signal, () => {
        this.modelCancelled = true;
      });
    }
    return this.modelLink.signal;
  }

  /**
   * `model.aborted`, from a flag its one listener keeps: read on every attempt, where an
   * `AbortSignal`'s own getter costs a few hundred instructions a read.
   */
  get modelAborted(): boolean {
    return this.model && this.modelCancelled;
  }

  /** Passed to tools: aborted by the caller's signal, or when the consumer stops the query early. */
  get tools(): AbortSignal {
    if (!this.toolLink) {
      this.toolLink = linkSignals(this.followed, this.stopController.signal);
      this.toolsCancelled = watchAbort(this.toolLink.signal, () => {
        this.toolsCancelled = true;
      });
    }
    return this.toolLink.signal;
  }

  /** `tools.aborted`, from a flag (see {@link modelAborted}): read before every tool call. */
  get toolsAborted(): boolean {
    return this.tools && this.toolsCancelled;
  }

  /** Ends the query with `interrupted`; a running tool batch finishes first. */
  interrupt(): void {
    if (this.interruptRequested) return;
    this.interruptRequested = true;
    this.interruptController.abort(new InterruptReason());
  }

  /** The consumer left the query early (e.g. `break` out of `query()`): stop all work in flight. */
  cancel(): void {
    if (!this.stopController.signal.aborted)
      this.stopController.abort(new Error("The query was stopped by its consumer."));
  }

  /** Detaches from the caller's signal. */
  dispose(): void {
    this.disposed = true;
    this.modelLink?.dispose();
    this.toolLink?.dispose();
  }
}

/** Whether `signal` aborted already; if not, `onAbort` runs when it does. */
function watchAbort(signal: AbortSignal, onAbort: () => void): boolean {
  if (signal.aborted) return true;
  signal.addEventListener("abort", onAbort, { once: true });
  return false;
}
