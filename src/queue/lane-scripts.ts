/**
 * The Lua scripts of a conversation lane (see conversation-lane.ts). Each runs atomically in Redis.
 * A lease holds `<jobId>:<random>` — the fence: every write a running job makes checks the lease
 * still holds its fence, so a worker that lost the lease (it stalled, or was presumed dead) can no
 * longer publish, record a result or release someone else's lease.
 * @module
 */

/** A script and how many of its arguments are keys. */
export interface LaneScript {
  numberOfKeys: number;
  lua: string;
}

/** True when `KEYS[lease]` holds the fence `ARGV[fence]`. */
const holds = (lease: number, fence: number) => `redis.call("GET", KEYS[${lease}]) == ARGV[${fence}]`;

/**
 * Producer side: adds a job to its conversation's pending list unless it is there or finished.
 * KEYS: pending, lease, job. ARGV: jobId.
 * Returns -1 (finished already), 1 (it is the head and nobody holds the lease), or 0.
 */
export const APPEND: LaneScript = {
  numberOfKeys: 3,
  lua: `
if redis.call("HEXISTS", KEYS[3], "result") == 1 then return -1 end
if redis.call("LPOS", KEYS[1], ARGV[1]) == false then redis.call("RPUSH", KEYS[1], ARGV[1]) end
if redis.call("LINDEX", KEYS[1], 0) == ARGV[1] and redis.call("EXISTS", KEYS[2]) == 0 then return 1 end
return 0`,
};

/**
 * Whether a job is its conversation's head and nobody holds the lease. KEYS: pending, lease. ARGV: jobId.
 */
export const RUNNABLE: LaneScript = {
  numberOfKeys: 2,
  lua: `
if redis.call("LINDEX", KEYS[1], 0) == ARGV[1] and redis.call("EXISTS", KEYS[2]) == 0 then return 1 end
return 0`,
};

/**
 * Worker side: takes the conversation for a job, when the job is its head and the lease is free.
 * A job missing from the list (its producer stopped between adding it and listing it) is listed
 * at the end. KEYS: pending, lease, job. ARGV: jobId, fence, leaseMs, ttlSeconds.
 * Returns {"done", result} | {"queued", headId} | {"busy", pttl} | {"claimed", runs, started, progressed}.
 */
export const CLAIM: LaneScript = {
  numberOfKeys: 3,
  lua: `
local result = redis.call("HGET", KEYS[3], "result")
if result then return {"done", result} end
if redis.call("LPOS", KEYS[1], ARGV[1]) == false then redis.call("RPUSH", KEYS[1], ARGV[1]) end
local head = redis.call("LINDEX", KEYS[1], 0)
if head ~= ARGV[1] then return {"queued", head} end
local holder = redis.call("GET", KEYS[2])
if holder and holder ~= ARGV[2] then return {"busy", tostring(redis.call("PTTL", KEYS[2]))} end
redis.call("SET", KEYS[2], ARGV[2], "PX", ARGV[3])
redis.call("HDEL", KEYS[3], "failed")
local runs = redis.call("HINCRBY", KEYS[3], "runs", 1)
redis.call("EXPIRE", KEYS[3], ARGV[4])
return {"claimed", tostring(runs), redis.call("HGET", KEYS[3], "started") or "", redis.call("HGET", KEYS[3], "progressed") or ""}`,
};

/** Extends the lease while the fence holds it. KEYS: lease. ARGV: fence, leaseMs. Returns 1, or 0 when lost. */
export const RENEW: LaneScript = {
  numberOfKeys: 1,
  lua: `
if ${holds(1, 1)} then redis.call("PEXPIRE", KEYS[1], ARGV[2]) return 1 end
return 0`,
};

/**
 * Records the history length a job's first run started from (kept by later runs).
 * KEYS: lease, job. ARGV: fence, length. Returns 1, or 0 when the lease is lost.
 */
export const MARK_STARTED: LaneScript = {
  numberOfKeys: 2,
  lua: `
if not (${holds(1, 1)}) then return 0 end
redis.call("HSETNX", KEYS[2], "started", ARGV[2])
return 1`,
};

