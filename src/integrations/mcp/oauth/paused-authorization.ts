/**
 * A paused authorization (`redirect: "pause"`) in the token store: recorded when the authorization
 * URL is made, under a key derived from its `state` (a hash: the store's keys never hold a state
 * that could finish it), and taken — read and deleted at once — by the one process that finishes it.
 * @module
 */
import { createHash } from "node:crypto";
import type { McpPausedAuthorizationRecord, McpTokenStore } from "./auth-options";

/** What every paused authorization's key starts with (token records' keys never do). */
export const PAUSED_AUTHORIZATION_KEY_PREFIX = "paused-authorization ";

/** The token store key of the paused authorization whose `state` is `state`. */
export function pausedAuthorizationKey(state: string): string {
  return PAUSED_AUTHORIZATION_KEY_PREFIX + createHash("sha256").update(state).digest("base64url");
}

/** Keeps `record` until it is taken (or expires). */
export async function recordPausedAuthorization(
  store: McpTokenStore,
  state: string,
  record: McpPausedAuthorizationRecord,
): Promise<void> {
  await store.save(pausedAuthorizationKey(state), { authorization: record });
}

/**
 * The paused authorization of `state`, removed from the store: a second take of the same state
 * (a replayed callback, another process) finds nothing.
 */
export async function takePausedAuthorization(
  store: McpTokenStore,
  state: string,
): Promise<McpPausedAuthorizationRecord | undefined> {
  const key = pausedAuthorizationKey(state);
  if (typeof store.take === "function") return (await store.take(key))?.authorization;
  const kept = await store.load(key);
  if (kept) await store.delete(key);
  return kept?.authorization;
}
