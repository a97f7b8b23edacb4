/**
 * What `util.inspect` shows of a queue or a worker: its kind, queue name and key prefix — never the
 * connection (its URL or options may hold a password) nor the BullMQ object that keeps it.
 * @module
 */

const INSPECT = Symbol.for("nodejs.util.inspect.custom");

/** Gives `target` an `util.inspect` form of `label { name, prefix }`; returns it. */
export function withInspectSummary<T extends object>(
  target: T,
  label: string,
  name: string,
  prefix: string,
): T {
  Object.defineProperty(target, INSPECT, {
    value: () => `${label} { name: ${JSON.stringify(name)}, prefix: ${JSON.stringify(prefix)} }`,
    enumerable: false,
  });
  return target;
}
