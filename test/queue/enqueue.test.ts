import { describe, expect, it } from "vitest";
import { InvalidOptionError, TimeoutError } from "../../src/index";
import { createAgentQueue, JobNotFoundError, JobWaitTimeoutError } from "../../src/queue/index";
import { promptOf } from "../fixtures/queue/workload";
import { until } from "../support/promises";
import { fleetKit } from "./fleet";
import { redisUrl, uniqueName } from "./helpers";

const { fleet } = fleetKit();

describe("enqueue", () => {
  it("refuses at once, queueing nothing, what no worker could run", async () => {
    const { queue } = fleet({ workers: 0 });
    const refused = [
      { input: "hello" },
      { conversationId: "", input: "hello" },
      { conversationId: "bad-\uD800", input: "hello" },
      { conversationId: "c", input: "   " },
      { conversationId: "c", input: [] },
      { conversationId: "c", input: [{ type: "text", text: "" }] },
      { conversationId: "c", input: 42 },
      { conversationId: "c", input: "hello", options: { signal: AbortSignal.timeout(10) } },
      { conversationId: "c", input: "hello", options: "fast" },
      { conversationId: "c", input: [{ type: "text", text: "hi", extra: 10n }] },
      { conversationId: "c", input: "hello", jobId: "a:b" },
      { conversationId: "c", input: "hello", jobId: "123" },
    ];
    for (const request of refused)
      await expect(
        queue.enqueue(request as never),
        JSON.stringify(request, (_k, v) => (typeof v === "bigint" ? "10n" : v)),
      ).rejects.toThrow(InvalidOptionError);
    const counts = await queue.bullmq.getJobCounts();
    expect(Object.values(counts).every((count) => count === 0)).toBe(true);
  });

  it("adds nothing for a jobId already enqueued: a retried enqueue is safe", async () => {
    const { queue } = fleet();
    const conversationId = uniqueName("idempotent");
    const first = await queue.enqueue({
      conversationId,
      input: promptOf(conversationId, 0),
      jobId: "order-7",
    });
    const again = await queue.enqueue({
      conversationId,
      input: promptOf(conversationId, 0),
      jobId: "order-7",
    });
    expect(again.id).toBe(first.id);
    await queue.waitForResult(first.id, { timeoutMs: 15_000 });
    // The result reaches waiters before BullMQ moves the job to completed: wait for that move.
    await until(async () => (await queue.bullmq.getJobState(first.id)) === "completed", 10_000, 20);
    await queue.enqueue({ conversationId, input: promptOf(conversationId, 0), jobId: "order-7" });
    expect(await queue.bullmq.getJobCounts("completed", "waiting", "delayed", "active")).toEqual({
      completed: 1,
      waiting: 0,
      delayed: 0,
      active: 0,
    });
  });

  it("checks its options at creation", () => {
    expect(() => createAgentQueue({} as never)).toThrow(InvalidOptionError);
    expect(() => createAgentQueue({ connection: { url: redisUrl }, name: "a:b" })).toThrow(
      InvalidOptionError,
    );
    expect(() => createAgentQueue({ connection: { url: redisUrl }, jobTtlSeconds: 0 })).toThrow(
      InvalidOptionError,
    );
  });
});

describe("waitForResult", () => {
  it("rejects with a TimeoutError after timeoutMs, and the job goes on", async () => {
    // No worker yet: the job cannot finish before the wait times out, however slow the machine.
    const { queue, startWorker } = fleet({ workers: 0 });
    const conversationId = uniqueName("slow");
    const job = await queue.enqueue({ conversationId, input: promptOf(conversationId, 0) });
    const started = Date.now();
    const error = await queue.waitForResult(job.id, { timeoutMs: 150 }).catch((thrown: unknown) => thrown);
    // It gave up on its own timeout: a bound far above 150 ms (not a speed assertion).
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(error).toBeInstanceOf(JobWaitTimeoutError);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ code: "ETIMEDOUT", timeoutMs: 150, jobId: job.id });
    startWorker();
    expect(await queue.waitForResult(job.id, { timeoutMs: 60_000 })).toMatchObject({ subtype: "success" });
    // Once done, waiting again answers from the stored result (a job never finishes twice).
    expect(await queue.waitForResult(job.id, { timeoutMs: 15_000 })).toMatchObject({ subtype: "success" });
  });

  it("rejects for an unknown job, and for a bad timeout", async () => {
    const { queue } = fleet({ workers: 0 });
    await expect(queue.waitForResult("never-enqueued", { timeoutMs: 1_000 })).rejects.toThrow(
      JobNotFoundError,
    );
    expect(() => queue.waitForResult("x", { timeoutMs: 0 })).toThrow(InvalidOptionError);
    await expect(async () => {
      for await (const _message of queue.messages("never-enqueued")) break;
    }).rejects.toThrow(JobNotFoundError);
  });
});

describe("messages", () => {
  it("streams a job's messages to any listener, as JSON, ending with the result", async () => {
    const { queue } = fleet({ modelDelayMs: 100 });
    const conversationId = uniqueName("stream");
    const job = await queue.enqueue({ conversationId, input: promptOf(conversationId, 0) });
    // Two listeners: one from the start, one that attaches once the job is done (replays it all).
    const live: unknown[] = [];
    for await (const message of queue.messages(job.id)) live.push(message);
    const late: unknown[] = [];
    for await (const message of queue.messages(job.id)) late.push(message);
    expect(late).toEqual(live);
    expect(live.map((message) => (message as { type: string }).type)).toEqual([
      "system",
      "assistant",
      "user",
      "assistant",
      "result",
    ]);
    expect(live.at(-1)).toEqual(await queue.waitForResult(job.id, { timeoutMs: 15_000 }));
    expect(JSON.parse(JSON.stringify(live))).toEqual(live);
  });
});
