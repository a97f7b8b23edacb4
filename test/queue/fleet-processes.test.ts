/**
 * The fleet with real worker processes: each is `node` on a bundled worker script (fixtures/queue/
 * worker-child.ts) whose agent talks HTTP to a mock Messages API server in this process, with a
 * Redis history store. Ordering under contention, SIGKILL mid-query (repeated), SIGTERM drain.
 *
 * Redis restarted mid-run: redis-restart.test.ts (a private server; the shared one is never restarted).
 */
import { QueueEvents } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNRECORDED_TOOL_RESULT_TEXT } from "../../src/history/repair";
import { isWellFormedHistory, type ModelMessage } from "../../src/index";
import { createRedisHistoryStore } from "../../src/integrations/stores/redis";
import { type AgentQueue, createAgentQueue, DEFAULT_CONTINUATION_PROMPT } from "../../src/queue/index";
import { type MockAnthropicServer, startMockAnthropicServer } from "../../src/testing/index";
import { answerOf, nextStep, promptOf, RECORD_STEPS } from "../fixtures/queue/workload";
import {
  bundleChild,
  killAllChildren,
  type RunningChild,
  startChild,
} from "../integrations/stores/child-runner";
import { until } from "../support/promises";
import { deleteQueueKeys, openRedis, redisUrl, uniqueName } from "./helpers";

const redis = openRedis();
const historyPrefix = `${uniqueName("fleet-history")}:`;
const names: string[] = [];
let script: string;
let server: MockAnthropicServer;
/** Per request: the delay of the answer; a hook to watch requests arrive; what the answer waits for. */
let modelDelayMs: (prompt: string, hasToolResult: boolean) => number = () => 20;
let onModelRequest: (prompt: string, hasToolResult: boolean) => void = () => {};
let answerHeldUntil: (prompt: string, hasToolResult: boolean) => Promise<void> | undefined = () => undefined;

beforeAll(async () => {
  script = await bundleChild("test/fixtures/queue/worker-child.ts");
  server = await startMockAnthropicServer({
    handler: async (body) => {
      const step = nextStep(body.messages);
      const prompt = lastPrompt(body.messages);
      const hasToolResult = typeof step.content === "string";
      onModelRequest(prompt, hasToolResult);
      await answerHeldUntil(prompt, hasToolResult);
      return { ...step, delayMs: modelDelayMs(prompt, hasToolResult) };
    },
  });
}, 60_000);

afterAll(async () => {
  killAllChildren();
  await server?.close();
  for (const name of names) await deleteQueueKeys(redis, name);
  await deleteQueueKeys(redis, "none", historyPrefix);
  await redis.quit();
});

function lastPrompt(messages: Array<{ role: string; content: unknown }>): string {
  for (let index = messages.length - 1; index >= 0; index--) {
    const content = messages[index]!.content;
    if (typeof content === "string" && content.startsWith("job ")) return content;
  }
  return "";
}

interface FleetRun {
  name: string;
  queue: AgentQueue;
  events: QueueEvents;
  completions: Map<string, number>;
  children: RunningChild[];
  start(overrides?: Record<string, unknown>): Promise<RunningChild>;
  close(): Promise<void>;
}

async function startFleet(workers: number, overrides: Record<string, unknown> = {}): Promise<FleetRun> {
  const name = uniqueName("fleet");
  names.push(name);
  const queue = createAgentQueue({ connection: { url: redisUrl }, name });
  // Every completion BullMQ reports, counted per job: exactly once each.
  const events = new QueueEvents(name, { connection: { url: redisUrl } });
  const completions = new Map<string, number>();
  events.on("completed", ({ jobId }) => completions.set(jobId, (completions.get(jobId) ?? 0) + 1));
  await events.waitUntilReady();
  const children: RunningChild[] = [];
  const start = async (more: Record<string, unknown> = {}) => {
    const child = startChild(script, {
      redisUrl,
      name,
      historyPrefix,
      modelUrl: server.url,
      concurrency: 8,
      lockDurationMs: 2_000,
      stalledIntervalMs: 1_000,
      gracePeriodMs: 5_000,
      parkedRecheckMs: 5_000,
      toolDelayMs: 20,
      ...overrides,
      ...more,
    });
    children.push(child);
    await child.waitForLine((line) => line.includes('"ready"'));
    return child;
  };
  for (let index = 0; index < workers; index++) await start();
  return {
    name,
    queue,
    events,
    completions,
    children,
    start,
    async close() {
      for (const child of children)
        if (child.process.exitCode === null && !child.process.killed) child.process.kill("SIGTERM");
      await Promise.all(children.map((child) => child.exited));
      await events.close();
      await queue.close();
    },
  };
}

