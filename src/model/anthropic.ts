/**
 * `createAnthropicClient`: the built-in {@link ModelClient}, for the Anthropic API and any
 * Anthropic-compatible endpoint (DeepSeek, Moonshot, Zhipu, MiniMax, a local server) through
 * `baseURL` — over `fetch`, needing no SDK — or over an Anthropic SDK client of the caller's
 * (`Anthropic`, `AnthropicVertex`, `AnthropicBedrock`) through `anthropic`.
 * @module
 */
import { InvalidOptionError } from "../errors";
import { assertKnownOptions } from "../shared/known-options";
import { resolveBaseUrl } from "./anthropic-base-url";
import { credentialSecrets } from "./anthropic-credentials";
import { type FetchLike, type HttpTransport, postMessages, requestHeadersOf } from "./anthropic-http";
import { readJsonMessage } from "./anthropic-json-response";
import { betaHeaderOf, toAnthropicRequestBody } from "./anthropic-request";
import { type FailureContext, withFailureMapping } from "./anthropic-request-failure";
import {
  type AnthropicSdkClient,
  createSdkMessage,
  isAnthropicSdkClient,
  sdkClientSecrets,
} from "./anthropic-sdk-client";
import { readStreamedMessage } from "./anthropic-streamed-response";
import { betasOf, withBetaHeader } from "./anthropic-tool-search";
import type { ModelClient } from "./client";
import { honoursContextManagement } from "./context-support";
import { countTokensOverFetch, countTokensOverSdk } from "./count-tokens";
import { endpointOf, featuresOf, type ModelEndpoint, type ProviderProfile } from "./endpoint";
import { readEnv } from "./env";

/** Options of {@link createAnthropicClient}. */
export interface AnthropicClientOptions {
  /** API key, sent as `x-api-key` and as a bearer token. @default process.env.ANTHROPIC_API_KEY */
  apiKey?: string;
  /**
   * A bearer token (`Authorization: Bearer …` only), for endpoints that take one instead of a key;
   * used when there is no API key. @default process.env.ANTHROPIC_AUTH_TOKEN
   */
  authToken?: string;
  /** Base URL of an Anthropic-compatible endpoint. @default process.env.ANTHROPIC_BASE_URL, else the Anthropic API */
  baseURL?: string;
  /** Stream responses (server-sent events; `onEvent` sees every raw event). `false` asks for plain JSON. @default true */
  stream?: boolean;
  /**
   * Headers sent with every request. A `null` value removes a header the client would send. The values of
   * `x-api-key` and `Authorization` (and its bearer token) are kept out of errors like the API key.
   */
  defaultHeaders?: Record<string, string | null | undefined>;
  /** A `fetch` implementation (proxies, instrumentation, tests). @default globalThis.fetch */
  fetch?: FetchLike;
  /**
   * An Anthropic SDK client to send every request with — `new Anthropic(…)`, `new AnthropicVertex(…)`,
   * `new AnthropicBedrock(…)` (any 1.x version), or anything with a compatible `messages.create` —
   * with its own auth, base URL, fetch, headers and middleware. Its retries are off for these
   * requests (`maxRetries: 0`): the agent loop retries. Not combinable with `apiKey`, `authToken`,
   * `baseURL`, `defaultHeaders` or `fetch`, which belong to the client you pass.
   */
  anthropic?: AnthropicSdkClient;
  /**
   * What the endpoint runs beyond the portable Messages API (context editing, the native memory
   * tool, server compaction, tool search): `"anthropic"` for a gateway or proxy in front of the
   * Anthropic API, `"portable"` for none of it, or each feature named. The client reports it on
   * its `endpoint.features`, where `where: "auto"` and `toolSearch: "auto"` read it.
   * @default each feature follows the endpoint's host
   */
  providerProfile?: ProviderProfile;
}

/**
 * Every option name of `createAnthropicClient` — the one list to extend when an option is added; any other
 * name is refused, naming the closest of these.
 */
export const ANTHROPIC_CLIENT_OPTION_NAMES: readonly string[] = [
  "apiKey",
  "authToken",
  "baseURL",
  "stream",
  "defaultHeaders",
  "fetch",
  "anthropic",
  "providerProfile",
];

/**
 * Creates the built-in Anthropic client.
 *
 * By default it speaks the Messages API itself, over `fetch` (`POST {baseURL}/v1/messages`): no SDK
 * is loaded. With `anthropic`, it sends through that SDK client instead. Either way: retries belong
 * to the agent loop (none here); each request forwards its `signal`, and `timeoutMs` bounds the
 * whole response, streamed body included, ending in a {@link TimeoutError}; without it the response
 * headers must arrive within 10 minutes (an expiry is a retryable ProviderError), and a
 * non-streaming request may ask for any `max_tokens`. A cancellation is rethrown as the signal's
 * reason; every other failure becomes a {@link ProviderError} that never contains the API key,
 * nor a credential given through `defaultHeaders` (`x-api-key`, `Authorization`) or the base URL,
 * and that names the endpoint (`host:port`) and the cause when the network failed.
 *
 * @throws {InvalidOptionError} when there is no API key, no auth token and no `baseURL` to a keyless
 * endpoint; when `baseURL` (or `ANTHROPIC_BASE_URL`) is not a valid URL; when `anthropic` is not
 * an SDK client or comes with options of its own.
 * @example
 * const client = createAnthropicClient({ apiKey: process.env.DEEPSEEK_API_KEY, baseURL: "https://api.deepseek.com/anthropic" });
 * @example
 * import AnthropicVertex from "@anthropic-ai/vertex-sdk";
 * const vertex = createAnthropicClient({ anthropic: new AnthropicVertex({ region: "us-east5", projectId: "my-project" }) });
 */
