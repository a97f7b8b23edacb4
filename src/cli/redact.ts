/**
 * Keeps secrets out of everything the command prints.
 * @module
 */

/** Replaces each secret in a text with `[redacted]`. */
export type Redactor = (text: string) => string;

/** Placeholder written where a secret was. */
export const REDACTED = "[redacted]";

/** A redactor for the given secrets (empty and very short values are ignored: they would mangle text). */
export function createRedactor(secrets: ReadonlyArray<string | undefined>): Redactor {
  const words = secrets.filter(
    (secret): secret is string => typeof secret === "string" && secret.length >= 8,
  );
  if (words.length === 0) return (text) => text;
  return (text) => {
    let clean = text;
    for (const word of words) clean = clean.split(word).join(REDACTED);
    return clean;
  };
}
