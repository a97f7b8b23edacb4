/**
 * Keeps secrets out of everything the command prints, streamed answer text included.
 * @module
 */
import {
  CREDENTIAL_STARTS,
  GROWING_CREDENTIAL_SHAPES,
  redact,
  secretsWorthRedacting,
} from "../shared/redact";

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

function unsafeTailStart(text: string, secrets: readonly string[]): number {
  let start = text.length;
  for (const secret of secrets) {
    start = Math.min(start, partialSuffixStart(text, secret, false));
    // A whole occurrence reaching over the cut is held with it, so it is redacted in one piece.
    for (
      let index = text.indexOf(secret);
      index !== -1 && index < start;
      index = text.indexOf(secret, index + 1)
    ) {
      if (index + secret.length > start) start = index;
    }
  }
  for (const credentialStart of CREDENTIAL_STARTS) {
    start = Math.min(start, partialSuffixStart(text, credentialStart, true));
  }
  for (const pattern of GROWING_CREDENTIAL_SHAPES) {
    const match = pattern.exec(text);
    if (match) start = Math.min(start, match.index);
  }
  return start;
}

/** Start of the longest suffix of `text` that is a proper prefix of `word`; `text.length` if none. */
function partialSuffixStart(text: string, word: string, ignoreCase: boolean): number {
  const haystack = ignoreCase ? text.toLowerCase() : text;
  for (let length = Math.min(word.length - 1, text.length); length > 0; length--) {
    if (haystack.endsWith(word.slice(0, length))) return text.length - length;
  }
  return text.length;
}
