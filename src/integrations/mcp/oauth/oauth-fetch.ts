/**
 * The `fetch` an `http` transport with `auth` sends through: the access token on every request; a
 * 401 (or a 403 `insufficient_scope`) runs the SDK's `auth()` with the challenge's
 * `resource_metadata` and `scope`, waits for the person's redirect when the flow needs one, and
 * sends the request again. An access token past its expiry is refreshed before it is sent.
 * @module
 */
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpAuthSdk } from "./load-auth-sdk";
import { LatticeOAuthProvider } from "./oauth-provider";

/**
 * Authorizations one request may run: a 401, then a 403 asking for more scope. A server that keeps
 * refusing gets its answer passed on (the suite's retry-limit scenario allows three at most).
 */
const MAX_AUTHORIZATIONS_PER_REQUEST = 2;

/** What the authorizing fetch needs. */
export interface OAuthFetchOptions {
  sdk: McpAuthSdk;
  provider: OAuthClientProvider;
  serverUrl: URL;
  /** Ends a wait for the person's redirect (the connection closing). */
  signal: AbortSignal;
  /** The fetch underneath. @default globalThis.fetch */
  fetch?: FetchLike;
}

interface Challenge {
  status: number;
  header: string | null;
  resourceMetadataUrl?: URL;
  scope?: string;
}

/** A `fetch` that authorizes as the server asks. */
export function createOAuthFetch(options: OAuthFetchOptions): FetchLike {
  const base: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const { provider } = options;
  let authorizing: Promise<void> | undefined;
  // One authorization at a time: requests refused meanwhile wait for it, then send again.
  const authorizeOnce = (challenge: Partial<Challenge>) => {
    authorizing ??= authorize(options, base, challenge).finally(() => {
      authorizing = undefined;
    });
    return authorizing;
  };
  const send = async (input: string | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    const tokens = await provider.tokens();
    if (tokens) headers.set("Authorization", `Bearer ${tokens.access_token}`);
    return base(input, { ...init, headers });
  };
  return async (input, init) => {
    if (provider instanceof LatticeOAuthProvider && (await provider.needsRefresh())) {
      // A failed refresh is no failure here: the server's 401 starts a full authorization.
      await authorizeOnce({}).catch(() => {});
    }
    let lastStepUp: string | null | undefined;
    for (let attempt = 0; ; attempt++) {
      const response = await send(input, init);
      const challenge = challengeOf(options.sdk, response);
      if (!challenge || attempt >= MAX_AUTHORIZATIONS_PER_REQUEST) return response;
      if (challenge.status === 403) {
        if (challenge.header === lastStepUp) return response;
        lastStepUp = challenge.header;
        // More scope needs a new authorization: a refresh would keep the old scope.
        await provider.invalidateCredentials?.("tokens");
      }
      await response.body?.cancel().catch(() => {});
      await authorizeOnce(challenge);
    }
  };
}

/** A 401, or a 403 whose challenge says `insufficient_scope`; otherwise `undefined`. */
function challengeOf(sdk: McpAuthSdk, response: Response): Challenge | undefined {
  if (response.status !== 401 && response.status !== 403) return undefined;
  const { resourceMetadataUrl, scope, error } = sdk.extractWWWAuthenticateParams(response);
  if (response.status === 403 && error !== "insufficient_scope") return undefined;
  return {
    status: response.status,
    header: response.headers.get("www-authenticate"),
    resourceMetadataUrl,
    scope,
  };
}

/** Runs the SDK's flow; a redirect waits for the person's code, then exchanges it. */
async function authorize(
  options: OAuthFetchOptions,
  base: FetchLike,
  challenge: Partial<Challenge>,
): Promise<void> {
  const { sdk, provider, serverUrl, signal } = options;
  const flow = {
    serverUrl,
    resourceMetadataUrl: challenge.resourceMetadataUrl,
    scope: challenge.scope,
    fetchFn: base,
  };
  let result = await sdk.auth(provider, flow);
  if (result === "REDIRECT" && provider instanceof LatticeOAuthProvider && provider.pauses) {
    // Nothing waits: the connection reports the pause, an app's callback finishes it.
    throw new sdk.UnauthorizedError(
      'The MCP server needs authorization: it paused for a person to authorize (redirect: "pause").',
    );
  }
  if (result === "REDIRECT") {
    if (!(provider instanceof LatticeOAuthProvider)) {
      throw new sdk.UnauthorizedError(
        "The MCP server needs authorization: the auth provider was sent to the authorization URL; connect again once it has tokens.",
      );
    }
    const authorizationCode = await provider.authorizationCode(signal);
    result = await sdk.auth(provider, { ...flow, authorizationCode });
  }
  if (result !== "AUTHORIZED")
    throw new sdk.UnauthorizedError("The MCP server's authorization did not complete.");
}
