/**
 * The mutable state of one query: counters, the cost ledger, denials, and its cancellation.
 * @module
 */

import type { RequestBase } from "../agent/agent-core";
import type { ModelPricing } from "../cost/pricing";
import { CostLedger } from "../cost/usage";
import type { PermissionDenial } from "../messages/sdk-messages";
import type { StopReason } from "../messages/types";
import { type LinkedController, linkSignals } from "../shared/signals";
import { NOOP_SPAN, type SpanHandle } from "../telemetry/telemetry";
import { LiveMessages } from "./live-messages";
import type { ModelCallSettings } from "./model-call";

const NEVER_ABORTED = new AbortController().signal;

/** One running query. Created by the agent, consumed by the loop. */
export class QueryRun {
  readonly startedAt: number;
  readonly ledger: CostLedger;
  readonly denials: PermissionDenial[] = [];
  /** Model requests made (retries of one request count once). */
  turns = 0;
  stopReason: StopReason | null = null;
  /** Text of the latest assistant response (continuations joined). */
  resultText = "";
  /**
   * The result text of a query that ends without success: the latest text it produced — of the
   * latest response that had text, or of a response cut off while streaming — never blank when
   * some response of this query had text.
   */
  partialText = "";
  /** Text-only max_tokens continuations made so far. */
  continuations = 0;
  /** Whether overflow recovery already ran in this query. */
  overflowRecoveryUsed = false;
  /** The next response continues a text cut at max_tokens: join its text to the result. */
  joinNextText = false;
  interrupted = false;
  /** Deadline of each model request in this query (the per-query override or the agent default). */
  readonly requestTimeoutMs: number | undefined;
  /**
   * Messages collected by phases that do not need live delivery (pricing notices, tool-phase
   * notices), yielded right after the phase. One array and one callback per query, not per turn.
   */
  readonly notices: unknown[] = [];
  readonly collect = (message: unknown): void => {
    this.notices.push(message);
  };
  /** Messages phases emit for live delivery (see live-messages.ts). */
  readonly live = new LiveMessages<unknown>();
  /** The tool runtime, built on the first tool phase (see tool-phase.ts). */
  toolRuntime: unknown;
  /** The main request's fields and settings, refreshed each turn (see run-query.ts). */
  requestBase: RequestBase | undefined;
  mainCallSettings: ModelCallSettings | undefined;
  /**
   * What `close()` waits for before it releases the store: the work this query is executing now
   * (set by the agent; a settled promise while the query waits for its consumer).
   */
  inFlight: (() => Promise<unknown> | undefined) | undefined;
  /** The `invoke_agent` span of this query (a no-op without telemetry). */
  span: SpanHandle = NOOP_SPAN;
  /** The caller's signal: aborts the whole query, tools included. */
  readonly userSignal: AbortSignal;
  /**
   * Aborted by the caller's signal or by `interrupt()`: cancels model requests. Linked to the
   * caller's signal on first use, so a query refused by the guard or never iterated leaves no
   * listener on it.
   */
  private modelLink: LinkedController | undefined;
  private toolLink: LinkedController | undefined;
  private readonly callerSignal: AbortSignal | undefined;
  private disposed = false;
  private readonly interruptController = new AbortController();
  private readonly stopController = new AbortController();

  constructor(options: {
    signal?: AbortSignal;
    requestTimeoutMs: number | undefined;
    now: () => number;
    pricing: Readonly<Record<string, ModelPricing>>;
  }) {
    this.startedAt = options.now();
    this.requestTimeoutMs = options.requestTimeoutMs;
    this.ledger = new CostLedger(options.pricing);
    this.userSignal = options.signal ?? NEVER_ABORTED;
    // Without a caller's signal there is nothing to follow: linking to one shared never-aborting
    // signal would put a listener per running query on it (100 concurrent queries, 100 listeners).
    this.callerSignal = options.signal;
  }

  /** The caller's signal to follow; none once disposed (a late use must not leave a listener). */
  private get followed(): AbortSignal | undefined {
    return this.disposed ? undefined : this.callerSignal;
  }

  /** Passed to tools: aborted by the caller's signal, or when the consumer stops the query early. */
  get toolSignal(): AbortSignal {
    this.toolLink ??= linkSignals(this.followed, this.stopController.signal);
    return this.toolLink.signal;
  }

  /** The consumer left the query early (e.g. `break` out of `query()`): stop all work in flight. */
  cancel(): void {
    if (!this.stopController.signal.aborted)
      this.stopController.abort(new Error("The query was stopped by its consumer."));
  }

  /** Cancels model requests and retry waits; a running tool batch finishes first. */
  get modelSignal(): AbortSignal {
    this.modelLink ??= linkSignals(
      this.followed,
      this.interruptController.signal,
      this.stopController.signal,
    );
    return this.modelLink.signal;
  }

  get aborted(): boolean {
    return this.userSignal.aborted;
  }

  interrupt(): void {
    if (this.interrupted) return;
    this.interrupted = true;
    this.interruptController.abort(new InterruptReason());
  }

  dispose(): void {
    this.disposed = true;
    this.modelLink?.dispose();
    this.toolLink?.dispose();
  }
}

/** The abort reason used for interrupts. */
export class InterruptReason extends Error {
  constructor() {
    super("The query was interrupted.");
    this.name = "InterruptReason";
  }
}
