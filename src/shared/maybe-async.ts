/**
 * Values that may or may not be promises. `isPromiseLike` tells whether a user callback's answer (a
 * validator's, a tool's) is still pending: only pending work needs racing with a signal, and a
 * synchronous answer must not be raced (it would cost a tick and let the signal win a race it lost).
 * @module
 */

/** Whether `value` is a thenable (a promise from any realm or library). */
export function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return (
    value !== null &&
    (typeof value === "object" || typeof value === "function") &&
    typeof (value as { then?: unknown }).then === "function"
  );
}
