/**
 * In-process fleets for the queue tests: a queue and workers of the test workload (scripted model,
 * the `record` tool, a Redis history store) on the real Redis, each queue unique to the test, all
 * closed after each test and their keys deleted after the file.
 */
import { afterAll, afterEach } from "vitest";
import { createAgent, type ModelMessage } from "../../src/index";
import { createRedisHistoryStore } from "../../src/integrations/stores/redis";
import {
  type AgentQueue,
  type AgentQueueOptions,
  type AgentWorker,
  type AgentWorkerOptions,
  type CreateJobAgent,
  createAgentQueue,
  createAgentWorker,
} from "../../src/queue/index";
import { createScriptedClient } from "../../src/testing/index";
import { nextStep, recordTool } from "../fixtures/queue/workload";
import { deleteQueueKeys, openRedis, redisUrl, uniqueName } from "./helpers";

export interface FleetOptions {
  workers?: number;
  modelDelayMs?: number;
  toolDelayMs?: number;
  /** Replaces the workload agent. */
  createAgent?: CreateJobAgent;
  queueOptions?: Partial<AgentQueueOptions>;
  workerOptions?: Partial<AgentWorkerOptions>;
}

/** Registers the cleanup hooks of a test file and returns its helpers. */
export function fleetKit() {
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

  /** The workload agent of a conversation: scripted model, the `record` tool, a Redis history store. */
  function workloadAgent(conversationId: string, options: FleetOptions = {}) {
    return createAgent({
      model: "claude-sonnet-4-6",
      client: createScriptedClient(({ messages }) => ({
        ...nextStep(messages as never),
        delayMs: options.modelDelayMs ?? 5,
      })),
      tools: [recordTool(redis, (prompt) => `${historyPrefix}effects:${prompt}`, options.toolDelayMs ?? 5)],
      historyStore: historyStore(conversationId),
    });
  }

  const historyStore = (conversationId: string) =>
    createRedisHistoryStore({ client: redis, keyPrefix: historyPrefix, conversationId, failOnError: true });

  /** A queue and `workers` in-process workers, closed after the test. */
  function fleet(options: FleetOptions = {}) {
    const name = uniqueName("queue");
    names.push(name);
    const connection = { url: redisUrl };
    const queue: AgentQueue = createAgentQueue({ connection, name, ...options.queueOptions });
    const workers: AgentWorker[] = [];
    const startWorker = () => {
      const worker = createAgentWorker({
        connection,
        name,
        concurrency: 4,
        lockDurationMs: 3_000,
        stalledIntervalMs: 1_000,
        createAgent: options.createAgent ?? (({ conversationId }) => workloadAgent(conversationId, options)),
        ...options.workerOptions,
      });
      workers.push(worker);
      return worker;
    };
    for (let index = 0; index < (options.workers ?? 1); index++) startWorker();
    closers.push(async () => {
      await Promise.all(workers.map((worker) => worker.close({ gracePeriodMs: 0 })));
      await queue.close();
    });
    return { name, queue, workers, startWorker };
  }

  async function historyOf(conversationId: string): Promise<ModelMessage[]> {
    const store = createRedisHistoryStore({ client: redis, keyPrefix: historyPrefix, conversationId });
    const messages = await store.load();
    await store.close();
    return messages;
  }

  const promptsIn = (history: ModelMessage[]) =>
    history
      .filter((message) => message.role === "user" && typeof message.content === "string")
      .map((m) => m.content);

  return { redis, historyPrefix, fleet, historyOf, historyStore, workloadAgent, promptsIn };
}
