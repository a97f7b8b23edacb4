/**
 * Keeps configured secrets (environment values of stdio servers, HTTP header values, the user name,
 * password and query values of a server URL) out of the error messages we report about MCP servers.
 * @module
 */
import { redact, secretsWorthRedacting, urlSecretsOf } from "../../shared/redact";
import type { McpServerConfig } from "./config";

/** Returns a function that replaces every configured secret value in a text with `[redacted]`. */
export function secretRedactor(config: McpServerConfig): (text: string) => string {
  // Short values (`1`, `true`, `/usr`) are too common to redact: the one minimum length applies.
  const secrets = secretsWorthRedacting(secretValuesOf(config));
  return (text) => redact(text, secrets); // credential-shaped strings go too
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
  return values.filter((value): value is string => typeof value === "string");
}
