/**
 * What a job stores and streams must survive JSON: Redis holds text, and the listener may be
 * another process. Errors become `{ name, message }` — never their stack, `cause` or other fields,
 * which may hold what the agent's own redaction never saw.
 * @module
 */

/** An error as a job carries it. */
export interface SerializedError {
  name: string;
  message: string;
}

/** `T` as it reads after a JSON round trip through a job: errors as {@link SerializedError}. */
export type Serialized<T> = T extends Error
  ? SerializedError
  : T extends (...args: never[]) => unknown
    ? never
    : T extends object
      ? { [K in keyof T]: Serialized<T[K]> }
      : T;

/** `value` as JSON text, errors reduced to `{ name, message }`. */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item instanceof Error ? { name: item.name, message: item.message } : item,
  );
}

/** `value` after a JSON round trip (see {@link toJsonText}). */
export function toJsonSafe<T>(value: T): Serialized<T> {
  return JSON.parse(toJsonText(value)) as Serialized<T>;
}