/**
 * Waits for BullMQ's completed event of each job: a result reaches waiters before BullMQ moves
 * the job to completed, so the event may trail `waitForResult` by a moment.
 */
const completedEventsOf = (fleet: FleetRun, jobIds: string[]) =>
  until(() => jobIds.every((id) => fleet.completions.has(id)), 10_000, 20);

async function historyOf(conversationId: string): Promise<ModelMessage[]> {
  const store = createRedisHistoryStore({ client: redis, keyPrefix: historyPrefix, conversationId });
  const messages = await store.load();
  await store.close();
  return messages;
}

const jobPrompts = (history: ModelMessage[]) =>
  history.flatMap((message) =>
    message.role === "user" && typeof message.content === "string" && message.content.startsWith("job ")
      ? [message.content]
      : [],
  );

const events = (child: RunningChild, event: string) =>
  child.lines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry.event === event);

/** Enqueues `jobs` prompts for each of `conversations` conversations, round robin. */
async function enqueueAll(queue: AgentQueue, conversations: string[], jobs: number) {
  const enqueued: Array<{ id: string; conversationId: string; prompt: string }> = [];
  for (let n = 0; n < jobs; n++)
    for (const conversationId of conversations) {
      const prompt = promptOf(conversationId, n);
      const { id } = await queue.enqueue({ conversationId, input: prompt });
      enqueued.push({ id, conversationId, prompt });
    }
  return enqueued;
}

/** Every job completed exactly once with its answer; every history well-formed and in enqueue order. */
async function expectAllDone(
  fleet: FleetRun,
  conversations: string[],
  jobs: number,
  enqueued: Awaited<ReturnType<typeof enqueueAll>>,
) {
  const results = await Promise.all(
    enqueued.map((job) => fleet.queue.waitForResult(job.id, { timeoutMs: 150_000 })),
  );
  for (const [index, result] of results.entries()) {
    expect(result, enqueued[index]!.prompt).toMatchObject({
      subtype: "success",
      result: answerOf(enqueued[index]!.prompt),
    });
  }
  await completedEventsOf(
    fleet,
    enqueued.map((job) => job.id),
  );
  for (const job of enqueued) expect(fleet.completions.get(job.id), job.prompt).toBe(1);
  const histories = new Map<string, ModelMessage[]>();
  for (const conversationId of conversations) {
    const history = await historyOf(conversationId);
    histories.set(conversationId, history);
    expect(isWellFormedHistory(history), conversationId).toBe(true);
    expect(jobPrompts(history)).toEqual(Array.from({ length: jobs }, (_, n) => promptOf(conversationId, n)));
  }
  return histories;
}

