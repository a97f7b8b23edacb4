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

import { Redis } from "ioredis";
import { InvalidOptionError } from "../../errors";
import { claimRunWith } from "../../history/run-claim";
import {
  assertConversationId,
  type ConversationHistoryStore,
} from "../../history/store-kit/conversation-history-store";
import {
  borrowedResource,
  ownedResource,
  type SharedResource,
} from "../../history/store-kit/shared-resource";
import { createVersionedStoreCore } from "../../history/store-kit/versioned-store";
import { assertKnownOptions } from "../../shared/known-options";
import { createRedisBackend } from "./redis-backend";
import { keysOf, listConversations, loadConversation } from "./redis-conversations";
import { redisRunClaimRecord } from "./redis-run-claims";
import { APPEND_SCRIPT, runScript } from "./redis-scripts";

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
 * Every option name of `createRedisHistoryStore` — the one list to extend when an option is added; any other
 * name is refused, naming the closest of these.
 */
export const REDIS_STORE_OPTION_NAMES: readonly string[] = [
  "client",
  "url",
  "conversationId",
  "ttlSeconds",
  "keyPrefix",
  "failOnError",
];

/**
 * Creates a history store for one conversation kept in Redis.
 *
 * @example
 * import { createRedisHistoryStore } from "agent-lattice/stores/redis";
 * const historyStore = createRedisHistoryStore({ url: "redis://127.0.0.1:6379", conversationId: "user-42", ttlSeconds: 86_400 });
 */
export function createRedisHistoryStore(options: RedisHistoryStoreOptions): RedisHistoryStore {
  assertKnownOptions("createRedisHistoryStore", options, REDIS_STORE_OPTION_NAMES);
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

/** The public store of one conversation: the versioned core, plus listing, deleting and forking. */
function createStore(
  resource: SharedResource<Redis>,
  settings: StoreSettings,
  conversationId: string,
): RedisHistoryStore {
  const client = resource.value;
  const keys = keysOf(settings.keyPrefix, conversationId);
  const backend = createRedisBackend(resource, keys, conversationId, settings.ttlSeconds);
  const core = createVersionedStoreCore(backend, {
    failOnError: settings.failOnError,
    secrets: connectionSecrets(client),
  });
  return {
    conversationId,
    failOnError: core.failOnError,
    load: core.load,
    loadRange: core.loadRange!,
    append: core.append,
    replace: core.replace,
    replaceTail: core.replaceTail!,
    close: core.close,
    claimRun: (claimOptions) =>
      core.withoutSecrets(() => claimRunWith(redisRunClaimRecord(client, keys.run), claimOptions)),
    isRunClaimed: () => core.withoutSecrets(() => redisRunClaimRecord(client, keys.run).isHeld()),
    listConversations: () => core.withoutSecrets(() => listConversations(client, settings.keyPrefix)),
    deleteConversation(id = conversationId): Promise<boolean> {
      assertConversationId(id, "deleteConversation");
      return core.exclusive(async () => {
        const target = keysOf(settings.keyPrefix, id);
        const deleted = await client.del(target.meta, target.messages, target.replacing);
        if (id === conversationId) backend.forgetConversation();
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

/** The client's credentials (from its URL or options): kept out of store errors. */
function connectionSecrets(client: Redis): string[] {
  const { password, username } = (client.options ?? {}) as { password?: unknown; username?: unknown };
  return [password, username].filter((value): value is string => typeof value === "string" && value !== "");
}
