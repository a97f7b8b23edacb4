/**
 * What a server connection checks and prepares before it connects: its timeouts, and an `http`
 * server's authorization.
 * @module
 */
import { InvalidOptionError } from "../../errors";
import { MAX_TIMER_MS } from "../../shared/signals";
import { parseUrl } from "./client-transport";
import type { McpServerConfig } from "./config";
import { type HttpAuthorization, prepareHttpAuthorization } from "./oauth/http-auth";

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
