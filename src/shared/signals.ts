/**
 * Small cancellation primitives: linked controllers with explicit cleanup, abortable sleep, and
 * racing a promise against a signal (so a non-cooperative callee cannot stall the loop).
 * @module
 */

/**
 * The longest delay a Node timer keeps: 2^31 − 1 ms (about 24.8 days). `setTimeout` with more fires
 * at once, so every option fed to a timer is refused above it.
 */
export const MAX_TIMER_MS = 2_147_483_647;

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
 * The pending races of each signal, as their reject functions. A signal gets one real listener,
 * which rejects them all: the loop races every model call and tool call against the same query
 * signal, and adding and removing an EventTarget listener per call costs more than the rest of a
 * turn's bookkeeping. An array, not a Set: usually one race is pending, and a Set shrinks its
 * table on every removal.
 */
const pendingRaces = new WeakMap<AbortSignal, Array<(reason: unknown) => void>>();

function pendingRacesOf(signal: AbortSignal): Array<(reason: unknown) => void> {
  let races = pendingRaces.get(signal);
  if (races) return races;
  const created: Array<(reason: unknown) => void> = [];
  pendingRaces.set(signal, created);
  signal.addEventListener(
    "abort",
    () => {
      pendingRaces.delete(signal);
      for (const reject of created.splice(0)) reject(signal.reason);
    },
    { once: true },
  );
  races = created;
  return races;
}

function forgetRace(races: Array<(reason: unknown) => void>, reject: (reason: unknown) => void): void {
  // Usually the one race pending, the last: `pop` allocates nothing where `splice` makes an array.
  if (races[races.length - 1] === reject) races.pop();
  else {
    const index = races.lastIndexOf(reject);
    if (index !== -1) races.splice(index, 1);
  }
}

/**
 * Rejects with the signal's reason as soon as it aborts; otherwise settles like `work`. Work that
 * loses the race may still fail later: the handlers attached here keep that from being unhandled.
 */
export function raceWithSignal<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.catch(() => {}); // abandoned: a later failure is not an unhandled rejection
    return Promise.reject(signal.reason);
  }
  const races = pendingRacesOf(signal);
  return new Promise<T>((resolve, reject) => {
    races.push(reject);
    work.then(
      (value) => {
        forgetRace(races, reject);
        resolve(value);
      },
      (error) => {
        forgetRace(races, reject);
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

/** Whether `work` settles (either way) within `ms`. */
export function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const settled = work.then(
    () => true,
    () => true,
  );
  return Promise.race([settled, expired]).finally(() => clearTimeout(timer));
}
