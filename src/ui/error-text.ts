/**
 * The text a client sees for an error: useful (the error's name and message) and without secrets
 * (the given ones and credential-shaped strings are replaced).
 * @module
 */

/** What replaces a secret in an error text. */
const REDACTED = "[redacted]";

/** Credentials removed whatever the configured secrets are: Anthropic keys and Bearer tokens. */
const CREDENTIALS = [/sk-ant-[A-Za-z0-9_-]+/g, /(Bearer\s+)[A-Za-z0-9._~+/-]{8,}=*/gi];

/** The longest error text sent to a client; longer texts are cut (an error is a sentence, not a dump). */
const MAX_ERROR_TEXT = 2_000;

/** Replaces each of `secrets` (8 characters or more) and each credential-shaped string in `text`. */
export function redactText(text: string, secrets: readonly string[]): string {
  let clean = text;
  for (const secret of secrets) {
    if (secret.length >= 8 && clean.includes(secret)) clean = clean.split(secret).join(REDACTED);
  }
  for (const pattern of CREDENTIALS) {
    clean = clean.replace(pattern, (match, prefix?: string) =>
      typeof prefix === "string" && prefix.length < match.length ? `${prefix}${REDACTED}` : REDACTED,
    );
  }
  return clean;
}

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
  const clean = redactText(text, secrets);
  return clean.length > MAX_ERROR_TEXT ? `${clean.slice(0, MAX_ERROR_TEXT)}…` : clean;
}
