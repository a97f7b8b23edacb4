/**
 * The default token store: memory, for one connection's life.
 * @module
 */
import type { McpStoredCredentials, McpTokenStore } from "./auth-options";
import { isPausedAuthorizationKey, pauseExpiry } from "./expired-pauses";

/**
 * A token store in memory (copies in and out, so a caller cannot change what is kept). Like the
 * built-in stores, it deletes the expired paused authorizations when a pause is recorded.
 */
export function createMemoryTokenStore(): McpTokenStore {
  const kept = new Map<string, string>();
  /** The paused authorizations' expiries (token records have none). */
  const expiries = new Map<string, number>();
  const forget = (key: string) => {
    kept.delete(key);
    expiries.delete(key);
  };
  const sweep = (recorded: string, now = Date.now()) => {
    for (const [key, expiry] of expiries) if (key !== recorded && expiry <= now) forget(key);
  };
  return {
    load: async (key) => {
      const text = kept.get(key);
      return text === undefined ? undefined : (JSON.parse(text) as McpStoredCredentials);
    },
    save: async (key, credentials) => {
      kept.set(key, JSON.stringify(credentials));
      const expiry = pauseExpiry(key, credentials);
      if (expiry === undefined) expiries.delete(key);
      else expiries.set(key, expiry);
      if (isPausedAuthorizationKey(key)) sweep(key);
    },
    delete: async (key) => forget(key),
    take: async (key) => {
      const text = kept.get(key);
      forget(key);
      return text === undefined ? undefined : (JSON.parse(text) as McpStoredCredentials);
    },
  };
}
