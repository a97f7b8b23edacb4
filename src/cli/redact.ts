/**
 * Keeps secrets out of everything the command prints, streamed answer text included.
 * @module
 */
import { redact, secretsWorthRedacting, unsafeTailStart } from "../shared/redact";

/** Replaces each secret in a text with `[redacted]`. */
export interface Redactor {
  (text: string): string;
  /**
   * For text that arrives in pieces: where the tail that may still grow into a secret begins (the
   * text's length when there is none). Text before it can be redacted and written now; the tail
   * must wait for the next piece, or the secret could be written in two halves that neither match.
   */
  unsafeTailStart(text: string): number;
}

/**
 * A redactor for the given secrets (empty and short values are ignored: they would mangle text;
 * see `MIN_SECRET_LENGTH`). Credential-shaped strings go too, whatever the secrets.
 */
export function createRedactor(secrets: ReadonlyArray<string | undefined>): Redactor {
  const words = secretsWorthRedacting(secrets);
  const redactor = (text: string) => redact(text, words);
  redactor.unsafeTailStart = (text: string) => unsafeTailStart(text, words);
  return redactor;
}
