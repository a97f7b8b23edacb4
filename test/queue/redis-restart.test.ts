/**
 * The fleet when Redis itself dies: a private `redis-server` (test/fixtures/redis-server.ts; the
 * shared one is never restarted) with an append-only file — the setting the docs recommend — holds
 * the queue, the lanes and the history stores of three worker processes. It is killed (SIGKILL)
 * mid-run, left down for longer than the lease, and started again on the same port. What a user can
 * rely on: the workers reconnect by themselves, every job completes exactly once with its answer,
 * histories are well-formed and in enqueue order, no lease is left behind, a prompt enqueued during
 * the outage is kept, and the errors reported meanwhile never carry the server's password. And an
 * enqueue while Redis stays down rejects with ioredis' MaxRetriesPerRequestError; repeated with the
 * same jobId once Redis is back, it adds the job once.
 */
import { QueueEvents } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isWellFormedHistory, type ModelMessage } from "../../src/index";
import { createRedisHistoryStore } from "../../src/integrations/stores/redis";
import { createAgentQueue } from "../../src/queue/index";
import { type MockAnthropicServer, startMockAnthropicServer } from "../../src/testing/index";
import { answerOf, nextStep, promptOf } from "../fixtures/queue/workload";
import { type PrivateRedis, startPrivateRedis } from "../fixtures/redis-server";
import {
  bundleChild,
  killAllChildren,
  type RunningChild,
  startChild,
} from "../integrations/stores/child-runner";
import { uniqueName } from "./helpers";

const PASSWORD = `pw-${uniqueName("secret")}`;
const historyPrefix = `${uniqueName("restart-history")}:`;
let redisServer: PrivateRedis;
let script: string;
let server: MockAnthropicServer;

beforeAll(async () => {
  redisServer = await startPrivateRedis({ appendOnly: true, password: PASSWORD });
  script = await bundleChild("test/fixtures/queue/worker-child.ts");
  server = await startMockAnthropicServer({
    handler: (body) => ({ ...nextStep(body.messages), delayMs: 100 }),
  });
}, 60_000);

afterAll(async () => {
  killAllChildren();
  await server?.close();
  await redisServer?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const logOf = (child: RunningChild) => child.lines.map((line) => JSON.parse(line) as Record<string, unknown>);

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await sleep(20);
  }
}

