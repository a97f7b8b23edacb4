/**
 * Expired paused authorizations, swept from the built-in token stores: a pause nobody finished
 * (the person closed the tab) is deleted once its `expiresAt` passed, so that a store shared by a
 * hosted app's many users does not grow without bound. Each store sweeps when a pause is recorded
 * (Redis lets the key expire instead); a sweep deletes paused authorizations only — a token record
 * (any other key) is never touched — and never the pause being recorded.
 *
 * A callback that comes after `expiresAt` is refused either way: `expired` while the record is
 * still there, `unknown_state` once it was swept.
 * @module
 */
import type { McpStoredCredentials } from "./auth-options";
import { PAUSED_AUTHORIZATION_KEY_PREFIX } from "./paused-authorization";

/** Whether `key` names a paused authorization (not a token record). */
export function isPausedAuthorizationKey(key: string): boolean {
  return key.startsWith(PAUSED_AUTHORIZATION_KEY_PREFIX);
}

/**
 * When the paused authorization kept as `credentials` under `key` expires (milliseconds since the
 * epoch); undefined for a token record, or an expiry that cannot be read (kept, not guessed at).
 */
export function pauseExpiry(key: string, credentials: McpStoredCredentials | undefined): number | undefined {
  if (!isPausedAuthorizationKey(key)) return undefined;
  const expiresAt = credentials?.authorization?.expiresAt;
  const expiry = typeof expiresAt === "string" ? Date.parse(expiresAt) : Number.NaN;
  return Number.isFinite(expiry) ? expiry : undefined;
}

/** Deletes from `all` the paused authorizations other than `recorded` whose expiry passed. */
export function dropExpiredPauses(
  all: Record<string, McpStoredCredentials>,
  recorded: string,
  now = Date.now(),
): void {
  for (const [key, credentials] of Object.entries(all)) {
    const expiry = pauseExpiry(key, credentials);
    if (key !== recorded && expiry !== undefined && expiry <= now) delete all[key];
  }
}

/**
 * PostgreSQL: saves `$1` = `$2` and deletes the other paused authorizations whose `expiresAt` is
 * at or before `$3` (ISO 8601, UTC — the form the SDK writes, so text order is time order), in one
 * statement. The JSON is read from paused rows only, as `json` (which takes any text `jsonb` would
 * refuse); the table keeps its columns.
 */
export function postgresSaveSweepingSql(table: string): string {
  const isPause = `key LIKE '${PAUSED_AUTHORIZATION_KEY_PREFIX}%'`;
  return [
    `WITH swept AS (DELETE FROM ${table} WHERE ${isPause} AND key <> $1`,
    `AND CASE WHEN ${isPause} THEN (credentials::json #>> '{authorization,expiresAt}') COLLATE "C" <= $3 ELSE false END)`,
    `INSERT INTO ${table} (key, credentials) VALUES ($1, $2)`,
    "ON CONFLICT (key) DO UPDATE SET credentials = EXCLUDED.credentials",
  ].join(" ");
}

/**
 * SQLite: deletes the paused authorizations other than the first parameter (the key recorded)
 * whose `expiresAt` is at or before the second (ISO 8601 text, compared as text), found by a key
 * range the primary key's index serves.
 */
export function sqliteSweepSql(table: string): string {
  const prefix = PAUSED_AUTHORIZATION_KEY_PREFIX;
  // Every key starting with the prefix sorts between it and the prefix with its last character
  // (a space) raised by one: SQLite's default collation compares bytes.
  const after = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  return [
    `DELETE FROM ${table} WHERE key >= '${prefix}' AND key < '${after}' AND key <> ?`,
    "AND CASE WHEN json_valid(credentials) THEN json_extract(credentials, '$.authorization.expiresAt') <= ? ELSE 0 END",
  ].join(" ");
}
