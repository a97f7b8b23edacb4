/**
 * Sources from locations, as the CLI's `--store` takes them: a JSONL file or a folder of them,
 * `sqlite:<file>`, `postgres://…` / `postgresql://…`, `redis://…` / `rediss://…`. A database
 * location opens one connection (pool, client) shared by every conversation the studio opens;
 * options ride on the query string (`?schema=…&tablePrefix=…`, `?keyPrefix=…`, `sqlite:…?tableName=…`)
 * and are taken off the URL before it reaches the driver.
 * @module
 */

import { readdir, stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { createJsonlHistoryStore, type HistoryStore } from "../index";
import { evalRunsReader } from "./eval-runs";
import type { ConversationEntry, StudioSource } from "./source";
import { UnknownConversationError, windowVersion } from "./source";

/** A conversation id that is safe as a file name: no separators, no `..`. */
const FILE_ID = /^[\w@:+=,.-]+$/;

/** The location with its password (and any token in the query) replaced: what may be printed. */
export function locationLabel(location: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(location)) return location;
  try {
    const url = new URL(location);
    if (url.password) url.password = "***";
    for (const key of [...url.searchParams.keys()]) {
      if (/pass|token|secret|key$/i.test(key) && key !== "keyPrefix") url.searchParams.set(key, "***");
    }
    return url.toString();
  } catch {
    return "(a location that is not a valid URL)";
  }
}

