/**
 * OAuth 2.1 for `http` MCP servers: the `auth` option's shape, the token store contract and the
 * defaults (types and constants only: the root entry never loads the MCP SDK).
 * @module
 */

/** How long connecting may take by default when a person may have to authorize in a browser. */
export const DEFAULT_MCP_AUTHORIZATION_TIMEOUT_MS = 300_000;

/** The path of the loopback listener that receives the authorization server's redirect. */
export const DEFAULT_MCP_REDIRECT_PATH = "/callback";

/**
 * How long a paused authorization (`redirect: "pause"`) can be finished by default: the state,
 * PKCE verifier and flow kept in the token store are refused after that.
 */
export const DEFAULT_MCP_AUTHORIZATION_STATE_TTL_MS = 600_000;

/**
 * The credentials kept for one server (and client): what the authorization server issued. Secrets —
 * a token store keeps them out of history, messages, spans and errors, and so must yours.
 */
export interface McpStoredCredentials {
  /** The OAuth token response as issued (`access_token`, `refresh_token`, `expires_in`, …). */
  tokens?: Record<string, unknown>;
  /** When `tokens` were saved (ISO 8601): with `expires_in`, when the access token expires. */
  tokensSavedAt?: string;
  /** The client registration (dynamic registration's answer, or the CIMD client id). */
  client?: Record<string, unknown>;
  /**
   * A paused authorization waiting for its redirect (`redirect: "pause"`), kept under a key of
   * its own (derived from the `state`) so that any process can finish it.
   */
  authorization?: McpPausedAuthorizationRecord;
}

/**
 * What a paused authorization keeps in the token store until `finishMcpAuthorization` takes it:
 * enough for another process to exchange the code. The PKCE verifier is a secret.
 */
export interface McpPausedAuthorizationRecord {
  /** The server's name in `mcpServers`. */
  server: string;
  /** The server's URL (the credentials' key is derived from it). */
  serverUrl: string;
  /** The redirect URI sent in the authorization request (the token request repeats it). */
  redirectUri: string;
  /** The PKCE code verifier. */
  codeVerifier: string;
  /** When the pause was recorded (ISO 8601). */
  createdAt: string;
  /** After this instant (ISO 8601) the authorization can no longer be finished. */
  expiresAt: string;
  /** The discovery the authorization request was built from (the token request uses the same endpoints). */
  discovery?: Record<string, unknown>;
}

/**
 * Where OAuth credentials are kept between runs and shared by processes: a file, or a database a
 * fleet shares (see `createMcpTokenStore`). Keys are opaque strings naming a server and client.
 */
export interface McpTokenStore {
  load(key: string): Promise<McpStoredCredentials | undefined>;
  save(key: string, credentials: McpStoredCredentials): Promise<void>;
  delete(key: string): Promise<void>;
  /**
   * Loads and deletes `key` at once, so that of two processes taking the same key only one gets
   * it (a paused authorization is finished once). Optional: without it, `load` then `delete`.
   */
  take?(key: string): Promise<McpStoredCredentials | undefined>;
}

/**
 * An object implementing the MCP SDK's `OAuthClientProvider` (from
 * `@modelcontextprotocol/sdk/client/auth.js`), used as it is. Typed by the members every provider
 * has, so that these types do not need the SDK.
 */
export interface McpOAuthClientProvider {
  readonly redirectUrl: string | URL | undefined;
  readonly clientMetadata: object;
  clientInformation(): unknown;
  tokens(): unknown;
  saveTokens(tokens: any): unknown;
  redirectToAuthorization(authorizationUrl: URL): unknown;
  saveCodeVerifier(codeVerifier: string): unknown;
  codeVerifier(): unknown;
}

/** A client that authenticates with a signed JWT (`private_key_jwt`, RFC 7523) instead of a secret. */
export interface McpPrivateKeyJwt {
  /** The private key: PEM (PKCS #8), or a JWK object. */
  privateKey: string | Record<string, unknown>;
  /** The signing algorithm, e.g. `"ES256"` or `"RS256"`. */
  algorithm: string;
}

/**
 * OAuth 2.1 for an `http` server, as the MCP authorization spec has it: the server's protected
 * resource metadata and its authorization server's metadata are discovered (with the older
 * fallbacks), the client is identified by a client ID metadata document (`clientMetadataUrl`), a
 * pre-registered `clientId`, or dynamic registration, in that order of preference; the code flow
 * uses PKCE and the `resource` parameter; scopes come from the server's `WWW-Authenticate`, and a
 * 403 `insufficient_scope` asks for more (step-up). Access tokens are refreshed when they expire.
 *
 * The token requests use the authentication method the authorization server offers
 * (`client_secret_basic`, `client_secret_post`, `none`, or `private_key_jwt` with `privateKeyJwt`).
 */
export interface McpHttpAuth {
  /** A pre-registered client's id (no registration then). */
  clientId?: string;
  /** The pre-registered client's secret. Never reported, stored in history or sent to the model. */
  clientSecret?: string;
  /** An HTTPS URL of this client's metadata document (CIMD), used as its client id where the server supports it. */
  clientMetadataUrl?: string;
  /** Scopes to ask for when neither the server's challenge nor its metadata names any. */
  scopes?: string[];
  /**
   * `authorization_code` (a person authorizes in a browser; the default) or `client_credentials`
   * (a headless worker with its own credentials: `clientId` with `clientSecret` or `privateKeyJwt`).
   * @default "authorization_code"
   */
  grant?: "authorization_code" | "client_credentials";
  /**
   * Shows the authorization URL to the person who authorizes (opens a browser, prints it, sends it
   * to a UI). The authorization server redirects their browser to a loopback listener this client
   * opens (`redirectUri`), which receives the code. Default: the URL is printed on stderr.
   *
   * `"pause"` (a server app: a web handler, a queue worker): nothing listens and nothing waits.
   * Connecting stops at the authorization; an agent's query ends `requires_input` with a
   * `pending_inputs` entry of `kind: "authorization"` whose `url` is the authorization URL. The
   * person's browser comes back to `redirectUri` — a route of the app — which calls
   * `finishMcpAuthorization` (any process: the PKCE verifier and state are kept in `tokenStore`,
   * which is then required); the answer `{ action: "accept" }` (or the next prompt) continues.
   */
  redirect?: ((authorizationUrl: URL) => Promise<void>) | "pause";
  /**
   * The redirect URI: an `http://127.0.0.1:<port>/<path>` (or `localhost`) address where this
   * client listens for the redirect. Default: `http://127.0.0.1:<a free port>/callback`.
   * With `redirect: "pause"`: the app's own callback route (`https://app.example.com/oauth/callback`),
   * required.
   */
  redirectUri?: string;
  /**
   * With `redirect: "pause"`: how long the person has to authorize and the app to finish
   * (`finishMcpAuthorization`) before the kept state is refused. @default 600000 (10 minutes)
   */
  stateTtlMs?: number;
  /** The client's name in dynamic registration. @default "agent-lattice" */
  clientName?: string;
  /** Authenticate the client with a signed JWT (`private_key_jwt`). */
  privateKeyJwt?: McpPrivateKeyJwt;
  /** Where tokens and the registration are kept. Default: memory, for this connection only. */
  tokenStore?: McpTokenStore;
  /**
   * Ends a wait for the person (Ctrl-C in a command line): connecting then fails with the signal's
   * reason (an `Error`'s message) and the loopback listener closes. Tokens already kept stay kept.
   */
  signal?: AbortSignal;
}
