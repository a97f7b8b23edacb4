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
  const read = (key: string) => {
    const text = kept.get(key);
    return text === undefined ? undefined : (JSON.parse(text) as McpStoredCredentials);
  };
  const sweep = (recorded: string, now = Date.now()) => {
    for (const key of [...kept.keys()]) {
      const expiry = key === recorded ? undefined : pauseExpiry(key, read(key));
      if (expiry !== undefined && expiry <= now) kept.delete(key);
    }
  };
  return {
    load: async (key) => read(key),
    save: async (key, credentials) => {
      kept.set(key, JSON.stringify(credentials));
      if (isPausedAuthorizationKey(key)) sweep(key);
    },
    delete: async (key) => {
      kept.delete(key);
    },
    take: async (key) => {
      const taken = read(key);
      kept.delete(key);
      return taken;
    },
  };
}
