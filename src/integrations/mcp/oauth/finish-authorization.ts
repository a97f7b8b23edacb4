/**
 * `finishMcpAuthorization`: the app's callback route ends a paused authorization (`redirect:
 * "pause"`). The state the browser brings back finds the paused authorization in the token store
 * (taken: used once), which must not have expired; the code is exchanged with the kept PKCE
 * verifier and the tokens are saved where the server's next connection reads them — in any process.
 * @module
 */
import { InvalidOptionError } from "../../../errors";
import type { McpHttpServerConfig, McpServerConfig } from "../config";
import { redactSecrets } from "../redact-secrets";
import type { McpHttpAuth, McpPausedAuthorizationRecord, McpTokenStore } from "./auth-options";
import { McpAuthorizationError } from "./authorization-error";
import { clientAuthenticationOf, isOAuthClientProvider } from "./http-auth";
import { loadMcpAuthSdk } from "./load-auth-sdk";
import { LatticeOAuthProvider } from "./oauth-provider";
import { takePausedAuthorization } from "./paused-authorization";

/** Options of {@link finishMcpAuthorization}. */
export interface FinishMcpAuthorizationOptions {
  /**
   * Where the person's browser came back: the callback request's URL (absolute, or the path with
   * its query — only the query is read), or its query parameters (`code`, `state`, or `error`).
   */
  callbackUrl: string | URL | URLSearchParams;
  /**
   * The servers as the agent is configured (`mcpServers`): the paused server's `auth` — its
   * `tokenStore`, a pre-registered client's `clientSecret` — is read from them.
   */
  mcpServers: Record<string, McpServerConfig>;
}

/** What {@link finishMcpAuthorization} authorized. */
export interface FinishedMcpAuthorization {
  /** The server's name in `mcpServers`. */
  server: string;
}

/**
 * Finishes an authorization an agent paused on (`auth.redirect: "pause"`): call it from the route
 * at `auth.redirectUri` with the URL the browser came to. The tokens are then in the server's
 * token store; answer the pending input `{ action: "accept" }` (or send the next prompt) and the
 * agent connects with them. The state is checked: unknown (forged), already used, or older than
 * `auth.stateTtlMs`, it is refused — and a refused state cannot be tried again. An expired state
 * is `expired` while its record is still in the token store, `unknown_state` once the store
 * deleted it (the built-in stores delete expired pauses); either message says to start again.
 *
 * Check in the route that the signed-in user is the one whose query paused: the state proves the
 * callback answers a pause, not who brought it.
 *
 * @example
 * app.get("/oauth/callback", async (request, response) => {
 *   const { server } = await finishMcpAuthorization({ callbackUrl: request.url, mcpServers });
 *   response.redirect(`/chat?authorized=${encodeURIComponent(server)}`);
 * });
 * @throws McpAuthorizationError (`unknown_state`, `expired`, `refused`, `unknown_server`,
 *   `exchange_failed`); InvalidOptionError when no server of `mcpServers` pauses
 */
export async function finishMcpAuthorization(
  options: FinishMcpAuthorizationOptions,
): Promise<FinishedMcpAuthorization> {
  const query = callbackQuery(options?.callbackUrl);
  const stores = pausingStores(options?.mcpServers);
  const state = query.get("state");
  const found = state ? await takeFromStores(stores, state) : undefined;
  if (!found) {
    throw new McpAuthorizationError(
      "unknown_state",
      "This authorization response was not expected: its state is missing, unknown, already used, or expired (an expired authorization is deleted from the token store). Start again: the next query asks for authorization with a new URL.",
    );
  }
  const { record, store } = found;
  const { server } = record;
  if (!(Date.parse(record.expiresAt) > Date.now())) {
    throw new McpAuthorizationError(
      "expired",
      `The authorization of the MCP server "${server}" expired before it was finished (auth.stateTtlMs). Start again: the next query asks for authorization with a new URL.`,
      server,
    );
  }
  const auth = matchingAuth(options.mcpServers, record, store);
  const refusal = query.get("error");
  const code = query.get("code");
  if (refusal !== null || !code) {
    throw new McpAuthorizationError(
      "refused",
      `The authorization server did not authorize the MCP server "${server}": ${shortCode(refusal ?? "no code")}.`,
      server,
    );
  }
  await exchangeCode(record, auth, code);
  return { server };
}

