import { describe, expect, it } from "vitest";
import {
  ConversationConflictError,
  createAgent,
  defineHistoryStore,
  isWellFormedHistory,
  type ModelMessage,
} from "../../src/index";
import { JobFailedError } from "../../src/queue/index";
import { createScriptedClient } from "../../src/testing/index";
import { promptOf } from "../fixtures/queue/workload";
import { fleetKit } from "./fleet";
import { uniqueName } from "./helpers";

const { fleet, historyOf, historyStore, promptsIn, redis, workloadAgent } = fleetKit();

/** Fast retries for the tests: the backoff is BullMQ's, with a short fixed delay. */
const quickRetries = { defaultJobOptions: { attempts: 4, backoff: { type: "fixed", delay: 50 } } };

describe("how a job ends", () => {
  it("completes with an error_* result, not retried: a failed query is a result", async () => {
    const { queue } = fleet({
      createAgent: ({ conversationId }) =>
        createAgent({
          model: "claude-sonnet-4-6",
          client: createScriptedClient([Object.assign(new Error("invalid x-api-key"), { status: 401 })]),
          historyStore: historyStore(conversationId),
        }),
      queueOptions: quickRetries,
    });
    const job = await queue.enqueue({ conversationId: uniqueName("error"), input: "hello" });
    const result = await queue.waitForResult(job.id, { timeoutMs: 15_000 });
    expect(result.subtype).toBe("error_during_execution");
    expect(result.is_error).toBe(true);
    // JSON: the error as { name, message }, nothing else of it.
    expect(Object.keys(result.error ?? {}).sort()).toEqual(["message", "name"]);
    expect(result.error?.message).toContain("invalid x-api-key");
    expect(await queue.getJob(job.id)).toMatchObject({ state: "completed", attemptsMade: 1 });
  });

  it("retries an infrastructure failure (a store that throws) with backoff, then completes", async () => {
    let failuresLeft = 2;
    const { queue } = fleet({
      createAgent: ({ conversationId }) => {
        const inner = historyStore(conversationId);
        return createAgent({
          model: "claude-sonnet-4-6",
          client: createScriptedClient([{ content: "ok" }]),
          historyStore: defineHistoryStore({
            async load() {
              if (failuresLeft-- > 0) throw new Error("connection reset");
              return inner.load();
            },
            append: (message) => inner.append(message),
            replace: (messages) => inner.replace(messages),
            failOnError: true,
          }),
        });
      },
      queueOptions: quickRetries,
    });
    const conversationId = uniqueName("flaky");
    const job = await queue.enqueue({ conversationId, input: "hello" });
    const result = await queue.waitForResult(job.id, { timeoutMs: 15_000 });
    expect(result).toMatchObject({ subtype: "success", result: "ok" });
    expect(await queue.getJob(job.id)).toMatchObject({ state: "completed", attemptsMade: 3 });
    expect(promptsIn(await historyOf(conversationId))).toEqual(["hello"]);
  });

  it("never surfaces a write conflict: the job is retried on a fresh agent", async () => {
    let conflictsLeft = 1;
    const { queue } = fleet({
      createAgent: ({ conversationId }) => {
        const inner = historyStore(conversationId);
        return createAgent({
          model: "claude-sonnet-4-6",
          client: createScriptedClient([{ content: "answered" }]),
          historyStore: defineHistoryStore({
            load: () => inner.load(),
            async append(message: ModelMessage) {
              if (message.role === "assistant" && conflictsLeft-- > 0)
                throw new ConversationConflictError(conversationId, "another writer");
              return inner.append(message);
            },
            replace: (messages) => inner.replace(messages),
          }),
        });
      },
      queueOptions: quickRetries,
    });
    const conversationId = uniqueName("conflict");
    const job = await queue.enqueue({ conversationId, input: "hello" });
    const result = await queue.waitForResult(job.id, { timeoutMs: 15_000 });
    expect(result).toMatchObject({ subtype: "success", result: "answered" });
    const history = await historyOf(conversationId);
    // The first run recorded the prompt and lost the race on its response; the retry rewound the
    // unanswered prompt and sent it again: one prompt, one answer.
    expect(history).toEqual([
      { role: "user", content: "hello" },
      expect.objectContaining({ role: "assistant", content: [{ type: "text", text: "answered" }] }),
    ]);
  });

  it("fails a job for good at once on a caller's mistake, and the conversation goes on", async () => {
    const { queue } = fleet({ queueOptions: quickRetries });
    const conversationId = uniqueName("mistake");
    const bad = await queue.enqueue({
      conversationId,
      input: promptOf(conversationId, 0),
      options: { requestTimeoutMs: -5 },
    });
    const next = await queue.enqueue({ conversationId, input: promptOf(conversationId, 1) });
    const failure = await queue.waitForResult(bad.id, { timeoutMs: 15_000 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(JobFailedError);
    expect((failure as JobFailedError).reason).toContain("requestTimeoutMs");
    expect(await queue.getJob(bad.id)).toMatchObject({ state: "failed", attemptsMade: 1 });
    const messages = [];
    for await (const message of queue.messages(bad.id)) messages.push(message);
    expect(messages.at(-1)).toMatchObject({
      type: "system",
      subtype: "job_failed",
      error: { name: "InvalidOptionError" },
    });
    expect(await queue.waitForResult(next.id, { timeoutMs: 15_000 })).toMatchObject({ subtype: "success" });
    expect(promptsIn(await historyOf(conversationId))).toEqual([promptOf(conversationId, 1)]);
  });

  it("drops a head that can never run (removed from BullMQ) once a parked job checks on it", async () => {
    const { queue, name } = fleet({
      queueOptions: { parkedRecheckMs: 300 },
      workerOptions: { parkedRecheckMs: 300 },
    });
    const conversationId = uniqueName("orphan");
    // A job id listed as the conversation's head that BullMQ does not know (its job was removed by hand).
    await redis.rpush(
      `agent-lattice:queue:{bull:${name}}:pending:${encodeURIComponent(conversationId)}`,
      "ghost",
    );
    const job = await queue.enqueue({ conversationId, input: promptOf(conversationId, 0) });
    expect(await queue.waitForResult(job.id, { timeoutMs: 15_000 })).toMatchObject({ subtype: "success" });
    const history = await historyOf(conversationId);
    expect(isWellFormedHistory(history)).toBe(true);
  });

  it("stops a run whose lease was taken over, and lets the job continue once the lease is free", async () => {
    const { queue, name } = fleet({ modelDelayMs: 1_500 });
    const conversationId = uniqueName("stolen");
    const prompt = promptOf(conversationId, 0);
    const job = await queue.enqueue({ conversationId, input: prompt });
    const leaseKey = `agent-lattice:queue:{bull:${name}}:lease:${encodeURIComponent(conversationId)}`;
    for (let tries = 0; tries < 200 && (await redis.exists(leaseKey)) === 0; tries++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    // Another holder takes the lease (as a worker would after this one froze past it), for 500 ms.
    await redis.set(leaseKey, "intruder:fence", "PX", 500);
    const result = await queue.waitForResult(job.id, { timeoutMs: 20_000 });
    expect(result).toMatchObject({ subtype: "success", result: `done ${conversationId}/0` });
    const history = await historyOf(conversationId);
    expect(isWellFormedHistory(history)).toBe(true);
    expect(promptsIn(history)).toEqual([prompt]);
    const notices = [];
    for await (const message of queue.messages(job.id))
      if (message.type === "system" && message.subtype !== "init") notices.push(message);
    // `rewind` when the prompt had been recorded when the lease went, `fresh` when it had not yet.
    expect(notices).toEqual([
      { type: "system", subtype: "job_resumed", run: 2, mode: expect.stringMatching(/^(rewind|fresh)$/) },
    ]);
  });

  it("records nothing when the lease is lost before a first run's first message: the job resumes fresh", async () => {
    let name = "";
    const conversationId = uniqueName("early-loss");
    const leaseKey = () => `agent-lattice:queue:{bull:${name}}:lease:${encodeURIComponent(conversationId)}`;
    const built = fleet({
      createAgent: async ({ run }) => {
        // After the claim, before the start mark: another holder takes the lease for 400 ms.
        if (run === 1) await redis.set(leaseKey(), "intruder:fence", "PX", 400);
        return workloadAgent(conversationId);
      },
    });
    name = built.name;
    const prompt = promptOf(conversationId, 0);
    const job = await built.queue.enqueue({ conversationId, input: prompt });
    const result = await built.queue.waitForResult(job.id, { timeoutMs: 20_000 });
    expect(result).toMatchObject({ subtype: "success", result: `done ${conversationId}/0` });
    // The first run's init (which carries the mark) was refused: no mark, no prompt, no stream entry.
    const history = await historyOf(conversationId);
    expect(isWellFormedHistory(history)).toBe(true);
    expect(promptsIn(history)).toEqual([prompt]);
    const messages = [];
    for await (const message of built.queue.messages(job.id)) messages.push(message);
    expect(messages.filter((message) => message.type === "system").map((message) => message.subtype)).toEqual(
      ["job_resumed", "init"],
    );
    expect(messages[0]).toMatchObject({ subtype: "job_resumed", run: 2, mode: "fresh" });
  });

  it("records progress after each response: turns, usage and an estimated cost", async () => {
    const { queue } = fleet({ modelDelayMs: 400 });
    const conversationId = uniqueName("progress");
    const job = await queue.enqueue({ conversationId, input: promptOf(conversationId, 0) });
    let info = await queue.getJob(job.id);
    for (let tries = 0; tries < 100 && info?.progress === undefined; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      info = await queue.getJob(job.id);
    }
    expect(info?.state).toBe("active");
    expect(info?.progress).toMatchObject({ num_turns: 1, usage: { input_tokens: 100, output_tokens: 10 } });
    const result = await queue.waitForResult(job.id, { timeoutMs: 15_000 });
    const final = await queue.getJob(job.id);
    expect(final?.progress).toMatchObject({ num_turns: 2, usage: { input_tokens: 200, output_tokens: 20 } });
    // Sonnet 4.6 at $3 / $15 per million tokens: the estimate and the result agree here.
    expect(final?.progress?.total_cost_usd).toBeCloseTo(result.total_cost_usd, 10);
  });
});
