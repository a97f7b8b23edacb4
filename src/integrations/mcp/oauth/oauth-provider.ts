/**
 * Our `OAuthClientProvider` for the MCP SDK's `auth()`: the `auth` option of an `http` server as
 * the SDK's flow needs it — client identity (pre-registered, CIMD, or registered on the fly), the
 * loopback redirect, PKCE verifier, `client_credentials`, `private_key_jwt` — with tokens and the
 * registration kept in a {@link McpTokenStore}. The flow itself (discovery, registration, PKCE,
 * the `resource` parameter, scope selection, refresh, token endpoint authentication) is the SDK's.
 * @module
 */
import { randomBytes } from "node:crypto";
import type {
  AddClientAuthentication,
  OAuthClientProvider,
  OAuthDiscoveryState,
} from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import {
  DEFAULT_MCP_AUTHORIZATION_STATE_TTL_MS,
  type McpHttpAuth,
  type McpStoredCredentials,
  type McpTokenStore,
} from "./auth-options";
import type { LoopbackRedirect } from "./loopback-redirect";
import { createMemoryTokenStore } from "./memory-token-store";
import { recordPausedAuthorization } from "./paused-authorization";

/** Refresh this long before the access token's stated expiry, for clock skew and the request's own time. */
const EXPIRY_MARGIN_MS = 30_000;

/** What a provider needs besides the `auth` option. */
export interface LatticeOAuthProviderOptions {
  /** The server's name in `mcpServers`, for the default redirect's message. */
  serverName: string;
  /** The server URL: with the client, the key of the stored credentials. */
  serverUrl: string;
  auth: McpHttpAuth;
  /** The loopback listener of the code flow (absent for `client_credentials`). */
  listener?: LoopbackRedirect;
  /** `private_key_jwt` client authentication (the SDK's `createPrivateKeyJwtAuth`). */
  addClientAuthentication?: AddClientAuthentication;
}

/** An authorization this provider paused on (`redirect: "pause"`): the URL the person should open. */
export interface PausedAuthorization {
  url: string;
  /** When the kept state expires (ISO 8601). */
  expiresAt: string;
}

/** The provider behind an `auth` option. */
export class LatticeOAuthProvider implements OAuthClientProvider {
  readonly addClientAuthentication?: AddClientAuthentication;
  private readonly store: McpTokenStore;
  private readonly key: string;
  private credentials: McpStoredCredentials | undefined;
  private verifier: string | undefined;
  private discovery: OAuthDiscoveryState | undefined;
  private pendingCode: Promise<string> | undefined;
  /** Whether the authorization URL was shown and no redirect brought its code back (yet). */
  waitingForPerson = false;
  /** With `redirect: "pause"`: the authorization recorded for another process to finish. */
  paused: PausedAuthorization | undefined;

  constructor(private readonly options: LatticeOAuthProviderOptions) {
    this.store = options.auth.tokenStore ?? createMemoryTokenStore();
    const client = options.auth.clientId ?? options.auth.clientMetadataUrl ?? "registered";
    this.key = `${options.serverUrl} ${client}`;
    if (options.addClientAuthentication) this.addClientAuthentication = options.addClientAuthentication;
  }

  get redirectUrl(): string | undefined {
    const { auth, listener } = this.options;
    if (auth.grant === "client_credentials") return undefined;
    return auth.redirect === "pause" ? auth.redirectUri : listener?.url;
  }

  /** Whether an authorization pauses (`redirect: "pause"`) rather than waits for a loopback redirect. */
  get pauses(): boolean {
    return this.options.auth.redirect === "pause";
  }

  get clientMetadataUrl(): string | undefined {
    return this.options.auth.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const { auth } = this.options;
    const headless = auth.grant === "client_credentials";
    const method = auth.privateKeyJwt
      ? "private_key_jwt"
      : auth.clientSecret
        ? "client_secret_basic"
        : "none";
    return {
      client_name: auth.clientName ?? "agent-lattice",
      redirect_uris: this.redirectUrl ? [this.redirectUrl] : [],
      grant_types: headless ? ["client_credentials"] : ["authorization_code", "refresh_token"],
      response_types: headless ? [] : ["code"],
      token_endpoint_auth_method: method,
      ...(auth.scopes?.length ? { scope: auth.scopes.join(" ") } : {}),
    };
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const { clientId, clientSecret } = this.options.auth;
    if (clientId !== undefined)
      return { client_id: clientId, ...(clientSecret ? { client_secret: clientSecret } : {}) };
    return (await this.load()).client as OAuthClientInformationMixed | undefined;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    await this.update({ client: { ...client } });
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    return (await this.load()).tokens as OAuthTokens | undefined;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.update({ tokens: { ...tokens }, tokensSavedAt: new Date().toISOString() });
  }

  state(): string {
    return randomBytes(16).toString("base64url");
  }

