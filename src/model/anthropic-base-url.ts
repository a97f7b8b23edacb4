/**
 * What the built-in client derives from its base URL — the messages URL, the endpoint it reports,
 * the credentials the URL itself holds — parsed once for the last base URL seen: a process builds
 * its clients (one per agent, often one per query) for the same endpoint, and four URL parses per
 * client were the largest part of creating one.
 * @module
 */
import { InvalidOptionError } from "../errors";
import { urlSecretsOf } from "../shared/redact";
import { messagesUrlOf } from "./anthropic-http";
import { ANTHROPIC_API_URL, endpointOf, type ModelEndpoint } from "./endpoint";

/** The parts of a base URL the client uses. */
export interface ResolvedBaseUrl {
  /** `POST` target: the base URL's path with `/v1/messages` appended. */
  readonly messagesUrl: string;
  /** A fresh copy per call: a client's `endpoint` is its own. */
  endpoint(): ModelEndpoint;
  /** Credentials in the URL (`https://user:key@proxy/`, `?key=…`), as secret as `apiKey`. */
  readonly urlSecrets: readonly string[];
}

let last: { baseURL: string | undefined; resolved: ResolvedBaseUrl } | undefined;

/**
 * Resolves `baseURL` (`undefined`: the Anthropic API).
 * @throws {InvalidOptionError} when `baseURL` is not a valid URL
 */
export function resolveBaseUrl(baseURL: string | undefined): ResolvedBaseUrl {
  if (last !== undefined && last.baseURL === baseURL) return last.resolved;
  if (baseURL !== undefined && !URL.canParse(baseURL)) {
    // Not quoted: a URL that does not parse cannot be searched for the credentials it may hold.
    throw new InvalidOptionError(
      'The base URL (`baseURL` or ANTHROPIC_BASE_URL) is not a valid URL: give the endpoint as an absolute URL, e.g. "https://api.deepseek.com/anthropic".',
    );
  }
  const endpoint = endpointOf(baseURL);
  const resolved: ResolvedBaseUrl = {
    messagesUrl: messagesUrlOf(baseURL ?? ANTHROPIC_API_URL),
    endpoint: () => ({ ...endpoint }),
    urlSecrets: Object.freeze(urlSecretsOf(baseURL)),
  };
  last = { baseURL, resolved };
  return resolved;
}
