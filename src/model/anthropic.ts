/**
 * `createAnthropicClient`: the built-in {@link ModelClient}, over `@anthropic-ai/sdk`, for the
 * Anthropic API and any Anthropic-compatible endpoint (DeepSeek, Moonshot, Zhipu, MiniMax, a local
 * server) through `baseURL`.
 * @module
 */

import Anthropic, { type ClientOptions } from "@anthropic-ai/sdk";
import { InvalidOptionError } from "../errors";
import { assertKnownOptions } from "../shared/known-options";
import { urlSecretsOf } from "../shared/redact";
import { MAX_TIMER_MS } from "../shared/signals";
import { credentialSecrets } from "./anthropic-credentials";
import { createJsonMessage } from "./anthropic-json-response";
import { toAnthropicRequestBody } from "./anthropic-request";
import { withFailureMapping } from "./anthropic-request-failure";
import { createStreamedMessage } from "./anthropic-streamed-response";
import type { ModelClient } from "./client";
import { endpointOf } from "./endpoint";

/** Options of {@link createAnthropicClient}. */
export interface AnthropicClientOptions {
  /** API key. @default process.env.ANTHROPIC_API_KEY */
  apiKey?: string;
  /** Base URL of an Anthropic-compatible endpoint. @default process.env.ANTHROPIC_BASE_URL, else the Anthropic API */
  baseURL?: string;
  /** Stream responses (server-sent events; `onEvent` sees every raw event). `false` asks for plain JSON. @default true */
  stream?: boolean;
  /**
   * Headers sent with every request. A `null` value removes a header the SDK would send. The values of
   * `x-api-key` and `Authorization` (and its bearer token) are kept out of errors like the API key.
   */
  defaultHeaders?: Record<string, string | null | undefined>;
  /** A `fetch` implementation, passed through to the SDK (proxies, instrumentation, tests). */
  fetch?: ClientOptions["fetch"];
}

/**
 * Every option name of `createAnthropicClient` — the one list to extend when an option is added; any other
 * name is refused, naming the closest of these.
 */
export const ANTHROPIC_CLIENT_OPTION_NAMES: readonly string[] = [
  "apiKey",
  "baseURL",
  "stream",
  "defaultHeaders",
  "fetch",
  "anthropic",
];

/**
 * Creates the built-in Anthropic client.
 *
 * The SDK's own retries are off: the agent loop owns retries. Each request forwards its `signal`
 * and `timeoutMs`; `timeoutMs` bounds the whole response, streamed body included, and ends in a
 * {@link TimeoutError}; without it the SDK's default applies (10 minutes until the response headers
 * arrive; an expiry is a retryable ProviderError), but never its refusal of a non-streaming request
 * with a large `max_tokens`. A cancellation is rethrown as the signal's reason; every other failure
 * becomes a {@link ProviderError} that never contains the API key, nor a credential given through
 * `defaultHeaders` (`x-api-key`, `Authorization`).
 *
 * @throws {InvalidOptionError} when there is no API key and no `baseURL` to a keyless endpoint, or
 * when `baseURL` (or `ANTHROPIC_BASE_URL`) is not a valid URL.
 * @example
 * const client = createAnthropicClient({ apiKey: process.env.DEEPSEEK_API_KEY, baseURL: "https://api.deepseek.com/anthropic" });
 */
export function createAnthropicClient(options: AnthropicClientOptions = {}): ModelClient {
  assertKnownOptions("createAnthropicClient", options, ANTHROPIC_CLIENT_OPTION_NAMES);
  const apiKey = options.apiKey ?? nonEmpty(process.env.ANTHROPIC_API_KEY);
  const baseURL = options.baseURL ?? nonEmpty(process.env.ANTHROPIC_BASE_URL);
  if (!apiKey && !baseURL) {
    throw new InvalidOptionError(
      "No Anthropic API key: pass `apiKey` to createAnthropicClient/createAgent or set ANTHROPIC_API_KEY (or point `baseURL` at a keyless endpoint).",
    );
  }
  if (baseURL !== undefined && !URL.canParse(baseURL)) {
    // Not quoted: a URL that does not parse cannot be searched for the credentials it may hold.
    throw new InvalidOptionError(
      'The base URL (`baseURL` or ANTHROPIC_BASE_URL) is not a valid URL: give the endpoint as an absolute URL, e.g. "https://api.deepseek.com/anthropic".',
    );
  }
  const sdk = new Anthropic({
    apiKey: apiKey ?? null,
    baseURL,
    maxRetries: 0,
    // The SDK sends the key as a bearer token; compatible endpoints that only read `x-api-key`
    // get it there too. Without a key (a local endpoint), no credentials are sent at all.
    defaultHeaders: apiKey
      ? { "x-api-key": apiKey, ...options.defaultHeaders }
      : { Authorization: null, ...options.defaultHeaders },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  // A key in the base URL (`https://user:key@proxy/`, `?key=…`) is as secret as `apiKey`.
  const secrets = [...credentialSecrets(apiKey, options.defaultHeaders), ...urlSecretsOf(baseURL)];
  const stream = options.stream ?? true;

  return {
    endpoint: endpointOf(baseURL),
    createMessage(request) {
      return withFailureMapping(request, secrets, (signal, progress) => {
        const body = toAnthropicRequestBody(request);
        const requestOptions = { signal, maxRetries: 0, timeout: sdkTimeoutMs(sdk, request.timeoutMs) };
        return stream
          ? createStreamedMessage(sdk, body, requestOptions, request, progress, secrets)
          : createJsonMessage(sdk, body, requestOptions, progress, secrets);
      });
    },
  };
}

/**
 * The `timeout` handed to the SDK: the request's deadline, else the SDK's own default (10 minutes,
 * until the response headers arrive): with no deadline of the agent's, the provider client's default
 * applies. Always explicit: without it the SDK refuses every non-streaming request whose
 * `max_tokens` it guesses could take longer than 10 minutes ("Streaming is required…").
 */
function sdkTimeoutMs(sdk: Anthropic, timeoutMs: number | undefined): number {
  return timeoutMs ? Math.min(timeoutMs, MAX_TIMER_MS) : sdk.timeout;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value ? value : undefined;
}
