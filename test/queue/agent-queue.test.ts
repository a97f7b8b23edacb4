import { describe, expect, it } from "vitest";
import { isWellFormedHistory } from "../../src/index";
import { createAgentQueue } from "../../src/queue/index";
import { promptOf } from "../fixtures/queue/workload";
import { fleetKit } from "./fleet";
import { redisUrl, uniqueName } from "./helpers";

const { fleet, historyOf, promptsIn } = fleetKit();

describe("createAgentQueue + createAgentWorker", () => {
  it("runs a job and completes it with the query's result as JSON", async () => {
    const { queue } = fleet();
    const conversationId = uniqueName("conversation");
    const job = await queue.enqueue({ conversationId, input: promptOf(conversationId, 0) });
    const result = await queue.waitForResult(job.id, { timeoutMs: 15_000 });
    expect(result).toMatchObject({
      type: "result",
      subtype: "success",
      result: `done ${conversationId}/0`,
      num_turns: 2,
    });
    const history = await historyOf(conversationId);
    expect(isWellFormedHistory(history)).toBe(true);
    expect(promptsIn(history)).toEqual([promptOf(conversationId, 0)]);
    const info = await queue.getJob(job.id);
    expect(info).toMatchObject({ state: "completed", conversationId, attemptsMade: 1 });
    expect(info?.progress?.num_turns).toBe(2);
    expect(info?.progress?.total_cost_usd).toBeGreaterThan(0);
  });

  it("runs the jobs of a conversation one at a time, in enqueue order, across workers", async () => {
    const { queue } = fleet({ workers: 2, modelDelayMs: 20 });
    const conversations = [uniqueName("a"), uniqueName("b"), uniqueName("c")];
    const jobs: Array<{ id: string }> = [];
    for (let n = 0; n < 5; n++)
      for (const conversationId of conversations)
        jobs.push(await queue.enqueue({ conversationId, input: promptOf(conversationId, n) }));
    const results = await Promise.all(jobs.map((job) => queue.waitForResult(job.id, { timeoutMs: 30_000 })));
    expect(results.every((result) => result.subtype === "success")).toBe(true);
    for (const conversationId of conversations) {
      const history = await historyOf(conversationId);
      expect(isWellFormedHistory(history)).toBe(true);
      expect(promptsIn(history)).toEqual([0, 1, 2, 3, 4].map((n) => promptOf(conversationId, n)));
    }
  });

  it("keeps the order when another producer's job of the conversation is running (a worker parks the newcomer)", async () => {
    const { name, queue } = fleet({ workers: 2, modelDelayMs: 100 });
    const other = createAgentQueue({ connection: { url: redisUrl }, name });
    try {
      const conversationId = uniqueName("two-producers");
      const first = await queue.enqueue({ conversationId, input: promptOf(conversationId, 0) });
      // `other` has nothing of this conversation in flight: it adds its job to run at once.
      const second = await other.enqueue({ conversationId, input: promptOf(conversationId, 1) });
      const third = await queue.enqueue({ conversationId, input: promptOf(conversationId, 2) });
      const results = await Promise.all([
        queue.waitForResult(first.id, { timeoutMs: 30_000 }),
        other.waitForResult(second.id, { timeoutMs: 30_000 }),
        queue.waitForResult(third.id, { timeoutMs: 30_000 }),
      ]);
      expect(results.map((result) => result.subtype)).toEqual(["success", "success", "success"]);
      expect(promptsIn(await historyOf(conversationId))).toEqual(
        [0, 1, 2].map((n) => promptOf(conversationId, n)),
      );
      expect((await queue.getJob(second.id))?.attemptsMade).toBe(1);
    } finally {
      await other.close();
    }
  });

  it("resolves waitForResult for jobs that ended before anyone waited, once the producer listens", async () => {
    const { queue } = fleet({ workers: 1 });
    const first = uniqueName("first");
    // The first wait opens the producer's events connection; jobs enqueued after it are "fresh".
    const opening = await queue.enqueue({ conversationId: first, input: promptOf(first, 0) });
    await queue.waitForResult(opening.id, { timeoutMs: 15_000 });
    const later = uniqueName("later");
    const done = await queue.enqueue({ conversationId: later, input: promptOf(later, 0) });
    const failing = await queue.enqueue({
      conversationId: later,
      input: promptOf(later, 1),
      options: { requestTimeoutMs: -5 },
    });
    // Both end before anyone waits for them: their outcome came as events nobody was waiting for.
    for (let tries = 0; tries < 200; tries++) {
      const states = await Promise.all(
        [done.id, failing.id].map(async (id) => (await queue.getJob(id))?.state),
      );
      if (states[0] === "completed" && states[1] === "failed") break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await expect(queue.waitForResult(done.id, { timeoutMs: 5_000 })).resolves.toMatchObject({
      subtype: "success",
      result: `done ${later}/0`,
    });
    await expect(queue.waitForResult(failing.id, { timeoutMs: 5_000 })).rejects.toThrow(/requestTimeoutMs/);
    // A second wait for the same job reads it from Redis again.
    await expect(queue.waitForResult(done.id, { timeoutMs: 5_000 })).resolves.toMatchObject({
      subtype: "success",
    });
  });
});
