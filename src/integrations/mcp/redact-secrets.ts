/**
 * Keeps configured secrets (environment values of stdio servers, HTTP header values, the user name,
 * password and query values of a server URL) out of the error messages we report about MCP servers.
 * @module
 */
import { REDACTED, redact, secretsWorthRedacting, urlSecretsOf } from "../../shared/redact";
import type { McpServerConfig } from "./config";

/**
 * Returns a function that replaces every configured secret value in a text with `[redacted]`, and
 * every secret `learned()` returns at that moment (OAuth tokens obtained while connected). Short
 * values (`1`, `true`, `/usr`) are too common to redact: the one minimum length applies.
 */
export function secretRedactor(
  config: McpServerConfig,
  learned: () => readonly string[] = () => [],
): (text: string) => string {
  const secrets = secretsWorthRedacting(secretValuesOf(config));
  return (text) => {
    const more = learned();
    // credential-shaped strings go too
    return redact(text, more.length === 0 ? secrets : secretsWorthRedacting([...secrets, ...more]));
  };
}

function secretValuesOf(config: McpServerConfig): string[] {
  const values: string[] = [];
  if ("env" in config && config.env) values.push(...Object.values(config.env));
  if ("headers" in config && config.headers) {
    for (const value of Object.values(config.headers)) {
      values.push(value);
      // "Bearer <token>": also hide the bare token.
      const parts = value.split(/\s+/);
      if (parts.length > 1) values.push(...parts.slice(1));
    }
  }
  if ("url" in config && typeof config.url === "string") values.push(...urlSecretsOf(config.url));
  const auth = "auth" in config ? (config.auth as Record<string, unknown> | undefined) : undefined;
  if (auth && typeof auth.clientSecret === "string") values.push(auth.clientSecret);
  return values.filter((value): value is string => typeof value === "string");
}

/** Replaces each of `secrets` (long enough to mean something) in `text`; nothing else. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let clean = text;
  for (const secret of secretsWorthRedacting(secrets)) {
    if (clean.includes(secret)) clean = clean.split(secret).join(REDACTED);
  }
  return clean;
}
