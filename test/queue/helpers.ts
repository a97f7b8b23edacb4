/** Shared set-up of the queue tests: the real Redis, a unique queue per test file, cleanup. */
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";

/** The real server; these tests fail (never skip) when it is not there. */
export const redisUrl = process.env.AGENT_LATTICE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** A name of our own per run, so parallel runs never collide. */
export const uniqueName = (label: string) => `al-test-${label}-${randomBytes(5).toString("hex")}`;

/** Deletes every key of the queue `name` (BullMQ's, the lane's) and the history keys under `historyPrefix`. */
export async function deleteQueueKeys(redis: Redis, name: string, historyPrefix?: string): Promise<void> {
  const patterns = [`bull:${name}:*`, `agent-lattice:queue:{bull:${name}}:*`];
  if (historyPrefix) patterns.push(`${historyPrefix}*`);
  for (const pattern of patterns) {
    const keys = await redis.keys(pattern);
    if (keys.length > 0) await redis.del(...keys);
  }
}

export function openRedis(): Redis {
  return new Redis(redisUrl, { maxRetriesPerRequest: 2 });
}
