/**
 * A word quoted for a POSIX shell, so that a printed command can be pasted as it is.
 * @module
 */

/** `word` as the shell reads it back: bare when it is plain, else in single quotes. */
export function shellWord(word: string): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
