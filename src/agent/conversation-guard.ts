/**
 * The conversation guard: one query at a time on an Agent, and nothing after `close()`.
 * @module
 */
import { ConcurrentQueryError, InvalidOptionError } from "../errors";
import type { QueryState } from "../loop/state/query-state";

/** A query the agent runs: its state, and what `close()` waits for. */
export interface AgentQuery {
  readonly state: QueryState;
  /**
   * The work this query is executing now (a settled promise while it waits for its consumer):
   * `close()` lets it finish before it releases the store.
   */
  inFlight: (() => Promise<unknown> | undefined) | undefined;
}

/** Who holds the conversation, and whether the agent was closed. */
export class ConversationGuard {
  private holder: AgentQuery | undefined;
  private shut = false;
  private closingController: AbortController | undefined;

  /**
   * Aborted by `close()`: a stream waiting for its next input stops waiting. Made when first asked
   * for (by a stream): an agent that never streams creates no controller and aborts none.
   */
  get closing(): AbortSignal {
    if (this.closingController === undefined) {
      this.closingController = new AbortController();
      if (this.shut) this.closingController.abort();
    }
    return this.closingController.signal;
  }

  /** The query holding the conversation (inside a stream: the cycle running now). */
  get running(): AgentQuery | undefined {
    return this.holder;
  }

  get closed(): boolean {
    return this.shut;
  }

  /** Takes the conversation for `query`, or throws when the agent is closed or another query holds it. */
  take(query: AgentQuery): void {
    if (this.shut) throw closedError();
    if (this.holder) throw new ConcurrentQueryError();
    this.holder = query;
  }

  /** Inside a stream, whose guard spans its cycles: `query` is the one `interrupt()` reaches now. */
  handTo(query: AgentQuery): void {
    this.holder = query;
  }

  /** Frees the conversation, if `query` holds it, and detaches the query from the caller's signal. */
  release(query: AgentQuery): void {
    query.state.signals.dispose();
    if (this.holder === query) this.holder = undefined;
  }

  /** Refuses a change of history while a query runs or after `close()` (the store is being released). */
  assertIdle(method = "replaceHistory()"): void {
    if (this.shut) throw closedError();
    if (this.holder)
      throw new ConcurrentQueryError(`${method} is idle-only: a query is running on this Agent.`);
  }

  /** No query starts from now on; a stream waiting for input stops waiting. */
  close(): void {
    this.shut = true;
    this.closingController?.abort();
  }
}

function closedError(): InvalidOptionError {
  return new InvalidOptionError("This Agent was closed; create a new one.");
}
