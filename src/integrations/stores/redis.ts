/**
 * `agent-lattice/stores/redis`: conversations in Redis, on `ioredis` (an optional peer dependency,
 * imported only by this entry).
 *
 * Each conversation is two keys sharing a hash tag (so they live in one cluster slot):
 * `<prefix>{<id>}:messages`, a list of JSON messages in order, and `<prefix>{<id>}:meta`, a hash with
 * the version and timestamps. With `ttlSeconds`, every write renews both keys' expiry.
 *
 * **One writer per conversation, across processes: optimistic versioning in Lua.** Writes run as
 * scripts (atomic in Redis) that first compare the stored version with the one this store saw at
 * load; on a mismatch the script writes nothing and the store throws
 * {@link ConversationConflictError}. An append is an `RPUSH` of the new messages (O(1) per message);
 * a replace builds the new list under a temporary key and `RENAME`s it over the old one, so a failure
 * part-way leaves the old list whole.
 * @module
 */
import { createHash } from "node:crypto";
import { Redis } from "ioredis";
import { ConversationConflictError, InvalidOptionError } from "../../errors";
import {
  assertConversationId,
  type ConversationHistoryStore,
  type ConversationInfo,
  describeVersionConflict,
} from "../../history/store-kit/conversation-history-store";
import { parseStoredMessage } from "../../history/store-kit/message-codec";
import {
  borrowedResource,
  ownedResource,
  type SharedResource,
} from "../../history/store-kit/shared-resource";
import { createVersionedStoreCore, type VersionedBackend } from "../../history/store-kit/versioned-store";
import type { ModelMessage } from "../../messages/types";

export type {
  ConversationHistoryStore,
  ConversationInfo,
} from "../../history/store-kit/conversation-history-store";

/** Default prefix of every key the store writes. */
export const DEFAULT_REDIS_KEY_PREFIX = "agent-lattice:";

/** Reconnection attempts a command of a client the store opened itself waits through before it fails. */
const OWN_CLIENT_MAX_RETRIES_PER_REQUEST = 1;

/** Options of {@link createRedisHistoryStore}. Give `client` or `url`. */
export interface RedisHistoryStoreOptions {
  /** An `ioredis` client; used as configured and never closed by the store. */
  client?: Redis;
  /**
   * Opens a client of its own (`redis://…`), quit by `close()` (after every fork is closed too). A
   * command fails once a reconnection has failed twice, not after ioredis's default of twenty; give
   * a `client` to choose otherwise.
   */
  url?: string;
  /** The conversation this store reads and writes. */
  conversationId: string;
  /** Expire a conversation this many seconds after its last write. @default never */
  ttlSeconds?: number;
  /** Prefix of every key. @default "agent-lattice:" */
  keyPrefix?: string;
  /** Propagate store failures out of `query()` / `prompt()`. @default false */
  failOnError?: boolean;
}

/** A Redis history store. */
export interface RedisHistoryStore extends ConversationHistoryStore {
  fork(newConversationId: string): Promise<RedisHistoryStore>;
}

/**
 * Creates a history store for one conversation kept in Redis.
 *
 * @example
 * import { createRedisHistoryStore } from "agent-lattice/stores/redis";
 * const historyStore = createRedisHistoryStore({ url: "redis://127.0.0.1:6379", conversationId: "user-42", ttlSeconds: 86_400 });
 */
export function createRedisHistoryStore(options: RedisHistoryStoreOptions): RedisHistoryStore {
  assertConversationId(options?.conversationId, "createRedisHistoryStore");
  const ttlSeconds = options.ttlSeconds ?? 0;
  if (!Number.isInteger(ttlSeconds) || ttlSeconds < 0) {
    throw new InvalidOptionError(`ttlSeconds must be a positive integer, got ${options.ttlSeconds}.`);
  }
  const settings: StoreSettings = {
    keyPrefix: options.keyPrefix ?? DEFAULT_REDIS_KEY_PREFIX,
    ttlSeconds,
    failOnError: options.failOnError ?? false,
  };
  return createStore(openClient(options), settings, options.conversationId);
}

interface StoreSettings {
  keyPrefix: string;
  ttlSeconds: number;
  failOnError: boolean;
}

