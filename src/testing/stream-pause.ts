/**
 * A hold in a scripted stream — the scripted client's and the mock server's `pauseAfterBlock`:
 * the stream stops after one block's `content_block_stop` for a time, or until a promise settles,
 * so a test sees what a consumer of the events does while the response is still streaming.
 * @module
 */

/** A hold in a scripted stream: after block `index` is complete. */
export interface StreamPause {
  /** The content block (0-based) after whose `content_block_stop` the stream holds. */
  index: number;
  /** Hold this long. */
  ms?: number;
  /** Hold until this settles. */
  until?: PromiseLike<unknown>;
}

/** Where a stream held after block `index` goes on: just after that block's `content_block_stop`. */
export function pausePosition(
  events: ReadonlyArray<{ type: string; index?: unknown }>,
  index: number,
): number {
  const stop = events.findIndex((event) => event.type === "content_block_stop" && event.index === index);
  return stop < 0 ? events.length : stop + 1;
}

/** Waits out a {@link StreamPause}: its time, its promise, or the signal, whichever comes first. */
export function holdStream(pause: StreamPause, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = pause.ms === undefined ? undefined : setTimeout(done, pause.ms);
    signal.addEventListener("abort", done, { once: true });
    if (pause.until) Promise.resolve(pause.until).then(done, done);
    function done() {
      if (timer) clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}
