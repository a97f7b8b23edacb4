/**
 * Loads the OAuth half of `@modelcontextprotocol/sdk` on demand: only a server with `auth` pays
 * for it.
 * @module
 */

import type {
  auth,
  extractWWWAuthenticateParams,
  UnauthorizedError,
} from "@modelcontextprotocol/sdk/client/auth.js";
import type { createPrivateKeyJwtAuth } from "@modelcontextprotocol/sdk/client/auth-extensions.js";

/** The parts of the SDK's OAuth client the connector uses. */
export interface McpAuthSdk {
  auth: typeof auth;
  extractWWWAuthenticateParams: typeof extractWWWAuthenticateParams;
  UnauthorizedError: typeof UnauthorizedError;
  createPrivateKeyJwtAuth: typeof createPrivateKeyJwtAuth;
}

let loading: Promise<McpAuthSdk> | undefined;

/** Imports the SDK's OAuth client once (the client SDK is known to be installed by then). */
export function loadMcpAuthSdk(): Promise<McpAuthSdk> {
  loading ??= Promise.all([
    import("@modelcontextprotocol/sdk/client/auth.js"),
    import("@modelcontextprotocol/sdk/client/auth-extensions.js"),
  ]).then(
    ([authModule, extensions]) => ({
      auth: authModule.auth,
      extractWWWAuthenticateParams: authModule.extractWWWAuthenticateParams,
      UnauthorizedError: authModule.UnauthorizedError,
      createPrivateKeyJwtAuth: extensions.createPrivateKeyJwtAuth,
    }),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