function openClient(options: RedisHistoryStoreOptions): SharedResource<Redis> {
  if (options.client && options.url)
    throw new InvalidOptionError("Give createRedisHistoryStore `client` or `url`, not both.");
  if (options.client) return borrowedResource(options.client);
  if (typeof options.url !== "string" || options.url === "") {
    throw new InvalidOptionError("createRedisHistoryStore needs `client` or `url`.");
  }
  // ioredis holds a command through 20 reconnection attempts by default — over a minute with its
  // backoff — and an agent waits for every store call: with the server down each message would stall
  // the conversation that long. A failed command is reported, and the next write catches up.
  const client = new Redis(options.url, { maxRetriesPerRequest: OWN_CLIENT_MAX_RETRIES_PER_REQUEST });
  // Connection errors reach the store's callers as failed commands; without a listener ioredis
  // would also print each one ("Unhandled error event") on every reconnect attempt.
  client.on("error", () => {});
  return ownedResource(client, async (owned) => {
    // quit() waits for a connection that may never come: only a ready client says goodbye.
    if (owned.status === "ready") await owned.quit().catch(() => owned.disconnect());
    else owned.disconnect();
  });
}

/** The keys of one conversation. */
interface ConversationKeys {
  meta: string;
  messages: string;
  replacing: string;
}

function keysOf(keyPrefix: string, conversationId: string): ConversationKeys {
  const base = `${keyPrefix}{${conversationId}}`;
  return { meta: `${base}:meta`, messages: `${base}:messages`, replacing: `${base}:replacing` };
}

/** Pushes ARGV[first..] onto a list in chunks (Lua's unpack has a stack limit). */
const PUSH_ARGUMENTS = `
local function push(key, first)
  for index = first, #ARGV, 4000 do
    redis.call('RPUSH', key, unpack(ARGV, index, math.min(index + 3999, #ARGV)))
  end
end
local function touch(meta, messages)
  local version = tonumber(ARGV[1]) + 1
  redis.call('HSET', meta, 'version', version, 'updatedAt', ARGV[3])
  redis.call('HSETNX', meta, 'createdAt', ARGV[3])
  local ttl = tonumber(ARGV[2])
  if ttl > 0 then
    redis.call('EXPIRE', meta, ttl)
    if redis.call('EXISTS', messages) == 1 then redis.call('EXPIRE', messages, ttl) end
  end
  return version
end
local stored = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if stored ~= tonumber(ARGV[1]) then return {0, stored} end
`;

/** KEYS: meta, messages. ARGV: expected version, ttl, now, messages… Returns {1, version} or {0, stored version}. */
const APPEND_SCRIPT = `${PUSH_ARGUMENTS}
push(KEYS[2], 4)
return {1, touch(KEYS[1], KEYS[2])}`;

/** KEYS: meta, messages, replacing. ARGV as for append. The old list is swapped out only once the new one is whole. */
const REPLACE_SCRIPT = `${PUSH_ARGUMENTS}
redis.call('DEL', KEYS[3])
if #ARGV >= 4 then
  push(KEYS[3], 4)
  redis.call('RENAME', KEYS[3], KEYS[2])
else
  redis.call('DEL', KEYS[2])
end
return {1, touch(KEYS[1], KEYS[2])}`;

