/**
 * Small cancellation primitives: linked controllers with explicit cleanup, abortable sleep, and
 * racing a promise against a signal (so a non-cooperative callee cannot stall the loop).
 * @module
 */

/** A controller aborted when any parent signal aborts; `dispose()` detaches it from the parents. */
export interface LinkedController {
  readonly signal: AbortSignal;
  abort(reason?: unknown): void;
  dispose(): void;
}

/** Creates a controller that follows every given parent signal. */
export function linkSignals(...parents: Array<AbortSignal | undefined>): LinkedController {
  const controller = new AbortController();
  const detachers: Array<() => void> = [];
  for (const parent of parents) {
    if (!parent) continue;
    if (parent.aborted) {
      controller.abort(parent.reason);
      break;
    }
    const onAbort = () => controller.abort(parent.reason);
    parent.addEventListener("abort", onAbort, { once: true });
    detachers.push(() => parent.removeEventListener("abort", onAbort));
  }
  return {
    signal: controller.signal,
    abort: (reason) => controller.abort(reason),
    dispose: () => {
      for (const detach of detachers) detach();
      detachers.length = 0;
    },
  };
}

/**
 * Abort subscribers by signal. A signal gets one real listener, which fans out to a Set: the loop
 * races every model call and tool call against the same query signal, and adding and removing an
 * EventTarget listener per call costs more than the rest of a turn's bookkeeping.
 */
const subscribers = new WeakMap<AbortSignal, Set<() => void>>();

/** Calls `callback` once when `signal` aborts; returns an unsubscribe function. */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  let set = subscribers.get(signal);
  if (!set) {
    const created = new Set<() => void>();
    set = created;
    subscribers.set(signal, created);
    signal.addEventListener(
      "abort",
      () => {
        subscribers.delete(signal);
        for (const subscriber of created) subscriber();
      },
      { once: true },
    );
  }
  set.add(callback);
  const current = set;
  return () => {
    current.delete(callback);
  };
}

/** Rejects with the signal's reason as soon as it aborts; otherwise settles like `work`. */
export function raceWithSignal<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.catch(() => {}); // the abandoned call may still fail later; never an unhandled rejection
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const unsubscribe = onAbort(signal, () => {
      work.catch(() => {});
      reject(signal.reason);
    });
    work.then(
      (value) => {
        unsubscribe();
        resolve(value);
      },
      (error) => {
        unsubscribe();
        reject(error);
      },
    );
  });
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
