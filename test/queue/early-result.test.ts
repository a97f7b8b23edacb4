/**
 * A result is heard the moment its worker records it: the lane's FINISH publishes it, and a
 * producer waiting on the job resolves before BullMQ marks the job completed (here BullMQ is never
 * told: the job stays `active`), while `getJob` reports it completed with that result. A run that
 * lost its lease records nothing and publishes nothing; the `completed` event stays the backstop.
 */
import { Worker } from "bullmq";
import { afterAll, describe, expect, it } from "vitest";
import { ConversationLane } from "../../src/queue/conversation-lane";
import { JobWaitTimeoutError } from "../../src/queue/errors";
import { createAgentQueue } from "../../src/queue/index";
import { resolveBaseOptions } from "../../src/queue/options";
import { deleteQueueKeys, openRedis, redisUrl, uniqueName } from "./helpers";

const redis = openRedis();
const name = uniqueName("early");
const queue = createAgentQueue({ connection: { url: redisUrl }, name });
const lane = new ConversationLane(resolveBaseOptions({ connection: { url: redisUrl }, name }, "test"));
/** A worker without a processor: jobs are fetched by hand and never completed through BullMQ. */
const manual = new Worker(name, null, { connection: { url: redisUrl } as never, prefix: "bull" });

afterAll(async () => {
  await Promise.allSettled([queue.close(), lane.close(), manual.close()]);
  await deleteQueueKeys(redis, name);
  await redis.quit();
});

const RESULT = { type: "result", subtype: "success", is_error: false, result: "Recorded." };

describe("a result heard as it is recorded", () => {
  it("waitForResult resolves from the lane's FINISH while BullMQ still has the job active; getJob says completed", async () => {
    const conversation = uniqueName("c");
    const { id } = await queue.enqueue({ conversationId: conversation, input: "Hello" });
    const waiting = queue.waitForResult(id, { timeoutMs: 20_000 });
    const job = await manual.getNextJob("token-1");
    expect(job?.id).toBe(id);
    expect(await queue.bullmq.getJobState(id)).toBe("active");
    expect((await lane.claim(conversation, id, `${id}:run`, 5_000)).kind).toBe("claimed");
    const text = JSON.stringify(RESULT);
    expect(
      await lane.finish(conversation, id, `${id}:run`, { field: "result", value: text, entry: RESULT }),
    ).toBe("");

    expect(await waiting).toEqual(RESULT);
    expect(await queue.bullmq.getJobState(id)).toBe("active"); // BullMQ was never told
    expect(await queue.getJob(id)).toMatchObject({ id, state: "completed", result: RESULT, attemptsMade: 1 });
    // A waiter that comes later reads the recorded result too.
    expect(await queue.waitForResult(id, { timeoutMs: 20_000 })).toEqual(RESULT);
  });

  it("a run that lost its lease publishes nothing: the waiter goes on waiting", async () => {
    const conversation = uniqueName("c");
    const { id } = await queue.enqueue({ conversationId: conversation, input: "Hello" });
    const job = await manual.getNextJob("token-2");
    expect(job?.id).toBe(id);
    expect((await lane.claim(conversation, id, `${id}:new`, 5_000)).kind).toBe("claimed");
    const text = JSON.stringify(RESULT);
    const stale = await lane.finish(conversation, id, `${id}:old`, {
      field: "result",
      value: text,
      entry: RESULT,
    });
    expect(stale).toBeUndefined();
    await expect(queue.waitForResult(id, { timeoutMs: 300 })).rejects.toBeInstanceOf(JobWaitTimeoutError);
    expect((await queue.getJob(id))?.state).toBe("active");
  });

  it("getJob reads a job BullMQ finished while it looked: the outcome, not the snapshot before it", async () => {
    const conversation = uniqueName("c");
    const { id } = await queue.enqueue({ conversationId: conversation, input: "Hello" });
    const job = await manual.getNextJob("token-3");
    expect(job?.id).toBe(id);
    // BullMQ completes the job right after getJob took its snapshot, before it reads the state.
    const bullmq = queue.bullmq;
    const read = bullmq.getJob.bind(bullmq);
    let reads = 0;
    bullmq.getJob = async (jobId: string) => {
      const snapshot = await read(jobId);
      if (++reads === 1) await job!.moveToCompleted(RESULT, "token-3", false);
      return snapshot;
    };
    try {
      expect(await queue.getJob(id)).toMatchObject({
        id,
        state: "completed",
        result: RESULT,
        attemptsMade: 1,
      });
    } finally {
      bullmq.getJob = read;
    }
  });
});
