/**
 * The credentials of the built-in Anthropic client that no error may show: the API key, and what
 * `defaultHeaders` carries in `x-api-key` and `Authorization`.
 * @module
 */

/** Header names whose values are credentials. */
const CREDENTIAL_HEADERS = new Set(["x-api-key", "authorization"]);

/**
 * The strings no error may show: the API key, and the credentials given through `defaultHeaders`
 * (`x-api-key`, `authorization` and the token after its scheme, e.g. `Bearer <token>`; header names
 * in any capitalisation).
 */
export function credentialSecrets(
  apiKey: string | undefined,
  defaultHeaders: Readonly<Record<string, string | null | undefined>> | undefined,
): string[] {
  const secrets = apiKey ? [apiKey] : [];
  for (const [name, value] of Object.entries(defaultHeaders ?? {})) {
    if (typeof value !== "string" || !CREDENTIAL_HEADERS.has(name.toLowerCase())) continue;
    const credential = value.trim();
    if (credential) secrets.push(credential);
    const token = /^[A-Za-z][\w-]*\s+(\S.*)$/.exec(credential)?.[1]?.trim();
    if (name.toLowerCase() === "authorization" && token) secrets.push(token);
  }
  return secrets;
}