function callbackQuery(callbackUrl: unknown): URLSearchParams {
  if (callbackUrl instanceof URLSearchParams) return callbackUrl;
  if (callbackUrl instanceof URL) return callbackUrl.searchParams;
  if (typeof callbackUrl === "string") {
    try {
      return new URL(callbackUrl, "http://callback.invalid").searchParams;
    } catch {
      // not a URL: no state
    }
  }
  throw new InvalidOptionError(
    "callbackUrl must be the callback's URL (a string or URL) or its URLSearchParams.",
  );
}

/** The distinct token stores of the servers that pause. */
function pausingStores(servers: unknown): McpTokenStore[] {
  if (typeof servers !== "object" || servers === null)
    throw new InvalidOptionError("mcpServers must be the agent's mcpServers.");
  const stores = new Set<McpTokenStore>();
  for (const config of Object.values(servers as Record<string, McpServerConfig>)) {
    const auth = pausingAuth(config);
    if (auth?.tokenStore) stores.add(auth.tokenStore);
  }
  if (stores.size === 0)
    throw new InvalidOptionError(
      'No server of mcpServers has auth.redirect "pause" with a tokenStore: there is no paused authorization to finish.',
    );
  return [...stores];
}

function pausingAuth(config: McpServerConfig | undefined): McpHttpAuth | undefined {
  if (config?.type !== "http" || typeof config.auth !== "object" || config.auth === null) return undefined;
  if (isOAuthClientProvider(config.auth) || config.auth.redirect !== "pause") return undefined;
  return config.auth;
}

async function takeFromStores(
  stores: readonly McpTokenStore[],
  state: string,
): Promise<{ record: McpPausedAuthorizationRecord; store: McpTokenStore } | undefined> {
  for (const store of stores) {
    const record = await takePausedAuthorization(store, state);
    if (record) return { record, store };
  }
  return undefined;
}

/** The configured `auth` the paused authorization was made with: same server, URL, redirect URI and store. */
function matchingAuth(
  servers: Record<string, McpServerConfig>,
  record: McpPausedAuthorizationRecord,
  store: McpTokenStore,
): McpHttpAuth {
  const config = Object.hasOwn(servers, record.server) ? servers[record.server] : undefined;
  const auth = pausingAuth(config);
  if (
    !auth ||
    auth.tokenStore !== store ||
    auth.redirectUri !== record.redirectUri ||
    urlText((config as McpHttpServerConfig).url) !== record.serverUrl
  ) {
    throw new McpAuthorizationError(
      "unknown_server",
      `The paused authorization is for the MCP server "${record.server}", which mcpServers does not configure as it was (type http, the same url, auth.redirect "pause", redirectUri and tokenStore).`,
      record.server,
    );
  }
  return auth;
}

function urlText(url: string): string | undefined {
  try {
    return new URL(url).toString();
  } catch {
    return undefined;
  }
}

/** The code exchanged with the kept verifier and discovery; the tokens saved in the store. */
async function exchangeCode(
  record: McpPausedAuthorizationRecord,
  auth: McpHttpAuth,
  code: string,
): Promise<void> {
  const sdk = await loadMcpAuthSdk();
  const provider = new LatticeOAuthProvider({
    serverName: record.server,
    serverUrl: record.serverUrl,
    auth,
    addClientAuthentication: clientAuthenticationOf(sdk, auth),
  });
  provider.saveCodeVerifier(record.codeVerifier);
  if (record.discovery) provider.saveDiscoveryState(structuredClone(record.discovery) as never);
  let result: string;
  try {
    result = await sdk.auth(provider, { serverUrl: new URL(record.serverUrl), authorizationCode: code });
  } catch (error) {
    const secrets = [code, record.codeVerifier, ...provider.secrets()];
    throw new McpAuthorizationError(
      "exchange_failed",
      redactSecrets(
        `The MCP server "${record.server}" could not be authorized: the token request failed (${(error as Error)?.message ?? String(error)}).`,
        secrets,
      ),
      record.server,
    );
  }
  if (result !== "AUTHORIZED")
    throw new McpAuthorizationError(
      "exchange_failed",
      `The MCP server "${record.server}" could not be authorized: the token request did not complete.`,
      record.server,
    );
}

/** An OAuth error code as the server sent it, kept to its safe characters and length. */
function shortCode(text: string): string {
  return text.replace(/[^\w .:-]/g, "").slice(0, 100) || "no reason given";
}