describe("a fleet when Redis is killed mid-run and restarted (append-only file)", () => {
  it("reconnects, completes every job exactly once, keeps histories well-formed and frees every lease", async () => {
    const url = redisServer.url;
    const name = uniqueName("restart");
    const queue = createAgentQueue({ connection: { url }, name, onError: () => {} });
    const events = new QueueEvents(name, { connection: { url } });
    events.on("error", () => {});
    const completions = new Map<string, number>();
    events.on("completed", ({ jobId }) => completions.set(jobId, (completions.get(jobId) ?? 0) + 1));
    await events.waitUntilReady();
    const children: RunningChild[] = [];
    for (let index = 0; index < 3; index++) {
      const child = startChild(script, {
        redisUrl: url,
        name,
        historyPrefix,
        modelUrl: server.url,
        concurrency: 4,
        lockDurationMs: 2_000,
        stalledIntervalMs: 1_000,
        gracePeriodMs: 5_000,
        parkedRecheckMs: 3_000,
        toolDelayMs: 100,
      });
      children.push(child);
      await child.waitForLine((line) => line.includes('"ready"'));
    }
    const inspector = new Redis(url, { maxRetriesPerRequest: null });
    inspector.on("error", () => {});
    try {
      const conversations = Array.from({ length: 6 }, (_, index) => uniqueName(`restart${index}`));
      const enqueued: Array<{ id: string; conversationId: string; prompt: string }> = [];
      for (let n = 0; n < 5; n++)
        for (const conversationId of conversations) {
          const prompt = promptOf(conversationId, n);
          const { id } = await queue.enqueue({ conversationId, input: prompt });
          enqueued.push({ id, conversationId, prompt });
        }
      const results = enqueued.map((job) => queue.waitForResult(job.id, { timeoutMs: 150_000 }));

      // Mid-run: some jobs done, others running (a tool started after the first completions).
      await until(() => completions.size >= 6, 60_000, "six completions");
      const toolsBefore = children.flatMap((child) => logOf(child).filter((entry) => entry.event === "tool"));
      await until(
        () =>
          children.flatMap((child) => logOf(child).filter((entry) => entry.event === "tool")).length >
          toolsBefore.length,
        30_000,
        "a tool call in flight",
      );
      await redisServer.kill("SIGKILL");
      const killedAt = Date.now();
      // A prompt enqueued while Redis is down waits for the connection and is kept.
      const lateConversation = conversations[0]!;
      const latePrompt = promptOf(lateConversation, 5);
      const late = queue.enqueue({ conversationId: lateConversation, input: latePrompt });
      // Down for longer than the lease (2 s): every run that was in flight loses it.
      await sleep(3_000);
      await redisServer.restart();
      const restartedAt = Date.now();
      const lateJob = await late;
      const lateResult = await queue.waitForResult(lateJob.id, { timeoutMs: 150_000 });
      expect(lateResult).toMatchObject({ subtype: "success", result: answerOf(latePrompt) });

      for (const [index, result] of (await Promise.all(results)).entries())
        expect(result, enqueued[index]!.prompt).toMatchObject({
          subtype: "success",
          result: answerOf(enqueued[index]!.prompt),
        });
      const all = [...enqueued, { ...lateJob, prompt: latePrompt }];
      await until(() => completions.size >= all.length, 10_000, "every completed event");
      for (const job of all) expect(completions.get(job.id), job.prompt).toBe(1);

      for (const conversationId of conversations) {
        const store = createRedisHistoryStore({
          client: inspector,
          keyPrefix: historyPrefix,
          conversationId,
        });
        const history: ModelMessage[] = await store.load();
        expect(isWellFormedHistory(history), conversationId).toBe(true);
        const prompts = history.flatMap((message) =>
          message.role === "user" && typeof message.content === "string" && message.content.startsWith("job ")
            ? [message.content]
            : [],
        );
        const jobs = conversationId === lateConversation ? 6 : 5;
        expect(prompts).toEqual(Array.from({ length: jobs }, (_, n) => promptOf(conversationId, n)));
      }
      // Nothing is left holding a conversation, and no conversation has a job listed.
      expect(await inspector.keys(`agent-lattice:queue:{bull:${name}}:lease:*`)).toEqual([]);
      expect(await inspector.keys(`agent-lattice:queue:{bull:${name}}:pending:*`)).toEqual([]);

      // The workers reconnected by themselves: all three still run, and jobs completed after the restart.
      for (const child of children) expect(child.process.exitCode).toBeNull();
      expect((await queue.bullmq.getWorkers()).length).toBeGreaterThanOrEqual(3);
      const completedAfter = children.flatMap((child) =>
        logOf(child).filter((entry) => entry.event === "completed" && (entry.at as number) > restartedAt),
      );
      expect(completedAfter.length).toBeGreaterThan(0);
      // The outage was reported — and never with the password of the server.
      const errors = children.flatMap((child) =>
        logOf(child).filter((entry) => entry.event === "error" && (entry.at as number) >= killedAt),
      );
      expect(errors.length).toBeGreaterThan(0);
      // The runs in flight lost their lease and were resumed by a later run, which completed them.
      const resumed = children.flatMap((child) =>
        logOf(child).filter((entry) => entry.event === "run" && (entry.run as number) > 1),
      );
      expect(resumed.length).toBeGreaterThan(0);
      expect(errors.map((entry) => entry.message)).toContainEqual(expect.stringMatching(/ECONNREFUSED/));
      for (const child of children) {
        expect(child.lines.join("\n")).not.toContain(PASSWORD);
        expect(child.stderr()).not.toContain(PASSWORD);
      }
      expect(JSON.stringify(await Promise.all(results))).not.toContain(PASSWORD);
    } finally {
      for (const child of children) if (child.process.exitCode === null) child.process.kill("SIGTERM");
      await Promise.all(children.map((child) => child.exited));
      await events.close();
      await queue.close();
      await inspector.quit();
    }
  }, 240_000);

  it("rejects an enqueue while Redis stays down with ioredis' error, password-free; the same jobId is then added once", async () => {
    const name = uniqueName("down");
    // Fail fast: one reconnection attempt per call instead of ioredis' 20.
    const connection = { url: redisServer.url, maxRetriesPerRequest: 1 };
    const queue = createAgentQueue({ connection, name, onError: () => {} });
    const conversationId = uniqueName("down");
    try {
      await redisServer.kill("SIGKILL");
      const failure = await queue
        .enqueue({ conversationId, input: promptOf(conversationId, 0), jobId: "down-1" })
        .catch((error: unknown) => error as Error);
      expect(failure).toMatchObject({ name: "MaxRetriesPerRequestError" });
      expect((failure as Error).message).toMatch(/max retries per request limit/);
      expect(`${(failure as Error).message} ${(failure as Error).stack}`).not.toContain(PASSWORD);
      await redisServer.restart();
      await queue.enqueue({ conversationId, input: promptOf(conversationId, 0), jobId: "down-1" });
      await queue.enqueue({ conversationId, input: promptOf(conversationId, 0), jobId: "down-1" });
      expect(await queue.bullmq.getJobCounts("waiting", "delayed")).toEqual({ waiting: 1, delayed: 0 });
    } finally {
      if (!redisServer.running) await redisServer.restart();
      await queue.close();
    }
  }, 60_000);

  it("loses the queue without an append-only file — why the docs recommend one", async () => {
    const volatile = await startPrivateRedis({ appendOnly: false });
    const queue = createAgentQueue({
      connection: { url: volatile.url },
      name: uniqueName("volatile"),
      onError: () => {},
    });
    try {
      const conversationId = uniqueName("volatile");
      const job = await queue.enqueue({ conversationId, input: promptOf(conversationId, 0) });
      expect((await queue.getJob(job.id))?.state).toBe("waiting");
      await volatile.restart();
      expect(await queue.getJob(job.id)).toBeUndefined();
      await expect(queue.waitForResult(job.id, { timeoutMs: 5_000 })).rejects.toThrow(/No job/);
    } finally {
      await queue.close();
      await volatile.stop();
    }
  }, 60_000);
});
