/**
 * Helpers for code on the loop's hot path that is asynchronous only sometimes: a synchronous tool,
 * validator or hook-free step returns its value directly, and awaiting it anyway would cost a
 * promise and a microtask per step (the "promise or value" style of graphql-js's executor).
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
