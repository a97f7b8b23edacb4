/**
 * Sets up the `auth` of one `http` server: our provider (or the one passed), the loopback listener
 * of the code flow, and the authorizing `fetch` its transport sends through.
 * @module
 */
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { InvalidOptionError } from "../../../errors";
import type { McpHttpAuth, McpOAuthClientProvider } from "./auth-options";
import { loadMcpAuthSdk, type McpAuthSdk } from "./load-auth-sdk";
import { LoopbackRedirect } from "./loopback-redirect";
import { createOAuthFetch } from "./oauth-fetch";
import { LatticeOAuthProvider, type PausedAuthorization } from "./oauth-provider";

/** An `http` server's authorization, ready for its transport. */
export interface HttpAuthorization {
  fetch: FetchLike;
  /** The secrets known so far (tokens, client secret), to redact from what is reported. */
  secrets(): string[];
  /** Stops the loopback listener and ends a wait for the redirect. */
  close(): Promise<void>;
  /**
   * A clearer text for a failed connect (a timeout while the person had not authorized yet), or
   * `undefined` to report `error` as it is.
   */
  explainFailure(error: unknown, timeoutMs: number): string | undefined;
  /** With `redirect: "pause"`: the authorization connecting stopped at, if it did. */
  paused(): PausedAuthorization | undefined;
}

/** The status error of a server waiting for a person to authorize it (`auth.redirect: "pause"`). */
export const AWAITING_AUTHORIZATION =
  'Waiting for authorization: a person must open the authorization URL (auth.redirect "pause"); the app\'s callback then calls finishMcpAuthorization.';

/** Why the connection's own waits end when it closes. */
const CLOSED_BEFORE_AUTHORIZATION = "The MCP connection closed before authorization finished.";

/** Whether `auth` is a provider object passed through rather than our options. */
export function isOAuthClientProvider(
  auth: McpHttpAuth | McpOAuthClientProvider,
): auth is McpOAuthClientProvider {
  return typeof (auth as { tokens?: unknown }).tokens === "function";
}

/** Whether connecting may wait for a person to authorize in a browser (a pause does not wait). */
export function mayAskPerson(auth: McpHttpAuth | McpOAuthClientProvider | undefined): boolean {
  return (
    auth !== undefined &&
    !isOAuthClientProvider(auth) &&
    auth.grant !== "client_credentials" &&
    auth.redirect !== "pause"
  );
}

/**
 * Prepares `auth` for the server `serverName` at `url`.
 * @throws InvalidOptionError for options that cannot work (the server is then reported failed)
 */
export async function prepareHttpAuthorization(
  serverName: string,
  url: URL,
  auth: McpHttpAuth | McpOAuthClientProvider,
): Promise<HttpAuthorization> {
  const sdk = await loadMcpAuthSdk();
  const lifetime = new AbortController();
  if (isOAuthClientProvider(auth)) {
    const provider = auth as unknown as OAuthClientProvider;
    return {
      fetch: createOAuthFetch({ sdk, provider, serverUrl: url, signal: lifetime.signal }),
      secrets: () => [],
      close: async () => lifetime.abort(new Error(CLOSED_BEFORE_AUTHORIZATION)),
      explainFailure: () => undefined,
      paused: () => undefined,
    };
  }
  checkAuthOptions(auth);
  const listener =
    auth.grant === "client_credentials" || auth.redirect === "pause"
      ? undefined
      : await LoopbackRedirect.open(auth.redirectUri);
  const provider = new LatticeOAuthProvider({
    serverName,
    serverUrl: url.toString(),
    auth,
    listener,
    addClientAuthentication: clientAuthenticationOf(sdk, auth),
  });
  // Either ends a wait for the person: the connection closing, or the caller's `auth.signal`.
  const signal = auth.signal ? AbortSignal.any([lifetime.signal, auth.signal]) : lifetime.signal;
  return {
    fetch: createOAuthFetch({ sdk, provider, serverUrl: url, signal }),
    secrets: () => provider.secrets(),
    close: async () => {
      lifetime.abort(new Error(CLOSED_BEFORE_AUTHORIZATION));
      await listener?.close();
    },
    explainFailure: (error, timeoutMs) =>
      (error as { name?: unknown })?.name === "ConnectTimeoutError" && provider.waitingForPerson
        ? `Authorization was not completed within connectTimeoutMs (${Math.round(timeoutMs / 1000)} s): ` +
          "no redirect reached the loopback listener (the authorization URL was not opened, or not approved in time)."
        : undefined,
    paused: () => provider.paused,
  };
}

/** `private_key_jwt` client authentication, when `auth` asks for it. */
export function clientAuthenticationOf(sdk: McpAuthSdk, auth: McpHttpAuth) {
  return auth.privateKeyJwt && auth.clientId
    ? sdk.createPrivateKeyJwtAuth({
        issuer: auth.clientId,
        subject: auth.clientId,
        privateKey: auth.privateKeyJwt.privateKey,
        alg: auth.privateKeyJwt.algorithm,
      })
    : undefined;
}

/**
 * Checks `auth` options.
 * @throws InvalidOptionError
 */
export function checkAuthOptions(auth: McpHttpAuth): void {
  if (
    auth.grant !== undefined &&
    auth.grant !== "authorization_code" &&
    auth.grant !== "client_credentials"
  ) {
    throw new InvalidOptionError('auth.grant must be "authorization_code" or "client_credentials".');
  }
  if (auth.grant === "client_credentials" && (!auth.clientId || !(auth.clientSecret || auth.privateKeyJwt))) {
    throw new InvalidOptionError(
      "auth.grant client_credentials needs auth.clientId and auth.clientSecret (or auth.privateKeyJwt).",
    );
  }
  if (auth.privateKeyJwt && !auth.clientId) {
    throw new InvalidOptionError("auth.privateKeyJwt needs auth.clientId.");
  }
  if (auth.signal !== undefined && !(auth.signal instanceof AbortSignal)) {
    throw new InvalidOptionError("auth.signal must be an AbortSignal.");
  }
  if (auth.redirect !== undefined && typeof auth.redirect !== "function" && auth.redirect !== "pause") {
    throw new InvalidOptionError(
      'auth.redirect must be a function (authorizationUrl: URL) => Promise<void>, or "pause".',
    );
  }
  if (auth.redirect === "pause") checkPauseOptions(auth);
}

/** `redirect: "pause"` needs the app's callback route and a store another process can read. */
function checkPauseOptions(auth: McpHttpAuth): void {
  if (auth.grant === "client_credentials") {
    throw new InvalidOptionError(
      'auth.redirect "pause" is for the authorization_code grant (a person authorizes).',
    );
  }
  if (!isHttpUrl(auth.redirectUri)) {
    throw new InvalidOptionError(
      'auth.redirect "pause" needs auth.redirectUri: the http(s) URL of the app\'s own callback route.',
    );
  }
  if (auth.tokenStore === undefined) {
    throw new InvalidOptionError(
      'auth.redirect "pause" needs auth.tokenStore (createMcpTokenStore): the process that finishes the authorization reads the PKCE verifier and state from it.',
    );
  }
  const ttl = auth.stateTtlMs;
  if (ttl !== undefined && !(typeof ttl === "number" && Number.isFinite(ttl) && ttl > 0)) {
    throw new InvalidOptionError("auth.stateTtlMs must be a positive number of milliseconds.");
  }
}

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== "string") return false;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}