describe("a fleet of worker processes", () => {
  it("runs 20 conversations × 10 jobs across 3 workers: every history in enqueue order, no conflict", async () => {
    modelDelayMs = () => 20;
    // A generous lock: nothing is killed here, and a loaded machine must not make a run look stalled.
    const fleet = await startFleet(3, { lockDurationMs: 5_000 });
    try {
      const conversations = Array.from({ length: 20 }, (_, index) => uniqueName(`order${index}`));
      const enqueued = await enqueueAll(fleet.queue, conversations, 10);
      const histories = await expectAllDone(fleet, conversations, 10, enqueued);
      // No tool ran twice, none was cut off: nothing crashed, so every effect happened exactly once.
      const notices = fleet.children.flatMap((child) => events(child, "error"));
      for (const job of enqueued) {
        const effects = await redis.llen(`${historyPrefix}effects:${job.prompt}`);
        const context = JSON.stringify({ history: histories.get(job.conversationId), notices });
        expect(effects, `${job.prompt}: ${context}`).toBe(1);
      }
      // The work was shared.
      for (const child of fleet.children) expect(events(child, "completed").length).toBeGreaterThan(0);
    } finally {
      await fleet.close();
    }
  }, 180_000);

  it("survives SIGKILL of workers mid-query, repeatedly: each job completes once, histories stay well-formed", async () => {
    modelDelayMs = () => 150;
    const fleet = await startFleet(3, { toolDelayMs: 300 });
    try {
      const conversations = Array.from({ length: 6 }, (_, index) => uniqueName(`kill${index}`));
      const enqueued = await enqueueAll(fleet.queue, conversations, 8);
      const killedDuring: string[] = [];
      const replacements: Array<Promise<RunningChild>> = [];
      for (const moment of ["tool", "request", "tool", "request"] as const) {
        const until = Date.now() + 20_000;
        const victim = await (moment === "tool" ? childInTool(fleet, until) : childInRequest(fleet, until));
        if (victim === undefined) break;
        victim.process.kill("SIGKILL");
        await victim.exited;
        killedDuring.push(moment);
        replacements.push(fleet.start()); // not awaited: the next kill does not wait for it
      }
      await Promise.all(replacements);
      expect(killedDuring).toEqual(["tool", "request", "tool", "request"]);
      const histories = await expectAllDone(fleet, conversations, 8, enqueued);
      // A tool call cut off by a kill was answered "effect unverified" when the conversation resumed.
      const repaired = [...histories.values()].filter((history) =>
        JSON.stringify(history).includes(UNRECORDED_TOOL_RESULT_TEXT),
      );
      expect(repaired.length).toBeGreaterThan(0);
      const continued = [...histories.values()].filter((history) =>
        history.some((message) => message.content === DEFAULT_CONTINUATION_PROMPT),
      );
      expect(continued.length).toBeGreaterThan(0);
    } finally {
      await fleet.close();
    }
  }, 240_000);

  it("durable steps survive SIGKILL of workers inside and between steps: every recorded step ran once", async () => {
    modelDelayMs = () => 50;
    const fleet = await startFleet(3, { tool: "steps", toolDelayMs: 120 });
    try {
      const conversations = Array.from({ length: 6 }, (_, index) => uniqueName(`steps${index}`));
      const enqueued = await enqueueAll(fleet.queue, conversations, 4);
      const killed = new Set<number>();
      const replacements: Array<Promise<RunningChild>> = [];
      for (let kill = 0; kill < 4; kill++) {
        const victim = await childInTool(fleet, Date.now() + 20_000);
        if (victim === undefined) break;
        // Inside the first, second or third step, or between them.
        await new Promise((resolve) => setTimeout(resolve, 40 + ((kill * 97) % 320)));
        victim.process.kill("SIGKILL");
        await victim.exited;
        killed.add(victim.process.pid!);
        replacements.push(fleet.start());
      }
      await Promise.all(replacements);
      expect(killed.size).toBe(4);
      const histories = await expectAllDone(fleet, conversations, 4, enqueued);
      for (const job of enqueued) {
        const runs = await redis.lrange(`${historyPrefix}effects:${job.prompt}`, 0, -1);
        for (const step of RECORD_STEPS) {
          const ofStep = runs.filter((entry) => entry.endsWith(`:${step}`));
          // A step ran again only when a kill cut it off before its result was recorded.
          for (const earlier of ofStep.slice(0, -1)) {
            const pid = Number(earlier.split(":")[0]);
            expect(killed.has(pid), `${job.prompt}: ${runs}`).toBe(true);
            expect(runs.filter((entry) => entry.startsWith(`${pid}:`)).at(-1)).toBe(earlier);
          }
        }
      }
      // A call answered with its real result recorded every step (none skipped, none reported unrun).
      for (const history of histories.values())
        for (const message of history)
          for (const steps of Object.values(message.meta?.tool_steps ?? {}))
            expect(steps.map((step) => step.name)).toEqual([...RECORD_STEPS]);
      // Calls cut off after a recorded step ran again, their steps replayed.
      const rerun = [...histories.values()].filter((history) =>
        history.some((message) => message.meta?.rerun_calls),
      );
      expect(rerun.length).toBeGreaterThan(0);
    } finally {
      await fleet.close();
    }
  }, 240_000);

  it("drains on SIGTERM: a query that finishes within the grace period completes, the rest are re-queued", async () => {
    // Event-driven, so that a slow machine cannot use up the grace period: the quick query's last
    // answer is held until the worker says it is closing, and then only its history write and
    // completion are left inside a 15 s grace; the slow query's answer is held past the grace.
    let slowRequests = 0;
    let slowSeen: () => void = () => {};
    const slowArrived = new Promise<void>((resolve) => (slowSeen = resolve));
    let quickSeen: () => void = () => {};
    const quickLastArrived = new Promise<void>((resolve) => (quickSeen = resolve));
    let releaseQuick: () => void = () => {};
    const quickReleased = new Promise<void>((resolve) => (releaseQuick = resolve));
    let holdSlow = true;
    modelDelayMs = (prompt, hasToolResult) =>
      prompt.includes("slow") && hasToolResult && holdSlow ? 60_000 : 20;
    onModelRequest = (prompt, hasToolResult) => {
      if (prompt.includes("slow") && hasToolResult && ++slowRequests === 1) slowSeen();
      if (prompt.includes("quick") && hasToolResult) quickSeen();
    };
    answerHeldUntil = (prompt, hasToolResult) =>
      prompt.includes("quick") && hasToolResult ? quickReleased : undefined;
    const fleet = await startFleet(1, { gracePeriodMs: 15_000 });
    try {
      const slow = uniqueName("slow");
      const quick = uniqueName("quick");
      const slowJob = await fleet.queue.enqueue({ conversationId: slow, input: promptOf(slow, 0) });
      await slowArrived;
      const quickJob = await fleet.queue.enqueue({ conversationId: quick, input: promptOf(quick, 0) });
      const first = fleet.children[0]!;
      await quickLastArrived;
      first.process.kill("SIGTERM");
      await first.waitForLine((line) => line.includes('"closing"'));
      releaseQuick();
      expect(await first.exited).toEqual({ code: 0, signal: null });
      // The quick query finished on the closing worker; the slow one was interrupted and re-queued.
      expect(events(first, "completed").map((entry) => entry.jobId)).toEqual([quickJob.id]);
      expect((await fleet.queue.getJob(slowJob.id))?.state).toBe("waiting");

      holdSlow = false;
      const second = await fleet.start();
      const result = await fleet.queue.waitForResult(slowJob.id, { timeoutMs: 30_000 });
      expect(result).toMatchObject({ subtype: "success", result: answerOf(promptOf(slow, 0)) });
      expect(events(second, "run").map((entry) => entry.run)).toEqual([2]);
      const history = await historyOf(slow);
      expect(isWellFormedHistory(history)).toBe(true);
      expect(history.map((message) => message.role)).toEqual([
        "user",
        "assistant",
        "user",
        "user",
        "assistant",
      ]);
      await completedEventsOf(fleet, [slowJob.id]);
      expect(fleet.completions.get(slowJob.id)).toBe(1);
    } finally {
      onModelRequest = () => {};
      answerHeldUntil = () => undefined;
      releaseQuick();
      await fleet.close();
    }
  }, 120_000);
});

