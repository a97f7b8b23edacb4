import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createAgent, isWellFormedHistory, type ModelMessage } from "../../src/index";
import { createRedisHistoryStore } from "../../src/integrations/stores/redis";
import { type AgentQueue, type AgentWorker, createAgentQueue, createAgentWorker } from "../../src/queue/index";
import { createScriptedClient } from "../../src/testing/index";
import { nextStep, promptOf, recordTool } from "../fixtures/queue/workload";
import { deleteQueueKeys, openRedis, redisUrl, uniqueName } from "./helpers";

const redis = openRedis();
const historyPrefix = `${uniqueName("history")}:`;
const names: string[] = [];
const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});
afterAll(async () => {
  for (const name of names) await deleteQueueKeys(redis, name);
  await deleteQueueKeys(redis, "none", historyPrefix);
  await redis.quit();
});

/** A queue and `workers` in-process workers of the test workload, closed after the test. */
function fleet(options: { workers?: number; modelDelayMs?: number; toolDelayMs?: number } = {}) {
  const name = uniqueName("queue");
  names.push(name);
  const connection = { url: redisUrl };
  const queue: AgentQueue = createAgentQueue({ connection, name });
  const workers: AgentWorker[] = [];
  for (let index = 0; index < (options.workers ?? 1); index++) {
    workers.push(
      createAgentWorker({
        connection,
        name,
        concurrency: 4,
        lockDurationMs: 3_000,
        stalledIntervalMs: 1_000,
        createAgent: ({ conversationId }) =>
          createAgent({
            model: "claude-sonnet-4-6",
            client: createScriptedClient(({ messages }) => ({
              ...nextStep(messages as never),
              delayMs: options.modelDelayMs ?? 5,
            })),
            tools: [recordTool(redis, (prompt) => `${historyPrefix}effects:${prompt}`, options.toolDelayMs ?? 5)],
            historyStore: createRedisHistoryStore({ client: redis, keyPrefix: historyPrefix, conversationId, failOnError: true }),
          }),
      }),
    );
  }
  closers.push(async () => {
    await Promise.all(workers.map((worker) => worker.close({ gracePeriodMs: 0 })));
    await queue.close();
  });
  return { name, queue, workers };
}

async function historyOf(conversationId: string): Promise<ModelMessage[]> {
  const store = createRedisHistoryStore({ client: redis, keyPrefix: historyPrefix, conversationId });
  const messages = await store.load();
  await store.close();
  return messages;
}

const promptsIn = (history: ModelMessage[]) =>
  history.filter((message) => message.role === "user" && typeof message.content === "string").map((m) => m.content);

describe("createAgentQueue + createAgentWorker", () => {
  it("runs a job and completes it with the query's result as JSON", async () => {
    const { queue } = fleet();
    const conversationId = uniqueName("conversation");
    const job = await queue.enqueue({ conversationId, input: promptOf(conversationId, 0) });
    const result = await queue.waitForResult(job.id, { timeoutMs: 15_000 });
    expect(result).toMatchObject({ type: "result", subtype: "success", result: `done ${conversationId}/0`, num_turns: 2 });
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
      for (const conversationId of conversations) jobs.push(await queue.enqueue({ conversationId, input: promptOf(conversationId, n) }));
    const results = await Promise.all(jobs.map((job) => queue.waitForResult(job.id, { timeoutMs: 30_000 })));
    expect(results.every((result) => result.subtype === "success")).toBe(true);
    for (const conversationId of conversations) {
      const history = await historyOf(conversationId);
      expect(isWellFormedHistory(history)).toBe(true);
      expect(promptsIn(history)).toEqual([0, 1, 2, 3, 4].map((n) => promptOf(conversationId, n)));
    }
  });
});
