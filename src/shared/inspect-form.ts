/**
 * What `util.inspect` (and `console.log`) shows of a public object that holds a credential: a form
 * of our choosing, set as a non-enumerable symbol (no `node:util` import, so edge runtimes load it).
 * @module
 */
import { REDACTED, urlSecretsOf } from "./redact";

const INSPECT = Symbol.for("nodejs.util.inspect.custom");

/** Makes `util.inspect(target)` return `shown()`; returns `target`. */
export function withInspectForm<T extends object>(target: T, shown: () => string): T {
  Object.defineProperty(target, INSPECT, { value: shown, enumerable: false });
  return target;
}

/** `url` with its user, password and query values replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  let shown = url;
  // Longest first: a value that holds another is replaced whole.
  for (const secret of urlSecretsOf(url).sort((left, right) => right.length - left.length)) {
    if (secret !== "") shown = shown.split(secret).join(REDACTED);
  }
  return shown;
}
