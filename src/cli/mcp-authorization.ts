/**
 * OAuth for the `--mcp` servers on the command line. Every `http` server gets `auth` (unless its
 * file says `"auth": false` or sends its own `Authorization` header): when it answers 401, the
 * client opens a loopback listener on 127.0.0.1 (an ephemeral port) as the redirect URI, and the
 * command prints the authorization URL — and opens it with `--mcp-browser`. The redirect's code is
 * taken only with the `state` the request carried, exchanged for tokens (kept in the token file,
 * mode 0600, so the next run needs no browser), and the listener closes. Ctrl-C ends the wait;
 * `connectTimeoutMs` bounds it (default five minutes), with a message that says what happened.
 * @module
 */
import { spawn } from "node:child_process";
import { homedir } from "node:os";
import path from "node:path";
import type { McpServerConfig } from "../integrations/mcp/config";
import type { McpHttpAuth, McpTokenStore } from "../integrations/mcp/oauth/auth-options";
import { createMcpTokenStore } from "../integrations/mcp/oauth/token-stores";

/** What the command's MCP authorization needs. */
export interface CliMcpAuthorizationOptions {
  /** `--mcp-tokens`: the token file. Default: {@link defaultMcpTokenFile}. */
  tokenFile: string;
  /** `--mcp-browser`: open the authorization URL in the browser as well as printing it. */
  openBrowser: boolean;
  /** Says a line to the person (stderr, without breaking the answer). */
  notice(text: string): void;
}

/** The servers with `auth` added, and the Ctrl-C that ends a wait for the person. */
export interface CliMcpAuthorization {
  servers: Record<string, McpServerConfig>;
  /**
   * Ends every wait for an authorization redirect (connecting those servers then fails with
   * `reason`); returns whether one was waiting. Authorizations asked for later fail at once too.
   */
  cancel(reason: string): boolean;
  /** Whether an authorization URL was shown and its redirect has not come back. */
  readonly waiting: boolean;
}

/** `$XDG_CONFIG_HOME/agent-lattice/mcp-tokens.json`, else `~/.config/agent-lattice/mcp-tokens.json`. */
export function defaultMcpTokenFile(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CONFIG_HOME?.trim() ? env.XDG_CONFIG_HOME : path.join(homedir(), ".config");
  return path.join(base, "agent-lattice", "mcp-tokens.json");
}

/** Adds the command line's OAuth to the `http` servers of `servers`. */
export function withCliAuthorization(
  servers: Record<string, McpServerConfig>,
  options: CliMcpAuthorizationOptions,
): CliMcpAuthorization {
  const cancelled = new AbortController();
  const file = createMcpTokenStore({ path: options.tokenFile });
  /** Servers whose authorization URL was shown; tokens saved end the wait. */
  const pending = new Set<string>();
  const tokenStore: McpTokenStore = {
    load: (key) => file.load(key),
    delete: (key) => file.delete(key),
    save: async (key, credentials) => {
      await file.save(key, credentials);
      if (credentials.tokens) pending.clear();
    },
  };
  const withAuth: Record<string, McpServerConfig> = {};
  for (const [name, config] of Object.entries(servers)) {
    if (config.type !== "http" || (config.auth as unknown) === false || hasAuthorizationHeader(config)) {
      const { auth: _none, ...rest } = config as McpServerConfig & { auth?: unknown };
      withAuth[name] = (config.type === "http" ? rest : config) as McpServerConfig;
      continue;
    }
    const redirect = async (authorizationUrl: URL) => {
      pending.add(name);
      options.notice(
        `MCP server "${name}" needs authorization. Open this URL in a browser ` +
          `(waiting up to ${Math.round((config.connectTimeoutMs ?? 300_000) / 1000)} s; Ctrl-C cancels):\n` +
          authorizationUrl.toString(),
      );
      if (options.openBrowser) openInBrowser(authorizationUrl.toString());
    };
    const auth: McpHttpAuth = {
      ...(config.auth as McpHttpAuth | undefined),
      redirect,
      tokenStore,
      signal: cancelled.signal,
    };
    withAuth[name] = { ...config, auth };
  }
  return {
    servers: withAuth,
    cancel: (reason) => {
      if (pending.size === 0 || cancelled.signal.aborted) return false;
      cancelled.abort(new Error(reason));
      return true;
    },
    get waiting() {
      return pending.size > 0 && !cancelled.signal.aborted;
    },
  };
}

function hasAuthorizationHeader(config: McpServerConfig): boolean {
  const headers = config.type === "http" ? (config.headers ?? {}) : {};
  return Object.keys(headers).some((key) => key.toLowerCase() === "authorization");
}

/** Opens `url` with the platform's opener (`$BROWSER` first); a missing opener is no error: the URL is printed. */
function openInBrowser(url: string): void {
  const opener =
    process.env.BROWSER ||
    (process.platform === "darwin" ? "open" : process.platform === "win32" ? "explorer" : "xdg-open");
  const child = spawn(opener, [url], { stdio: "ignore", detached: true });
  child.on("error", () => {});
  child.unref();
}
