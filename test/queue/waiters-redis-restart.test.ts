/**
 * Waiters already waiting when Redis restarts without persistence reject with `JobNotFoundError`
 * once the connection is back (the restarted server has forgotten the job), as fleet.md says —
 * instead of waiting out their whole timeout. A private `redis-server` on its own port (the shared
 * one is never restarted).
 */
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgentQueue, JobNotFoundError } from "../../src/queue/index";
import { type PrivateRedis, startPrivateRedis } from "../fixtures/redis-server";
import { uniqueName } from "./helpers";

let redisServer: PrivateRedis;

beforeAll(async () => {
  redisServer = await startPrivateRedis({ appendOnly: false });
}, 60_000);
afterAll(async () => {
  await redisServer?.stop();
});

describe("waitForResult across a Redis restart without persistence", () => {
  it("waiters already waiting reject with JobNotFoundError, not at their timeout", async () => {
    const queue = createAgentQueue({
      connection: { url: redisServer.url },
      name: uniqueName("waiters"),
      onError: () => {},
    });
    try {
      // No worker: the jobs wait in the queue.
      const ids = await Promise.all(
        [0, 1, 2].map(
          async (index) => (await queue.enqueue({ conversationId: uniqueName(`c${index}`), input: "Hi" })).id,
        ),
      );
      // A timeout far beyond the test's own: a waiter that waits it out fails the test.
      const waiting = ids.map((id) =>
        queue.waitForResult(id, { timeoutMs: 600_000 }).catch((error: unknown) => error),
      );
      // Waiting for real before the restart: the results channel subscribed and the events stream
      // read (its blocking XREAD), each job's state read once more after that.
      const inspector = new Redis(redisServer.url);
      try {
        for (let attempt = 0; attempt < 1_500; attempt++) {
          const clients = String(await inspector.client("LIST"));
          if (/sub=1/.test(clients) && /cmd=xread/.test(clients)) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        for (const id of ids) await expect(queue.getJob(id)).resolves.toMatchObject({ id });
      } finally {
        inspector.disconnect();
      }
      await redisServer.kill("SIGKILL");
      await redisServer.restart();
      const outcomes = await Promise.all(waiting);
      for (const [index, outcome] of outcomes.entries()) {
        expect(outcome).toBeInstanceOf(JobNotFoundError);
        expect((outcome as Error).message).toContain(ids[index]);
      }
    } finally {
      await queue.close();
    }
  }, 90_000);
});
