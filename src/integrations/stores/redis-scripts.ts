/**
 * The Lua scripts of the Redis store — its writes, each atomic in Redis and guarded by the version
 * check — and how they are run (by SHA1, loaded when the server does not have them cached).
 * @module
 */
import { createHash } from "node:crypto";
import type { Redis } from "ioredis";

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
export const APPEND_SCRIPT = `${PUSH_ARGUMENTS}
push(KEYS[2], 4)
return {1, touch(KEYS[1], KEYS[2])}`;

/** KEYS: meta, messages, replacing. ARGV as for append. The old list is swapped out only once the new one is whole. */
export const REPLACE_SCRIPT = `${PUSH_ARGUMENTS}
redis.call('DEL', KEYS[3])
if #ARGV >= 4 then
  push(KEYS[3], 4)
  redis.call('RENAME', KEYS[3], KEYS[2])
else
  redis.call('DEL', KEYS[2])
end
return {1, touch(KEYS[1], KEYS[2])}`;

/**
 * KEYS: meta, messages. ARGV: expected version, ttl, now, the index to keep up to, messages…
 * Returns {1, version}, {0, stored version}, or {-1, stored count} when that index is past the
 * stored messages (nothing written).
 */
export const REPLACE_TAIL_SCRIPT = `${PUSH_ARGUMENTS}
local keep = tonumber(ARGV[4])
local count = redis.call('LLEN', KEYS[2])
if keep > count then return {-1, count} end
if keep == 0 then redis.call('DEL', KEYS[2]) else redis.call('LTRIM', KEYS[2], 0, keep - 1) end
if #ARGV >= 5 then push(KEYS[2], 5) end
return {1, touch(KEYS[1], KEYS[2])}`;

/**
 * KEYS: meta, messages. Returns {version or nil, messages}: the two read together, as one command
 * (a transaction of `HGET` and `LRANGE` is four, and costs the client more than the read itself).
 */
export const LOAD_SCRIPT = `return {redis.call('HGET', KEYS[1], 'version'), redis.call('LRANGE', KEYS[2], 0, -1)}`;

/**
 * KEYS: messages. ARGV: first index (-1: the newest ARGV[2]), limit. Returns {count, start, messages}:
 * the window and the count read together, as one command.
 */
export const LOAD_RANGE_SCRIPT = `local total = redis.call('LLEN', KEYS[1])
local limit = tonumber(ARGV[2])
local start = tonumber(ARGV[1])
if start < 0 then start = math.max(0, total - limit) else start = math.min(start, total) end
if start >= total then return {total, start, {}} end
return {total, start, redis.call('LRANGE', KEYS[1], start, start + limit - 1)}`;

/** Runs a script by its SHA1, loading it first when the server does not have it cached. */
export async function runScript(
  client: Redis,
  script: string,
  keys: string[],
  argumentsList: string[],
): Promise<unknown> {
  const sha = shaOf(script);
  try {
    return await client.evalsha(sha, keys.length, ...keys, ...argumentsList);
  } catch (error) {
    if (!String((error as Error)?.message).startsWith("NOSCRIPT")) throw error;
    return client.eval(script, keys.length, ...keys, ...argumentsList);
  }
}

/** The SHA1 of each script run so far (there are two): hashed once per process, not per write. */
const scriptShas = new Map<string, string>();

function shaOf(script: string): string {
  let sha = scriptShas.get(script);
  if (sha === undefined) {
    sha = createHash("sha1").update(script).digest("hex");
    scriptShas.set(script, sha);
  }
  return sha;
}
