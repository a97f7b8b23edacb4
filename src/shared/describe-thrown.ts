/**
 * Describing a thrown value for an error message, without ever throwing: tools, hooks and
 * validators may throw anything — a string, `undefined`, an object without a prototype (no
 * `toString`), an Error whose `message` getter throws, a revoked proxy (on which even
 * `instanceof` throws).
 * @module
 */

/** The error's name and message (the name left out when it is plain `Error`), or the value as text. */
export function describeThrown(error: unknown): string {
  try {
    if (error instanceof Error) {
      const { name, message } = error;
      return name && name !== "Error" ? `${name}: ${message}` : `${message}`;
    }
    return String(error);
  } catch {
    return undescribable(error);
  }
}

/** The error's message, or the value as text. */
export function messageOfThrown(error: unknown): string {
  try {
    return error instanceof Error ? `${error.message}` : String(error);
  } catch {
    return undescribable(error);
  }
}

/** The error's name, when the value is an Error with a readable one. */
export function nameOfThrown(error: unknown): string | undefined {
  try {
    return error instanceof Error && typeof error.name === "string" && error.name ? error.name : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `String(value)`, or — when even that throws, as it does for an object without a prototype or one
 * whose `toString` throws — its `[object …]` tag. For foreign data in error messages, where a
 * second throw would replace the failure being reported.
 */
export function textOf(value: unknown): string {
  try {
    return String(value);
  } catch {
    return undescribable(value);
  }
}

function undescribable(error: unknown): string {
  try {
    return `${Object.prototype.toString.call(error)} (its description threw)`;
  } catch {
    return "a value that cannot be described";
  }
}
