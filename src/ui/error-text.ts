/**
 * The text a client sees for an error: useful (the error's name and message) and without secrets
 * (the given ones and credential-shaped strings are replaced).
 * @module
 */
import { redact } from "../shared/redact";

/** The longest error text sent to a client; longer texts are cut (an error is a sentence, not a dump). */
const MAX_ERROR_TEXT = 2_000;

/** A redacted, bounded description of a thrown value or an error: `Name: message`. */
export function errorText(error: unknown, secrets: readonly string[]): string {
  let text: string;
  if (error instanceof Error) {
    text = error.message ? `${error.name}: ${error.message}` : error.name;
  } else if (typeof error === "string") {
    text = error;
  } else {
    text = "Unknown error";
  }
  const clean = redact(text, secrets);
  return clean.length > MAX_ERROR_TEXT ? `${clean.slice(0, MAX_ERROR_TEXT)}…` : clean;
}