  /**
   * Starts waiting for the redirect, then shows the URL (the `redirect` option, or stderr). With
   * `redirect: "pause"`, records the authorization in the token store instead (see {@link paused}).
   */
  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (this.pauses) return this.recordPause(authorizationUrl);
    const { listener, auth, serverName } = this.options;
    if (!listener)
      throw new Error(
        "This client has no redirect listener: the client_credentials grant cannot ask a person.",
      );
    await listener.ready();
    const pending = listener.waitForCode(authorizationUrl.searchParams.get("state") ?? "");
    this.pendingCode = pending;
    this.waitingForPerson = true;
    // A code came back; a wait that ended otherwise (aborted, replaced) leaves the person pending.
    pending.then(
      () => void (this.waitingForPerson = false),
      () => {},
    );
    const show = typeof auth.redirect === "function" ? auth.redirect : printAuthorizationUrl(serverName);
    await show(authorizationUrl);
  }

  /** Keeps what finishing needs (verifier, redirect URI, discovery) under the request's `state`. */
  private async recordPause(authorizationUrl: URL): Promise<void> {
    const state = authorizationUrl.searchParams.get("state");
    if (!state || this.verifier === undefined)
      throw new Error("The authorization request has no state or PKCE verifier: it cannot pause.");
    const now = Date.now();
    const expiresAt = new Date(
      now + (this.options.auth.stateTtlMs ?? DEFAULT_MCP_AUTHORIZATION_STATE_TTL_MS),
    ).toISOString();
    await recordPausedAuthorization(this.store, state, {
      server: this.options.serverName,
      serverUrl: this.options.serverUrl,
      redirectUri: this.redirectUrl!,
      codeVerifier: this.verifier,
      createdAt: new Date(now).toISOString(),
      expiresAt,
      ...(this.discovery
        ? { discovery: structuredClone(this.discovery) as unknown as Record<string, unknown> }
        : {}),
    });
    this.paused = { url: authorizationUrl.toString(), expiresAt };
  }

  /** The code of the redirect the last `redirectToAuthorization` waits for; `signal` ends the wait. */
  async authorizationCode(signal?: AbortSignal): Promise<string> {
    const pending = this.pendingCode;
    if (!pending) throw new Error("No authorization is in progress.");
    this.pendingCode = undefined;
    if (!signal) return pending;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const { reason } = signal;
        reject(
          reason instanceof Error && !(reason instanceof DOMException)
            ? reason
            : new Error("Waiting for the authorization redirect was aborted."),
        );
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      pending.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
    });
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined)
      throw new Error("No PKCE code verifier was saved for this authorization.");
    return this.verifier;
  }

  /** The `client_credentials` grant's token request; `undefined` lets the SDK use the code flow's. */
  prepareTokenRequest(scope?: string): URLSearchParams | undefined {
    if (this.options.auth.grant !== "client_credentials") return undefined;
    const params = new URLSearchParams({ grant_type: "client_credentials" });
    const wanted = scope ?? this.options.auth.scopes?.join(" ");
    if (wanted) params.set("scope", wanted);
    return params;
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    if (scope === "all" || scope === "verifier") this.verifier = undefined;
    if (scope === "all" || scope === "discovery") this.discovery = undefined;
    if (scope === "all")
      await this.update({ tokens: undefined, tokensSavedAt: undefined, client: undefined });
    if (scope === "tokens") await this.update({ tokens: undefined, tokensSavedAt: undefined });
    if (scope === "client") await this.update({ client: undefined });
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  /** Whether the stored access token has passed its stated expiry (less a margin) and can be refreshed. */
  async needsRefresh(now = Date.now()): Promise<boolean> {
    const { tokens, tokensSavedAt } = await this.load();
    const lifetime = Number(tokens?.expires_in);
    if (!tokens?.refresh_token || !tokensSavedAt || !Number.isFinite(lifetime)) return false;
    return Date.parse(tokensSavedAt) + lifetime * 1000 - EXPIRY_MARGIN_MS <= now;
  }

  /** Every secret this provider knows (tokens, client secret, verifier), to redact from what we report. */
  secrets(): string[] {
    const { tokens, client } = this.credentials ?? {};
    const values = [tokens?.access_token, tokens?.refresh_token, tokens?.id_token, client?.client_secret];
    values.push(this.options.auth.clientSecret, this.verifier);
    return values.filter((value): value is string => typeof value === "string");
  }

  private async load(): Promise<McpStoredCredentials> {
    this.credentials ??= (await this.store.load(this.key)) ?? {};
    return this.credentials;
  }

  private async update(change: Partial<McpStoredCredentials>): Promise<void> {
    const next = { ...(await this.load()), ...change };
    for (const key of Object.keys(next) as Array<keyof McpStoredCredentials>) {
      if (next[key] === undefined) delete next[key];
    }
    this.credentials = next;
    if (Object.keys(next).length === 0) await this.store.delete(this.key);
    else await this.store.save(this.key, next);
  }
}

/** The default `redirect`: says on stderr which URL to open. */
function printAuthorizationUrl(serverName: string): (authorizationUrl: URL) => Promise<void> {
  return async (authorizationUrl) => {
    process.stderr.write(
      `The MCP server "${serverName}" needs authorization. Open this URL in a browser:\n${authorizationUrl}\n`,
    );
  };
}
