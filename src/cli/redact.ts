/**
 * Keeps secrets out of everything the command prints.
 * @module
 */

/** Replaces each secret in a text with `[redacted]`. */
export type Redactor = (text: string) => string;

import { REDACTED, redact } from "../model/redact";

/** Placeholder written where a secret was. */
export { REDACTED };

/** A redactor for the given secrets (empty and very short values are ignored: they would mangle text). */
export function createRedactor(secrets: ReadonlyArray<string | undefined>): Redactor {
  const words = secrets.filter(
    (secret): secret is string => typeof secret === "string" && secret.length >= 8,
  );
  return (text) => redact(text, words); // credential-shaped strings (sk-ant-…, Bearer …) go too
}
