/**
 * What the fleet leaves in Redis holds no secret: after a completed run, a failed one and a retried
 * one, every key of the queue (BullMQ's job hashes, events, the lane's state and streams) and the
 * conversation's history is read back whole and searched for the secrets the prompt, the per-query
 * options and the thrown errors carried. Also: the retention option, and a completed job's data
 * reduced to its conversation id.
 */
import type { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { createAgent, InvalidOptionError } from "../../src/index";
import { createAgentQueue, JobFailedError } from "../../src/queue/index";
import { createScriptedClient } from "../../src/testing/index";
import { fleetKit } from "./fleet";
import { redisUrl, uniqueName } from "./helpers";

const { fleet, historyStore, historyPrefix, redis } = fleetKit();

/** A key of the credential pattern: redacted whatever `secrets` says. */
const ANTHROPIC_KEY = "sk-ant-api03-FleetKey_9d2c7e1b4a6f8e3d";
/** A provider key not shaped like one: redacted because the queue and the worker list it. */
const PROVIDER_KEY = "sk-3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e";
/** What per-query options carried (a stop sequence naming a customer): kept only while the job waits or runs. */
const USER_ID = "customer-81237-privacy-sensitive";

/** Every value of every key matching `patterns`, as one text (strings, hashes, lists, sets, zsets, streams). */
async function dumpKeys(client: Redis, patterns: string[]): Promise<string> {
  const parts: string[] = [];
  for (const pattern of patterns) {
    for (const key of await client.keys(pattern)) {
      const type = await client.type(key);
      parts.push(`${key} (${type})`);
      if (type === "string") parts.push(String(await client.get(key)));
      else if (type === "hash") parts.push(JSON.stringify(await client.hgetall(key)));
      else if (type === "list") parts.push(...(await client.lrange(key, 0, -1)));
      else if (type === "set") parts.push(...(await client.smembers(key)));
      else if (type === "zset") parts.push(...(await client.zrange(key, "0", "-1")));
      else if (type === "stream") parts.push(JSON.stringify(await client.xrange(key, "-", "+")));
    }
  }
  return parts.join("\n");
}

const keysOf = (name: string) => [
  `bull:${name}:*`,
  `agent-lattice:queue:{bull:${name}}:*`,
  `${historyPrefix}*`,
];

function expectNoSecret(text: string): void {
  for (const secret of [
    ANTHROPIC_KEY,
    PROVIDER_KEY,
    "FleetKey_9d2c7e1b4a6f8e3d",
    "3f9a1c7e5b2d4f6a8c0e1b3d",
  ]) {
    expect(text).not.toContain(secret);
  }
}

const secrets = [PROVIDER_KEY];

describe("the fleet keeps no secret in Redis", () => {
  it("a completed job: prompt and options redacted before BullMQ stores them, data reduced once done", async () => {
    const conversationId = uniqueName("secret-ok");
    let seenInput: unknown;
    const { name, queue } = fleet({
      queueOptions: { secrets },
      workerOptions: { secrets },
      createAgent: ({ conversationId: id }) =>
        createAgent({
          model: "claude-sonnet-4-6",
          secrets,
          client: createScriptedClient((request) => {
            seenInput = request.messages[0]?.content;
            return { content: `echo ${ANTHROPIC_KEY} and ${PROVIDER_KEY}` };
          }),
          historyStore: historyStore(id),
        }),
    });
    const job = await queue.enqueue({
      conversationId,
      input: `deploy with ${ANTHROPIC_KEY} then ${PROVIDER_KEY}`,
      options: { stopSequences: [USER_ID] },
    });
    // While it waits, the data holds the redacted prompt and the options (the worker needs them).
    const waiting = await queue.bullmq.getJob(job.id);
    expect(JSON.stringify(waiting?.data)).toContain("deploy with [redacted] then [redacted]");
    expect(JSON.stringify(waiting?.data)).toContain(USER_ID);
    const result = await queue.waitForResult(job.id, { timeoutMs: 15_000 });
    expect(result.subtype).toBe("success");
    expect(JSON.stringify(seenInput)).toContain("deploy with [redacted] then [redacted]");
    // Once the result is recorded, the job's data is its conversation id only.
    await until(
      async () =>
        JSON.stringify((await queue.bullmq.getJob(job.id))?.data) === JSON.stringify({ conversationId }),
    );
    const dump = await dumpKeys(redis, keysOf(name));
    expect(dump).toContain(conversationId); // the dump is real: the job and its history are in it
    expect(dump).toContain("deploy with [redacted]");
    expectNoSecret(dump);
    expect(dump).not.toContain(USER_ID);
  }, 60_000);

  it("a job failed for good: failedReason, stack, job_failed, JobFailedError and getJob hold no secret", async () => {
    const { name, queue } = fleet({
      queueOptions: { secrets, defaultJobOptions: { attempts: 2, backoff: { type: "fixed", delay: 20 } } },
      workerOptions: { secrets },
      createAgent: () => {
        throw new Error(`cannot open the store with ${PROVIDER_KEY} (also tried ${ANTHROPIC_KEY})`);
      },
    });
    const conversationId = uniqueName("secret-failed");
    const job = await queue.enqueue({ conversationId, input: `use ${PROVIDER_KEY}` });
    const messages = (async () => {
      const seen: unknown[] = [];
      for await (const message of queue.messages(job.id)) seen.push(message);
      return seen;
    })();
    const failure = await queue.waitForResult(job.id, { timeoutMs: 15_000 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(JobFailedError);
    expect((failure as Error).message).toContain("cannot open the store with [redacted]");
    expectNoSecret((failure as Error).message);
    const info = await queue.getJob(job.id);
    expect(info?.state).toBe("failed");
    expect(info?.failedReason).toContain("[redacted]");
    expectNoSecret(JSON.stringify(info));
    const streamed = await messages;
    expect(streamed.at(-1)).toMatchObject({ subtype: "job_failed" });
    expectNoSecret(JSON.stringify(streamed));
    const raw = await queue.bullmq.getJob(job.id);
    expect(raw?.stacktrace?.length).toBe(2); // both attempts' stacks, each redacted
    const dump = await dumpKeys(redis, keysOf(name));
    expect(dump).toContain("cannot open the store with [redacted]");
    expectNoSecret(dump);
  }, 60_000);

  it("a failure retried into a success leaves no secret in the first attempt's stack", async () => {
    let attempt = 0;
    const { name, queue } = fleet({
      queueOptions: { defaultJobOptions: { attempts: 3, backoff: { type: "fixed", delay: 20 } } },
      createAgent: ({ conversationId: id }) => {
        if (attempt++ === 0) throw new Error(`token ${ANTHROPIC_KEY} refused`);
        return createAgent({
          model: "claude-sonnet-4-6",
          client: createScriptedClient([{ content: "ok" }]),
          historyStore: historyStore(id),
        });
      },
    });
    const job = await queue.enqueue({ conversationId: uniqueName("secret-retry"), input: "hi" });
    expect((await queue.waitForResult(job.id, { timeoutMs: 15_000 })).subtype).toBe("success");
    const raw = await queue.bullmq.getJob(job.id);
    expect(raw?.stacktrace?.join("\n")).toContain("token [redacted] refused");
    expectNoSecret(await dumpKeys(redis, keysOf(name)));
  }, 60_000);
});

/** Every value of every key in the whole Redis (SCAN, not a pattern of ours), as one text. */
async function dumpAllKeys(client: Redis): Promise<{ text: string; keys: number }> {
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, batch] = await client.scan(cursor, "COUNT", 1000);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== "0");
  return { text: await dumpKeys(client, keys), keys: keys.length };
}

describe("the secrets of the Agent a worker builds", () => {
  it("a job whose store fails with the Agent's own API key in its error: Redis, getJob, messages and the producer never see the key", async () => {
    // Not credential-shaped, listed nowhere but in the Agent's apiKey: only the Agent knows it.
    const agentKey = `own-key-${uniqueName("k").replace(/[^a-z0-9]/gi, "")}-7f3e9a1c`;
    const failing = {
      load: async () => [],
      append: async () => {
        throw new Error(`store at https://db.internal/?auth=${agentKey} refused the write`);
      },
      replace: async () => {
        throw new Error(`replace refused for ${agentKey}`);
      },
      failOnError: true,
    };
    const { queue } = fleet({
      queueOptions: { defaultJobOptions: { attempts: 2, backoff: { type: "fixed", delay: 20 } } },
      createAgent: () =>
        createAgent({
          model: "claude-sonnet-4-6",
          apiKey: agentKey,
          client: createScriptedClient([{ content: "ok" }, { content: "ok" }]),
          historyStore: failing,
        }),
    });
    const job = await queue.enqueue({ conversationId: uniqueName("agent-key"), input: "hi" });
    const messages = (async () => {
      const seen: unknown[] = [];
      for await (const message of queue.messages(job.id)) seen.push(message);
      return seen;
    })();
    const failure = await queue.waitForResult(job.id, { timeoutMs: 15_000 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(JobFailedError);
    expect((failure as Error).message).toContain("[redacted]");
    expect((failure as Error).message).not.toContain(agentKey);
    const info = await queue.getJob(job.id);
    expect(info?.state).toBe("failed");
    expect(JSON.stringify(info)).not.toContain(agentKey);
    const streamed = await messages;
    expect(streamed.at(-1)).toMatchObject({ subtype: "job_failed" });
    expect(JSON.stringify(streamed)).not.toContain(agentKey);
    const raw = await queue.bullmq.getJob(job.id);
    expect(raw?.stacktrace?.length).toBe(2); // both attempts' stacks
    expect(raw?.failedReason).toContain("refused the write");
    expect(`${raw?.failedReason}\n${raw?.stacktrace?.join("\n")}`).not.toContain(agentKey);
    // Every key of the Redis, not only ours: none holds the key.
    const dump = await dumpAllKeys(redis);
    expect(dump.keys).toBeGreaterThan(0);
    expect(dump.text).toContain("refused the write"); // the failure is in it, redacted
    expect(dump.text).not.toContain(agentKey);
    expect(dump.text).not.toContain(agentKey.slice(8, 30));
  }, 60_000);
});

describe("retention", () => {
  it("`retention.completed: { count: 0 }` removes a completed job as it completes", async () => {
    const { queue } = fleet({ queueOptions: { retention: { completed: { count: 0 } } } });
    const conversationId = uniqueName("retention");
    const job = await queue.enqueue({ conversationId, input: `job ${conversationId}/1` });
    expect((await queue.waitForResult(job.id, { timeoutMs: 15_000 })).subtype).toBe("success");
    await until(async () => (await queue.getJob(job.id)) === undefined);
  }, 60_000);

  it("the default keeps completed jobs a day and failed ones a week; bad values are refused", () => {
    const name = uniqueName("retention-options");
    const queue = createAgentQueue({ connection: { url: redisUrl, lazyConnect: true }, name });
    expect(queue.bullmq.defaultJobOptions).toMatchObject({
      removeOnComplete: { age: 86_400 },
      removeOnFail: { age: 604_800 },
    });
    void queue.close();
    const connection = { url: redisUrl, lazyConnect: true };
    for (const bad of [
      { retention: { completed: { age: -1 } } },
      { retention: { failed: {} } },
      { retention: null },
      { retention: { completed: { age: 60 } }, defaultJobOptions: { removeOnComplete: true } },
      { secrets: ["ok", 3] },
    ]) {
      expect(() => createAgentQueue({ connection, name, ...(bad as object) })).toThrow(InvalidOptionError);
    }
  });
});

/** Polls `condition` until it holds (bounded far beyond any healthy wait). */
async function until(condition: () => Promise<boolean>, limitMs = 20_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error("condition never held");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
