/**
 * Run claims in Redis: a key `<prefix>{<conversation id>}:run` holding the owner token, set with
 * `SET NX PX` (Redis expires it) and extended or deleted only by its owner (a script compares the
 * token first). Beside the conversation's keys in the same hash slot.
 * @module
 */
import type { Redis } from "ioredis";
import type { RunClaimRecord } from "../../history/run-claim";
import { runScript } from "./redis-scripts";

const EXTEND_SCRIPT = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) end return 0`;
const FREE_SCRIPT = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`;

/** The run-claim record at `key`, on `client`. */
export function redisRunClaimRecord(client: Redis, key: string): RunClaimRecord {
  return {
    async take(owner, ttlMs) {
      return (await client.set(key, owner, "PX", ttlMs, "NX")) === "OK";
    },
    async extend(owner, ttlMs) {
      return Number(await runScript(client, EXTEND_SCRIPT, [key], [owner, String(ttlMs)])) === 1;
    },
    async free(owner) {
      await runScript(client, FREE_SCRIPT, [key], [owner]);
    },
    async isHeld() {
      return (await client.exists(key)) === 1;
    },
  };
}
