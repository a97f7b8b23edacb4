/**
 * `createMcpTokenStore`: where OAuth credentials of MCP servers are kept — a file (mode 0600), or
 * a database a fleet shares (Redis, PostgreSQL, SQLite), on a client the caller opened and closes.
 * @module
 */
import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { InvalidOptionError } from "../../../errors";
import { createFileWriteLock } from "../../../history/store-kit/file-write-lock";
import { SerialQueue } from "../../../shared/serial-queue";
import type { McpStoredCredentials, McpTokenStore } from "./auth-options";
import {
  dropExpiredPauses,
  isPausedAuthorizationKey,
  pauseExpiry,
  postgresSaveSweepingSql,
  sqliteSweepSql,
} from "./expired-pauses";

/**
 * The Redis commands the store uses (an `ioredis` client fits). A paused authorization is saved
 * with `PX` (it expires with the pause): an adapter should pass those arguments on.
 */
export interface McpTokenRedisClient {
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<unknown>;
  set(key: string, value: string, expiry: "PX", milliseconds: number): Promise<unknown>;
  del(key: string): Promise<unknown>;
}

/** The PostgreSQL call the store uses (a `pg` Pool or Client fits). */
export interface McpTokenPostgresClient {
  query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
}

/** The SQLite calls the store uses (a `better-sqlite3` Database fits). */
export interface McpTokenSqliteDatabase {
  exec(sql: string): unknown;
  prepare(sql: string): { get(...values: unknown[]): unknown; run(...values: unknown[]): unknown };
}

/** Options of {@link createMcpTokenStore}: exactly one place to keep credentials. */
export type McpTokenStoreOptions =
  | { path: string }
  | { redis: McpTokenRedisClient; keyPrefix?: string }
  | { postgres: McpTokenPostgresClient; table?: string }
  | { sqlite: McpTokenSqliteDatabase; table?: string };

/** A token file lock older than this is taken as abandoned (its holder crashed mid-write). */
const FILE_LOCK_STALE_MS = 10_000;

/** The default Redis key prefix. */
export const DEFAULT_MCP_TOKEN_KEY_PREFIX = "agent-lattice:mcp-oauth:";

/** The default table of the SQL stores. */
export const DEFAULT_MCP_TOKEN_TABLE = "agent_lattice_mcp_oauth";

/**
 * A token store for `auth.tokenStore`: credentials survive a restart and are shared by every
 * process that opens the same file or database. What it keeps are secrets (access and refresh
 * tokens, a registered client's secret): the file is created readable by its owner only, and a
 * database should be as well guarded.
 *
 * A paused authorization (`redirect: "pause"`) nobody finished is deleted once it expired: Redis
 * keeps its key with an expiry; the file and the SQL tables delete the expired ones when the next
 * pause is recorded. Token records are never deleted but by the SDK's own `delete`.
 *
 * @example
 * const tokenStore = createMcpTokenStore({ path: `${os.homedir()}/.config/my-agent/mcp-tokens.json` });
 * const agent = createAgent({ model, mcpServers: { crm: { type: "http", url, auth: { tokenStore } } } });
 * @throws InvalidOptionError for options naming no place, or more than one
 */
export function createMcpTokenStore(options: McpTokenStoreOptions): McpTokenStore {
  const kinds = ["path", "redis", "postgres", "sqlite"].filter((kind) => kind in (options ?? {}));
  if (kinds.length !== 1) {
    throw new InvalidOptionError("createMcpTokenStore takes exactly one of path, redis, postgres or sqlite.");
  }
  if ("path" in options) return fileTokenStore(options.path);
  if ("redis" in options)
    return redisTokenStore(options.redis, options.keyPrefix ?? DEFAULT_MCP_TOKEN_KEY_PREFIX);
  const table = tableName(options.table ?? DEFAULT_MCP_TOKEN_TABLE);
  return "postgres" in options
    ? postgresTokenStore(options.postgres, table)
    : sqliteTokenStore(options.sqlite, table);
}

function tableName(table: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(table)) {
    throw new InvalidOptionError(
      "The token store's table must be a plain SQL identifier (letters, digits, _).",
    );
  }
  return table;
}

function parse(text: unknown): McpStoredCredentials | undefined {
  return typeof text === "string" ? (JSON.parse(text) as McpStoredCredentials) : undefined;
}

