/**
 * Keeps configured secrets (environment values of stdio servers, HTTP header values, the user name,
 * password and query values of a server URL) out of the error messages we report about MCP servers.
 * @module
 */
import { redact } from "../../model/redact";
import type { McpServerConfig } from "./config";

/** Values shorter than this are too common to redact meaningfully (`1`, `true`, `/usr`). */
const MIN_SECRET_LENGTH = 6;

/** Returns a function that replaces every configured secret value in a text with `[redacted]`. */
export function secretRedactor(config: McpServerConfig): (text: string) => string {
  const secrets = secretValuesOf(config)
    .filter((value) => value.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
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

/**
 * The parts of a URL that may be credentials: `user:password@` (fetch refuses such URLs and quotes
 * them whole in its error) and query values (`?token=…`), as written and decoded.
 */
function urlSecretsOf(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const values: string[] = [];
  const both = (raw: string, decoded: string) => values.push(raw, decoded);
  if (parsed.username) both(parsed.username, safeDecode(parsed.username));
  if (parsed.password) both(parsed.password, safeDecode(parsed.password));
  if (parsed.username && parsed.password) values.push(`${parsed.username}:${parsed.password}`);
  for (const [, value] of parsed.searchParams) both(encodeURIComponent(value), value);
  return values;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
