/**
 * Joining messages into prose.
 * @module
 */

/** `text` ending with a full stop (or the `?`/`!` it already ends with), to put another sentence after it. */
export function asSentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