/** A JSON file of every key's credentials, rewritten whole (temporary file, then rename). */
function fileTokenStore(path: string): McpTokenStore {
  const writes = new SerialQueue();
  const readAll = async (): Promise<Record<string, McpStoredCredentials>> => {
    try {
      return JSON.parse(await readFile(path, "utf8"));
    } catch (error) {
      if ((error as { code?: string }).code === "ENOENT") return {};
      throw new Error("The MCP token file could not be read (it is not valid JSON).");
    }
  };
  // Every process writing the file takes its lock: a change is read, edited and renamed in place
  // by one writer at a time, so none is lost and a taken key is taken once.
  const lock = createFileWriteLock(`${path}.lock`, FILE_LOCK_STALE_MS);
  const change = (edit: (all: Record<string, McpStoredCredentials>) => void) => {
    return writes.run(async () => {
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      await lock.hold(() => rewrite(edit));
    });
  };
  const rewrite = async (edit: (all: Record<string, McpStoredCredentials>) => void) => {
    const all = await readAll();
    edit(all);
    const temporary = `${path}.${randomBytes(6).toString("hex")}.tmp`;
    await writeFile(temporary, JSON.stringify(all), { mode: 0o600 });
    await chmod(temporary, 0o600);
    await rename(temporary, path).catch(async (error) => {
      await rm(temporary, { force: true });
      throw error;
    });
  };
  return {
    load: async (key) => (await readAll())[key],
    save: (key, credentials) =>
      change((all) => {
        all[key] = credentials;
        if (isPausedAuthorizationKey(key)) dropExpiredPauses(all, key);
      }),
    delete: (key) => change((all) => void delete all[key]),
    // Atomic among every process's writers (the file is rewritten whole under its lock).
    take: async (key) => {
      let taken: McpStoredCredentials | undefined;
      await change((all) => {
        taken = all[key];
        delete all[key];
      });
      return taken;
    },
  };
}

function redisTokenStore(redis: McpTokenRedisClient, prefix: string): McpTokenStore {
  return {
    load: async (key) => parse(await redis.get(prefix + key)),
    // A pause expires with its key (PX: a duration, so the app's and Redis's clocks need not agree).
    save: async (key, credentials) => {
      const expiry = pauseExpiry(key, credentials);
      const text = JSON.stringify(credentials);
      if (expiry === undefined) await redis.set(prefix + key, text);
      else await redis.set(prefix + key, text, "PX", Math.max(1, Math.ceil(expiry - Date.now())));
    },
    delete: async (key) => void (await redis.del(prefix + key)),
    // Of two takers, only the one whose DEL removed the key gets it.
    take: async (key) => {
      const text = await redis.get(prefix + key);
      if (text === null) return undefined;
      return Number(await redis.del(prefix + key)) === 1 ? parse(text) : undefined;
    },
  };
}

function postgresTokenStore(client: McpTokenPostgresClient, table: string): McpTokenStore {
  let schema: Promise<unknown> | undefined;
  const ready = () => {
    schema ??= client
      .query(`CREATE TABLE IF NOT EXISTS ${table} (key text PRIMARY KEY, credentials text NOT NULL)`)
      .catch((error) => {
        schema = undefined;
        throw error;
      });
    return schema;
  };
  return {
    load: async (key) => {
      await ready();
      const { rows } = await client.query(`SELECT credentials FROM ${table} WHERE key = $1`, [key]);
      return parse(rows[0]?.credentials);
    },
    save: async (key, credentials) => {
      await ready();
      const text = JSON.stringify(credentials);
      if (isPausedAuthorizationKey(key)) {
        await client.query(postgresSaveSweepingSql(table), [key, text, new Date().toISOString()]);
        return;
      }
      await client.query(
        `INSERT INTO ${table} (key, credentials) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET credentials = EXCLUDED.credentials`,
        [key, text],
      );
    },
    delete: async (key) => {
      await ready();
      await client.query(`DELETE FROM ${table} WHERE key = $1`, [key]);
    },
    take: async (key) => {
      await ready();
      const { rows } = await client.query(`DELETE FROM ${table} WHERE key = $1 RETURNING credentials`, [key]);
      return parse(rows[0]?.credentials);
    },
  };
}

function sqliteTokenStore(database: McpTokenSqliteDatabase, table: string): McpTokenStore {
  let ready = false;
  const prepared = () => {
    if (!ready)
      database.exec(`CREATE TABLE IF NOT EXISTS ${table} (key TEXT PRIMARY KEY, credentials TEXT NOT NULL)`);
    ready = true;
    return database;
  };
  return {
    load: async (key) => {
      const row = prepared().prepare(`SELECT credentials FROM ${table} WHERE key = ?`).get(key) as
        | { credentials?: unknown }
        | undefined;
      return parse(row?.credentials);
    },
    save: async (key, credentials) => {
      prepared()
        .prepare(
          `INSERT INTO ${table} (key, credentials) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET credentials = excluded.credentials`,
        )
        .run(key, JSON.stringify(credentials));
      if (isPausedAuthorizationKey(key))
        prepared().prepare(sqliteSweepSql(table)).run(key, new Date().toISOString());
    },
    delete: async (key) => {
      prepared().prepare(`DELETE FROM ${table} WHERE key = ?`).run(key);
    },
    // A read and a delete in one statement: SQLite serializes writers, so one taker gets the row.
    take: async (key) => {
      const row = prepared().prepare(`DELETE FROM ${table} WHERE key = ? RETURNING credentials`).get(key) as
        | { credentials?: unknown }
        | undefined;
      return parse(row?.credentials);
    },
  };
}
