/**
 * Helpers for values that may or may not be promises. `isPromiseLike` tells whether a callee's
 * answer (a validator's, a tool's) is still pending — only pending work needs racing with a signal;
 * `invoke` starts work now and always hands back a promise. `PromiseOrValue` types the steps of the
 * loop that still return a value directly when they did nothing asynchronous.
 * @module
 */

/** A value, or a promise of it. */
export type PromiseOrValue<T> = T | Promise<T>;

/** Whether `value` is a thenable (a promise from any realm or library). */
export function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return (
    value !== null &&
    (typeof value === "object" || typeof value === "function") &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/**
 * Calls `work` now and returns its promise; a synchronous throw becomes a rejection. Cheaper than
 * `Promise.resolve().then(work)`, which defers the start by a tick and allocates twice.
 */
export function invoke<T>(work: () => T | PromiseLike<T>): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error);
  }
}
