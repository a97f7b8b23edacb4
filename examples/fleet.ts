/**
 * A fleet on BullMQ: two workers and a producer, offline.
 *
 *   npx tsx examples/fleet.ts          (needs Redis: REDIS_URL, default redis://127.0.0.1:6379)
 *
 * The bundled mock Messages API server stands in for the model (it looks the order up with a tool,
 * then answers), so no API key is needed. Both workers run in this process to keep the example in
 * one file; in production each is a process of its own (a container, a pod), and the producer is
 * your web server. In your own project, import from "agent-lattice", "agent-lattice/queue",
 * "agent-lattice/stores/redis" and "agent-lattice/testing".
 */
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { z } from "zod";
import { createAgent, defineTool } from "../src/index";
import { createRedisHistoryStore } from "../src/integrations/stores/redis";
import { type AgentWorker, createAgentQueue, createAgentWorker } from "../src/queue/index";
import { type MockHandler, startMockAnthropicServer } from "../src/testing/index";

const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const run = randomBytes(4).toString("hex"); // this run's own queue and keys
const name = `fleet-example-${run}`;
const keyPrefix = `fleet-example-${run}:`;

const orderStatus = defineTool({
  name: "order_status",
  description: "The delivery status of an order",
  inputSchema: z.object({ orderId: z.string() }),
  readOnly: true,
  execute: ({ orderId }) => `Order ${orderId} left the warehouse this morning.`,
});

/** The offline model: look the order up, then answer with what the tool said. */
const offlineModel: MockHandler = (body) => {
  const last = body.messages.at(-1);
  const result = Array.isArray(last?.content)
    ? last.content.find((block: { type: string }) => block.type === "tool_result")
    : undefined;
  if (!result) {
    const orderId = /\d+/.exec(JSON.stringify(last?.content))?.[0] ?? "unknown";
    return {
      content: [{ type: "tool_use", id: `toolu_${orderId}`, name: "order_status", input: { orderId } }],
    };
  }
  return { content: `Good news: ${String(result.content)}` };
};

async function main(): Promise<void> {
  const model = await startMockAnthropicServer({ handler: offlineModel });
  console.log(`  Offline, against the mock server at ${model.url}, with the queue on ${redisUrl}.`);
  const redis = new Redis(redisUrl); // shared by the history stores of every job
  const connection = { url: redisUrl };

  const startWorker = (label: string): AgentWorker =>
    createAgentWorker({
      connection,
      name,
      concurrency: 5,
      createAgent: ({ conversationId, run: attempt }) => {
        console.log(`  [${label}] runs a job of ${conversationId}${attempt > 1 ? ` (run ${attempt})` : ""}`);
        return createAgent({
          model: "claude-sonnet-4-6",
          apiKey: "offline",
          baseURL: model.url,
          tools: [orderStatus],
          historyStore: createRedisHistoryStore({
            client: redis,
            keyPrefix,
            conversationId,
            ttlSeconds: 600,
          }),
        });
      },
    });
  const workers = [startWorker("worker A"), startWorker("worker B")];

  const queue = createAgentQueue({ connection, name });
  try {
    // Two prompts for each of three customers: each customer's run in order, one at a time.
    const jobs = [];
    for (const customer of ["ada", "grace", "linus"])
      for (const order of [1001, 1002])
        jobs.push({
          customer,
          ...(await queue.enqueue({ conversationId: customer, input: `Where is order ${order}?` })),
        });

    // Any process can follow a job's messages while it runs.
    for await (const message of queue.messages(jobs[0]!.id)) {
      if (message.type === "assistant")
        for (const block of message.message.content)
          if (block.type === "tool_use")
            console.log(`  ${jobs[0]!.customer}: → ${block.name}(${JSON.stringify(block.input)})`);
    }

    for (const job of jobs) {
      const result = await queue.waitForResult(job.id, { timeoutMs: 30_000 });
      console.log(`${job.customer}: ${result.subtype} · ${result.num_turns} turns · ${result.result}`);
      if (result.is_error) process.exitCode = 1;
    }
  } finally {
    await Promise.all(workers.map((worker) => worker.close()));
    // Tidy up this run's keys: the queue's, the lane's, the conversations'.
    await queue.bullmq.obliterate({ force: true }).catch(() => {});
    await queue.close();
    for (const pattern of [`${keyPrefix}*`, `agent-lattice:queue:{bull:${name}}:*`])
      for (const key of await redis.keys(pattern)) await redis.del(key);
    await redis.quit();
    await model.close();
  }
}

await main();
