/**
 * The generator `query()` and `streamInput()` hand out. It delegates to the loop's generator and
 * adds two things an async generator cannot do on its own:
 *
 * - `return()` (what `break` calls) and `throw()` stop the work in flight *first*. A plain async
 *   generator queues them until its next `yield`, so a consumer that stops a query from another
 *   task (a server whose client disconnected) would wait for a running tool to finish by itself.
 * - It keeps the latest step, so `close()` can let the step the loop is executing finish its
 *   writes without waiting on a consumer that may never pull again.
 * @module
 */

/** A running query or stream, as the agent tracks it. */
export interface QueryHandle<M> extends AsyncGenerator<M, void> {
  /**
   * The latest step the loop was asked for: pending while the loop executes it, settled while the
   * loop waits for its consumer (awaiting it then costs nothing). Undefined before the first pull.
   */
  readonly latestStep: Promise<unknown> | undefined;
}

/**
 * Wraps `messages`; `stop` cancels the work in flight (it is called before `return()` and
 * `throw()` reach the generator, and must be idempotent).
 */
export function createQueryHandle<M>(messages: AsyncGenerator<M, unknown>, stop: () => void): QueryHandle<M> {
  let latestStep: Promise<IteratorResult<M, void>> | undefined;
  const handle: QueryHandle<M> = {
    get latestStep() {
      return latestStep;
    },
    next(...args: [] | [unknown]) {
      // The step itself, not a wrapper: no promise per message on top of the generator's own.
      latestStep = messages.next(...args) as Promise<IteratorResult<M, void>>;
      return latestStep;
    },
    return(value?: unknown) {
      stop();
      return messages.return(value) as Promise<IteratorResult<M, void>>;
    },
    throw(error?: unknown) {
      stop();
      return messages.throw(error) as Promise<IteratorResult<M, void>>;
    },
    [Symbol.asyncIterator]() {
      return handle;
    },
  };
  return handle;
}