function createStore(
  resource: SharedResource<Redis>,
  settings: StoreSettings,
  conversationId: string,
): RedisHistoryStore {
  const client = resource.value;
  const keys = keysOf(settings.keyPrefix, conversationId);
  let expectedVersion: number | undefined;

  async function readVersion(): Promise<number> {
    return Number((await client.hget(keys.meta, "version")) ?? 0);
  }

  async function write(
    script: string,
    scriptKeys: string[],
    serializedMessages: readonly string[],
  ): Promise<void> {
    const from = expectedVersion ?? (await readVersion());
    const argumentsList = [
      String(from),
      String(settings.ttlSeconds),
      new Date().toISOString(),
      ...serializedMessages,
    ];
    const [written, version] = (await runScript(client, script, scriptKeys, argumentsList)) as [
      number,
      number,
    ];
    if (written !== 1)
      throw new ConversationConflictError(conversationId, describeVersionConflict(from, version));
    expectedVersion = version;
  }

  const backend: VersionedBackend = {
    async load(): Promise<ModelMessage[]> {
      const { version, rows } = await loadConversation(client, keys);
      expectedVersion = version;
      return rows.flatMap((text) => parseStoredMessage(text) ?? []);
    },
    append: (serializedMessages) => write(APPEND_SCRIPT, [keys.meta, keys.messages], serializedMessages),
    replace: (serializedMessages) =>
      write(REPLACE_SCRIPT, [keys.meta, keys.messages, keys.replacing], serializedMessages),
    close: () => resource.release(),
  };

  const core = createVersionedStoreCore(backend, {
    failOnError: settings.failOnError,
    secrets: connectionSecrets(client),
  });
  return {
    conversationId,
    failOnError: core.failOnError,
    load: core.load,
    append: core.append,
    replace: core.replace,
    close: core.close,
    listConversations: () => core.withoutSecrets(() => listConversations(client, settings.keyPrefix)),
    deleteConversation(id = conversationId): Promise<boolean> {
      assertConversationId(id, "deleteConversation");
      return core.exclusive(async () => {
        const target = keysOf(settings.keyPrefix, id);
        const deleted = await client.del(target.meta, target.messages, target.replacing);
        if (id === conversationId) expectedVersion = 0;
        return deleted > 0;
      });
    },
    fork(newConversationId: string): Promise<RedisHistoryStore> {
      assertConversationId(newConversationId, "fork");
      return core.exclusive(async () => {
        const { rows } = await loadConversation(client, keys);
        const target = keysOf(settings.keyPrefix, newConversationId);
        const argumentsList = ["0", String(settings.ttlSeconds), new Date().toISOString(), ...rows];
        const [written] = (await runScript(
          client,
          APPEND_SCRIPT,
          [target.meta, target.messages],
          argumentsList,
        )) as [number];
        if (written !== 1)
          throw new InvalidOptionError(
            `Cannot fork into conversation "${newConversationId}": it already exists.`,
          );
        return createStore(resource.share(), settings, newConversationId);
      });
    },
  };
}

/** Reads the version and the messages in one transaction, so they belong together. */
async function loadConversation(
  client: Redis,
  keys: ConversationKeys,
): Promise<{ version: number; rows: string[] }> {
  const replies = await client.multi().hget(keys.meta, "version").lrange(keys.messages, 0, -1).exec();
  if (!replies) throw new Error("The Redis transaction reading the conversation was aborted.");
  const [[versionError, version], [rowsError, rows]] = replies as [
    [Error | null, string | null],
    [Error | null, string[]],
  ];
  if (versionError ?? rowsError) throw versionError ?? rowsError;
  return { version: Number(version ?? 0), rows };
}

async function listConversations(client: Redis, keyPrefix: string): Promise<ConversationInfo[]> {
  const pattern = `${escapeGlob(keyPrefix)}{*}:meta`;
  const metaKeys = new Set<string>();
  let cursor = "0";
  do {
    const [next, found] = await client.scan(cursor, "MATCH", pattern, "COUNT", 1000);
    for (const key of found) metaKeys.add(key);
    cursor = next;
  } while (cursor !== "0");

  const ids = [...metaKeys].map((key) => key.slice(keyPrefix.length + 1, -"}:meta".length));
  const pipeline = client.pipeline();
  for (const id of ids)
    pipeline.hget(keysOf(keyPrefix, id).meta, "updatedAt").llen(keysOf(keyPrefix, id).messages);
  const replies = (await pipeline.exec()) ?? [];
  const conversations = ids.map((conversationId, index) => ({
    conversationId,
    updatedAt: new Date(String(replies[index * 2]?.[1] ?? 0)),
    messageCount: Number(replies[index * 2 + 1]?.[1] ?? 0),
  }));
  return conversations.sort(
    (a, b) =>
      b.updatedAt.getTime() - a.updatedAt.getTime() || a.conversationId.localeCompare(b.conversationId),
  );
}

function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, (character) => `\\${character}`);
}

/** Runs a script by its SHA1, loading it first when the server does not have it cached. */
async function runScript(
  client: Redis,
  script: string,
  keys: string[],
  argumentsList: string[],
): Promise<unknown> {
  const sha = createHash("sha1").update(script).digest("hex");
  try {
    return await client.evalsha(sha, keys.length, ...keys, ...argumentsList);
  } catch (error) {
    if (!String((error as Error)?.message).startsWith("NOSCRIPT")) throw error;
    return client.eval(script, keys.length, ...keys, ...argumentsList);
  }
}

/** The client's credentials (from its URL or options): kept out of store errors. */
function connectionSecrets(client: Redis): string[] {
  const { password, username } = (client.options ?? {}) as { password?: unknown; username?: unknown };
  return [password, username].filter((value): value is string => typeof value === "string" && value !== "");
}
