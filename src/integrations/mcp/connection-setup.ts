/**
 * What a server connection checks and prepares before it connects (its timeouts, an `http`
 * server's authorization), and how an `http` session ends.
 * @module
 */
import { InvalidOptionError } from "../../errors";
import { MAX_TIMER_MS } from "../../shared/signals";
import { settledWithin } from "./bounded-waits";
import { type ClientTransportHandle, parseUrl } from "./client-transport";
import type { McpServerConfig } from "./config";
import { type HttpAuthorization, prepareHttpAuthorization } from "./oauth/http-auth";

/** How long closing waits for an HTTP server to acknowledge the end of its session. */
const SESSION_TERMINATION_WAIT_MS = 2_000;

/** The authorization of an `http` server with `auth`; `undefined` for every other server. */
export async function authorizationOf(options: {
  name: string;
  config: McpServerConfig;
}): Promise<HttpAuthorization | undefined> {
  const { config, name } = options;
  if (config.type !== "http" || config.auth === undefined) return undefined;
  if (typeof config.auth !== "object" || config.auth === null) {
    throw new InvalidOptionError("auth must be an object: OAuth options, or an OAuthClientProvider.");
  }
  return prepareHttpAuthorization(name, parseUrl(config.url), config.auth);
}

/** Throws {@link InvalidOptionError} (the server is then reported failed) for a timeout a timer cannot keep. */
export function validateTimeouts(config: McpServerConfig): void {
  for (const key of ["connectTimeoutMs", "toolTimeoutMs"] as const) {
    const value = config[key];
    if (value === undefined) continue;
    if (!(typeof value === "number" && Number.isFinite(value) && value > 0)) {
      throw new InvalidOptionError(
        `${key} must be a positive number of milliseconds (got ${String(value)}).`,
      );
    }
    if (value > MAX_TIMER_MS) {
      throw new InvalidOptionError(
        `${key} must be at most ${MAX_TIMER_MS} ms (about 24.8 days, the longest a timer can wait), got ${value}.`,
      );
    }
  }
}

/** Ends a Streamable HTTP session politely (HTTP DELETE), so the server can free it at once. */
export async function terminateHttpSession(handle: ClientTransportHandle): Promise<void> {
  const transport = handle.transport as { sessionId?: string; terminateSession?: () => Promise<void> };
  if (typeof transport.terminateSession !== "function" || transport.sessionId === undefined) return;
  await settledWithin(transport.terminateSession(), SESSION_TERMINATION_WAIT_MS);
}
