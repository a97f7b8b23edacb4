/**
 * The default token store: memory, for one connection's life.
 * @module
 */
import type { McpStoredCredentials, McpTokenStore } from "./auth-options";

/** A token store in memory (copies in and out, so a caller cannot change what is kept). */
export function createMemoryTokenStore(): McpTokenStore {
  const kept = new Map<string, string>();
  return {
    load: async (key) => {
      const text = kept.get(key);
      return text === undefined ? undefined : (JSON.parse(text) as McpStoredCredentials);
    },
    save: async (key, credentials) => {
      kept.set(key, JSON.stringify(credentials));
    },
    delete: async (key) => {
      kept.delete(key);
    },
    take: async (key) => {
      const text = kept.get(key);
      kept.delete(key);
      return text === undefined ? undefined : (JSON.parse(text) as McpStoredCredentials);
    },
  };
}
