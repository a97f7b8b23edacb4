/**
 * How long a server connection waits, bounded: connecting within `connectTimeoutMs` (or until the
 * caller aborts), work raced against a signal, and a promise given a time limit to settle.
 * @module
 */
import { startDeadline } from "../../shared/deadline";

/** Connecting took longer than `connectTimeoutMs`. */
class ConnectTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(
      `No answer within connectTimeoutMs (${timeoutMs} ms) while starting, initializing and listing tools.`,
    );
    this.name = "ConnectTimeoutError";
  }
}

/** A running deadline of connecting; `cancel()` stops its timer and detaches it from the caller's signal. */
export interface ConnectDeadline {
  readonly signal: AbortSignal;
  cancel(): void;
}

/**
 * The deadline of connecting: `connectTimeoutMs`, or the caller's signal, whichever comes first. Its
 * signal aborts with a ConnectTimeoutError, or with the caller's reason.
 */
export function startConnectDeadline(timeoutMs: number, outer: AbortSignal | undefined): ConnectDeadline {
  const deadline = startDeadline(outer, timeoutMs, (ms) => new ConnectTimeoutError(ms));
  return { signal: deadline.signal, cancel: () => deadline.clear() };
}

/** Runs `work`, rejecting with the signal's reason as soon as it aborts, whatever `work` is doing. */
export async function untilAborted<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T> {
  signal.throwIfAborted();
  let onAbort!: () => void;
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([work(), aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

/** Waits for `promise` to settle (its failure ignored), or `timeoutMs`, whichever comes first. */
export async function settledWithin(promise: Promise<unknown>, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    promise.catch(() => {}),
    new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs))),
  ]);
  clearTimeout(timer);
}