export function createAnthropicClient(options: AnthropicClientOptions = {}): ModelClient {
  assertKnownOptions("createAnthropicClient", options, ANTHROPIC_CLIENT_OPTION_NAMES);
  if (options.anthropic !== undefined) return createSdkBackedClient(options.anthropic, options);
  const apiKey = options.apiKey ?? readEnv("ANTHROPIC_API_KEY");
  const authToken = apiKey ? undefined : (options.authToken ?? readEnv("ANTHROPIC_AUTH_TOKEN"));
  const baseURL = options.baseURL ?? readEnv("ANTHROPIC_BASE_URL");
  if (!apiKey && !authToken && !baseURL) {
    throw new InvalidOptionError(
      "No Anthropic API key: pass `apiKey` to createAnthropicClient/createAgent or set ANTHROPIC_API_KEY (or point `baseURL` at a keyless endpoint).",
    );
  }
  const base = resolveBaseUrl(baseURL);
  const transport: HttpTransport = {
    url: base.messagesUrl,
    headers: requestHeadersOf({ apiKey, authToken }, options.defaultHeaders),
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
  };
  const endpoint = declared(base.endpoint(), options.providerProfile);
  const secrets = [...credentialSecrets(apiKey ?? authToken, options.defaultHeaders), ...base.urlSecrets];
  const failures: FailureContext = { secrets, endpoint };
  const stream = options.stream ?? true;
  const nativeTools = honoursContextManagement(endpoint);

  return withSecrets(secrets, {
    endpoint,
    // Each message is parsed or assembled anew from the response, and kept by no one here.
    freshMessages: true,
    createMessage(request) {
      return withFailureMapping(request, failures, async (scope) => {
        const wire = toAnthropicRequestBody(request, { nativeTools });
        const betas = betasOf(wire);
        const contextBeta = betaHeaderOf(request, nativeTools);
        if (contextBeta) betas.push(contextBeta);
        const sent =
          betas.length > 0 ? { ...transport, headers: withBetaHeader(transport.headers, betas) } : transport;
        const response = await postMessages(sent, JSON.stringify({ ...wire, stream }), scope);
        return stream
          ? readStreamedMessage(response, request, scope, secrets)
          : readJsonMessage(response, scope.progress, secrets, scope.source);
      });
    },
    countTokens: (request) => countTokensOverFetch(transport, request),
  });
}

/** The built-in client over the caller's SDK client. */
function createSdkBackedClient(sdk: AnthropicSdkClient, options: AnthropicClientOptions): ModelClient {
  if (!isAnthropicSdkClient(sdk)) {
    throw new InvalidOptionError(
      "`anthropic` must be an Anthropic SDK client (new Anthropic(…), new AnthropicVertex(…), new AnthropicBedrock(…)): an object with `messages.create`.",
    );
  }
  const own = (["apiKey", "authToken", "baseURL", "defaultHeaders", "fetch"] as const).filter(
    (name) => options[name] !== undefined,
  );
  if (own.length > 0) {
    throw new InvalidOptionError(
      `\`anthropic\` cannot be combined with ${own.map((name) => `\`${name}\``).join(", ")}: give them to the SDK client you pass.`,
    );
  }
  const endpoint = declared(
    endpointOf(typeof sdk.baseURL === "string" ? sdk.baseURL : undefined),
    options.providerProfile,
  );
  const secrets = sdkClientSecrets(sdk);
  const failures: FailureContext = { secrets, endpoint };
  const stream = options.stream ?? true;
  const nativeTools = honoursContextManagement(endpoint);
  return withSecrets(secrets, {
    endpoint,
    createMessage(request) {
      return withFailureMapping(request, failures, (scope) =>
        createSdkMessage(
          sdk,
          toAnthropicRequestBody(request, { nativeTools }),
          stream,
          request,
          scope,
          secrets,
        ),
      );
    },
    countTokens: (request) => countTokensOverSdk(sdk, request),
  });
}

/**
 * The client with its credentials as `secrets`, held by its prototype: never an own property, so
 * neither JSON nor `util.inspect` (even with `showHidden`) shows them.
 */
function withSecrets(secrets: readonly string[], client: ModelClient): ModelClient {
  const holder = Object.create(Object.prototype, {
    constructor: { value: Object, enumerable: false },
    secrets: { value: Object.freeze([...secrets]), enumerable: false },
  }) as object;
  return Object.setPrototypeOf(client, holder) as ModelClient;
}

/** `endpoint` with the features `profile` declares (unchanged without one). */
function declared(endpoint: ModelEndpoint, profile: ProviderProfile | undefined): ModelEndpoint {
  const features = featuresOf(profile);
  return features === undefined ? endpoint : { ...endpoint, features };
}