/**
 * Appends messages to a job's stream, in order; `progressed` "1" marks that a response was
 * recorded, and `started` (unless "") records, as MARK_STARTED does, the history length the job's
 * first run started from — so the first message of a first run carries the mark in the same round
 * trip. KEYS: lease, job, messages. ARGV: fence, progressed, maxLength, ttlSeconds, started, then
 * one entry per message. Returns 1, or 0 when the lease is lost (nothing is written).
 */
export const PUBLISH: LaneScript = {
  numberOfKeys: 3,
  lua: `
if not (${holds(1, 1)}) then return 0 end
if ARGV[5] ~= "" then redis.call("HSETNX", KEYS[2], "started", ARGV[5]) end
for i = 6, #ARGV do redis.call("XADD", KEYS[3], "MAXLEN", "~", ARGV[3], "*", "m", ARGV[i]) end
redis.call("EXPIRE", KEYS[3], ARGV[4])
if ARGV[2] == "1" then redis.call("HSET", KEYS[2], "progressed", "1") end
return 1`,
};

/** Frees the lease (the job stays the head). KEYS: lease. ARGV: fence. */
export const RELEASE: LaneScript = {
  numberOfKeys: 1,
  lua: `
if ${holds(1, 1)} then redis.call("DEL", KEYS[1]) end
return 1`,
};

/**
 * Ends a job's turn on its conversation: records `field` (`result` or `failed`) and the run's last
 * progress (unless ""), takes the job off the pending list, frees the lease and appends the
 * stream's last entries (messages not yet streamed, then `entry`) — all or nothing, and only while
 * the fence holds the lease; a result is then published on the results channel (`<jobId>\n<value>`).
 * KEYS: pending, lease, job, messages.
 * ARGV: jobId, fence, field, value, entry, maxLength, ttlSeconds, progress, results channel, then
 * the earlier entries. Returns {1, nextHeadId or ""}, or {0} when the lease is lost.
 */
export const FINISH: LaneScript = {
  numberOfKeys: 4,
  lua: `
if not (${holds(2, 2)}) then return {0} end
redis.call("HSET", KEYS[3], ARGV[3], ARGV[4])
if ARGV[8] ~= "" then redis.call("HSET", KEYS[3], "progress", ARGV[8]) end
redis.call("EXPIRE", KEYS[3], ARGV[7])
redis.call("LREM", KEYS[1], 1, ARGV[1])
redis.call("DEL", KEYS[2])
for i = 10, #ARGV do redis.call("XADD", KEYS[4], "MAXLEN", "~", ARGV[6], "*", "m", ARGV[i]) end
redis.call("XADD", KEYS[4], "MAXLEN", "~", ARGV[6], "*", "m", ARGV[5])
redis.call("EXPIRE", KEYS[4], ARGV[7])
if ARGV[3] == "result" then redis.call("PUBLISH", ARGV[9], ARGV[1] .. "\\n" .. ARGV[4]) end
return {1, redis.call("LINDEX", KEYS[1], 0) or ""}`,
};

/**
 * Drops a head whose job can never run again (failed for good, or removed), and the lease it may
 * still hold. KEYS: pending, lease. ARGV: headId. Returns the new head id or "".
 */
export const DROP_HEAD: LaneScript = {
  numberOfKeys: 2,
  lua: `
if redis.call("LINDEX", KEYS[1], 0) == ARGV[1] then
  redis.call("LPOP", KEYS[1])
  local holder = redis.call("GET", KEYS[2])
  if holder and string.sub(holder, 1, #ARGV[1] + 1) == ARGV[1] .. ":" then redis.call("DEL", KEYS[2]) end
end
return redis.call("LINDEX", KEYS[1], 0) or ""`,
};

/**
 * Takes a conversation's lease for work between jobs (a rewind) — only when no job holds it and
 * none waits. KEYS: pending, lease. ARGV: fence, holdMs. Returns {"held"}, {"busy", holder} or
 * {"queued", head}.
 */
export const HOLD_IDLE: LaneScript = {
  numberOfKeys: 2,
  lua: `
local holder = redis.call("GET", KEYS[2])
if holder then return {"busy", holder} end
local head = redis.call("LINDEX", KEYS[1], 0)
if head then return {"queued", head} end
redis.call("SET", KEYS[2], ARGV[1], "PX", ARGV[2])
return {"held"}`,
};
