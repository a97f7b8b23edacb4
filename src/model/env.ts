/**
 * Reading the environment where there may be none: worker and edge runtimes have no `process`, or
 * a `process.env` that is empty.
 * @module
 */

/** The variable's value, or `undefined` when it is unset, empty, or there is no environment. */
export function readEnv(name: string): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const value = env?.[name];
  return value ? value : undefined;
}