/** Waits for a child to start a tool call (the tool sleeps before recording its effect). */
async function childInTool(fleet: FleetRun, until: number): Promise<RunningChild | undefined> {
  const seen = new Set(
    fleet.children.flatMap((child) => events(child, "tool").map((entry) => `${entry.jobId}@${entry.at}`)),
  );
  while (Date.now() < until) {
    for (const child of fleet.children) {
      if (child.process.exitCode !== null || child.process.signalCode !== null) continue;
      if (events(child, "tool").some((entry) => !seen.has(`${entry.jobId}@${entry.at}`))) return child;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return undefined;
}

/** Waits for a model request (answered after 150 ms) and finds the child that sent it. */
async function childInRequest(fleet: FleetRun, until: number): Promise<RunningChild | undefined> {
  const prompt = await new Promise<string | undefined>((resolve) => {
    const timer = setTimeout(() => {
      onModelRequest = () => {};
      resolve(undefined);
    }, until - Date.now());
    onModelRequest = (requested) => {
      clearTimeout(timer);
      onModelRequest = () => {};
      resolve(requested);
    };
  });
  if (prompt === undefined) return undefined;
  const conversationId = prompt.slice("job ".length, prompt.lastIndexOf("/"));
  let owner: RunningChild | undefined;
  let latest = 0;
  for (const child of fleet.children) {
    if (child.process.exitCode !== null || child.process.signalCode !== null) continue;
    for (const entry of events(child, "run"))
      if (entry.conversationId === conversationId && (entry.at as number) > latest) {
        latest = entry.at as number;
        owner = child;
      }
  }
  return owner ?? childInRequest(fleet, until);
}