/** Opens the source a location names. */
export async function locationSource(location: string): Promise<StudioSource> {
  if (/^sqlite:/i.test(location)) return sqliteSource(location.slice("sqlite:".length));
  if (/^postgres(ql)?:\/\//i.test(location)) return postgresSource(location);
  if (/^rediss?:\/\//i.test(location)) return redisSource(location);
  return jsonlSource(location);
}

async function jsonlSource(path: string): Promise<StudioSource> {
  const info = await stat(path).catch(() => undefined);
  if (info?.isFile()) return jsonlFileSource(path);
  if (!info?.isDirectory()) throw new Error(`No JSONL file or folder at ${path}.`);
  const fileOf = (conversationId: string): string => {
    if (!FILE_ID.test(conversationId) || conversationId.startsWith("."))
      throw new UnknownConversationError(conversationId);
    return join(path, `${conversationId}.jsonl`);
  };
  return {
    label: path,
    list: shortLived(async () => {
      const names = (await readdir(path)).filter((name) => name.endsWith(".jsonl"));
      const entries: ConversationEntry[] = [];
      for (const name of names) {
        const file = await stat(join(path, name)).catch(() => undefined);
        if (file?.isFile()) entries.push({ conversationId: name.slice(0, -6), updatedAt: file.mtime });
      }
      return entries.sort(byRecency);
    }),
    open: (conversationId) => createJsonlHistoryStore({ path: fileOf(conversationId) }),
    version: (conversationId) => fileVersion(fileOf(conversationId)),
    close: async () => {},
  };
}

function jsonlFileSource(path: string): StudioSource {
  const ownId = basename(path).replace(/\.jsonl$/, "");
  return {
    label: path,
    async list() {
      const file = await stat(path);
      return [{ conversationId: ownId, updatedAt: file.mtime }];
    },
    open(conversationId) {
      if (conversationId !== ownId) throw new UnknownConversationError(conversationId);
      return createJsonlHistoryStore({ path });
    },
    version: (conversationId) => (conversationId === ownId ? fileVersion(path) : Promise.resolve(undefined)),
    close: async () => {},
  };
}

/** The file's size and modification time: a write changes one of them. */
async function fileVersion(path: string): Promise<string | undefined> {
  const file = await stat(path).catch(() => undefined);
  return file ? `${file.size}:${file.mtimeMs}` : undefined;
}

/** A store factory of one database: the stores share its connection. */
interface DatabaseStores {
  label: string;
  open(conversationId: string): HistoryStore & {
    listConversations(): Promise<Array<{ conversationId: string; updatedAt: Date; messageCount: number }>>;
  };
  close(): Promise<void>;
}

/**
 * A database source: listing through any store of it; a conversation's version from a window of
 * its newest message (one small query or script, whatever the number of conversations), or — for
 * a conversation stored without messages — from the listing.
 */
function databaseSource(database: DatabaseStores): StudioSource {
  // Listing is one query whichever conversation the store is for.
  const lister = database.open("studio-listing");
  const list = shortLived(
    async (): Promise<ConversationEntry[]> => (await lister.listConversations()).sort(byRecency),
  );
  return {
    label: database.label,
    list: () => list(),
    open: (conversationId) => database.open(conversationId),
    async version(conversationId) {
      const version = await windowVersion(database.open(conversationId));
      if (!version.startsWith("0:")) return version;
      const find = (entries: ConversationEntry[]) =>
        entries.find((candidate) => candidate.conversationId === conversationId);
      // Not in the reused listing: maybe created since (a fork), so asked again.
      const entry = find(await list()) ?? find(await list(true));
      return entry ? `${entry.messageCount}:${entry.updatedAt.getTime()}` : undefined;
    },
    close: () => database.close(),
  };
}

async function sqliteSource(location: string): Promise<StudioSource> {
  const [path, query = ""] = location.split("?", 2) as [string, string?];
  const tableName = new URLSearchParams(query).get("tableName") ?? undefined;
  const { createSqliteHistoryStore } = await import("../integrations/stores/sqlite");
  const { default: Database } = await import("better-sqlite3");
  const database = new Database(path, { fileMustExist: true, timeout: 5_000 });
  const source = databaseSource({
    label: `sqlite:${path}`,
    open: (conversationId) => createSqliteHistoryStore({ database, conversationId, tableName }),
    close: async () => {
      database.close();
    },
  });
  return { ...source, evals: evalRunsReader(database) };
}

async function postgresSource(location: string): Promise<StudioSource> {
  const url = new URL(location);
  const schema = takeParameter(url, "schema");
  const tablePrefix = takeParameter(url, "tablePrefix");
  const { createPostgresHistoryStore } = await import("../integrations/stores/postgres");
  const { default: pg } = await import("pg");
  const pool = new pg.Pool({ connectionString: url.toString(), max: 4 });
  pool.on("error", () => {}); // an idle connection the server ends; the next query reconnects
  return databaseSource({
    label: locationLabel(location),
    open: (conversationId) => createPostgresHistoryStore({ pool, conversationId, schema, tablePrefix }),
    close: () => pool.end(),
  });
}

async function redisSource(location: string): Promise<StudioSource> {
  const url = new URL(location);
  const keyPrefix = takeParameter(url, "keyPrefix");
  const { createRedisHistoryStore } = await import("../integrations/stores/redis");
  const { Redis } = await import("ioredis");
  const client = new Redis(url.toString(), { maxRetriesPerRequest: 2, lazyConnect: false });
  client.on("error", () => {}); // reported through the commands that fail
  return databaseSource({
    label: locationLabel(location),
    open: (conversationId) => createRedisHistoryStore({ client, conversationId, keyPrefix }),
    close: async () => {
      await client.quit().catch(() => client.disconnect());
    },
  });
}

function takeParameter(url: URL, name: string): string | undefined {
  const value = url.searchParams.get(name) ?? undefined;
  url.searchParams.delete(name);
  return value;
}

/**
 * How long a listing is reused: the requests of a page load, and of a second, share it (a listing
 * of 10,000 conversations is a query of them all). A conversation's version does not come from it.
 */
const LISTING_REUSE_MS = 1_000;

/** `list` with its result reused for {@link LISTING_REUSE_MS} (and one call in flight at a time). */
function shortLived<T>(list: () => Promise<T>): (fresh?: boolean) => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return (fresh = false) => {
    const now = Date.now();
    if (!fresh && last && now - last.at < LISTING_REUSE_MS) return last.value;
    const value = list();
    last = { at: now, value };
    value.catch(() => {
      last = undefined;
    });
    return value;
  };
}

function byRecency(a: ConversationEntry, b: ConversationEntry): number {
  return b.updatedAt.getTime() - a.updatedAt.getTime();
}
