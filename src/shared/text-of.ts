/**
 * Text of values of unknown type, for error messages: never throws.
 * @module
 */

/**
 * `String(value)`, or — when even that throws, as it does for an object without a prototype or one
 * whose `toString` throws — its `[object …]` tag. For describing thrown values and other foreign
 * data in error messages, where a second throw would replace the failure being reported.
 */
export function textOf(value: unknown): string {
  try {
    return String(value);
  } catch {
    try {
      return Object.prototype.toString.call(value);
    } catch {
      return "[a value that cannot be shown as text]";
    }
  }
}

/** An error's message, or the text of any other thrown value. Never throws. */
export function messageOfThrown(error: unknown): string {
  try {
    if (error instanceof Error) return String(error.message);
  } catch {
    // a throwing `message` getter: fall back to the value's text
  }
  return textOf(error);
}
