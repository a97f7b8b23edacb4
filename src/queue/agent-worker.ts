/**
 * `createAgentWorker`: a BullMQ worker that runs the jobs of an agent queue, one query per
 * conversation at a time across every worker of the queue (see process-job.ts), and shuts down
 * without losing a job.
 * @module
 */
import { type ConnectionOptions, type Job, Queue, Worker } from "bullmq";
import { DEFAULT_PRICING, InvalidOptionError, type ModelPricing } from "../index";
import { nonNegativeInteger, positiveInteger } from "../shared/option-checks";
import { ConversationLane } from "./conversation-lane";
import { withInspectSummary } from "./inspect-summary";
import type { AgentJobData, AgentJobResult } from "./job-types";
import { type QueueBaseOptions, queueOption, resolveBaseOptions } from "./options";
import { processJob } from "./process-job";
import { DEFAULT_CONTINUATION_PROMPT } from "./resume-plan";
import type { CreateJobAgent, InterruptibleRun, WorkerRuntime } from "./worker-runtime";

/** Default number of jobs one worker runs at once. */
export const DEFAULT_WORKER_CONCURRENCY = 10;
/** Default time `close()` lets running queries finish before interrupting them, in ms. */
export const DEFAULT_GRACE_PERIOD_MS = 20_000;
/** Default BullMQ job lock duration, which is also the conversation lease, in ms (BullMQ's default). */
export const DEFAULT_LOCK_DURATION_MS = 30_000;
/** Default interval of BullMQ's stalled-job check, in ms (BullMQ's default). */
export const DEFAULT_STALLED_INTERVAL_MS = 30_000;
/** Default number of times a job may stall (its worker died) and still be handed to another worker. */
export const DEFAULT_MAX_STALLED_COUNT = 5;

/** Options of {@link createAgentWorker}. */
export interface AgentWorkerOptions extends QueueBaseOptions {
  /** Builds the agent of one run of a job (a job may run more than once: `run` counts). Closed after the run. */
  createAgent: CreateJobAgent;
  /** Jobs this worker runs at once (of different conversations). @default 10 */
  concurrency?: number;
  /** How long `close()` lets running queries finish before it interrupts them. @default 20_000 */
  gracePeriodMs?: number;
  /**
   * BullMQ's job lock, renewed while a job runs; also the conversation lease. A worker that stops
   * renewing (killed, frozen) loses both after this long, and another takes the job over. @default 30_000
   */
  lockDurationMs?: number;
  /** How often BullMQ looks for jobs whose worker stopped renewing their lock. @default 30_000 */
  stalledIntervalMs?: number;
  /** Stalls a job survives before BullMQ fails it for good. @default 5 */
  maxStalledCount?: number;
  /** What a resumed run sends when its query had made progress. @default DEFAULT_CONTINUATION_PROMPT */
  continuationPrompt?: string;
  /** Prices for the progress estimate (merged over the built-in table); pass your agents' `pricing`. */
  pricing?: Record<string, ModelPricing>;
  /** Receives errors of the worker's connections and of BullMQ's bookkeeping. @default log to stderr */
  onError?: (error: Error) => void;
}

/** A running agent worker. */
export interface AgentWorker {
  /**
   * Stops taking jobs, lets running queries finish for `gracePeriodMs`, then interrupts the rest —
   * each saves its turn and goes back to the queue, to be continued by another worker — and
   * closes the connections. Idempotent.
   */
  close(options?: { gracePeriodMs?: number }): Promise<void>;
  /** Jobs running on this worker now. */
  readonly running: number;
  /** The underlying BullMQ worker (events, metrics). Do not close it directly: use `close()`. */
  readonly bullmq: Worker<AgentJobData, AgentJobResult, string>;
}

/**
 * Creates a worker of an agent queue; it starts taking jobs at once.
 *
 * @example
 * import { createAgent } from "agent-lattice";
 * import { createAgentWorker } from "agent-lattice/queue";
 * import { createRedisHistoryStore } from "agent-lattice/stores/redis";
 * import { Redis } from "ioredis";
 *
 * const redis = new Redis();
 * const worker = createAgentWorker({
 *   connection: { host: "127.0.0.1", port: 6379 },
 *   name: "support",
 *   concurrency: 20,
 *   createAgent: ({ conversationId }) =>
 *     createAgent({ model: "claude-sonnet-4-6", historyStore: createRedisHistoryStore({ client: redis, conversationId }) }),
 * });
 * process.once("SIGTERM", () => void worker.close());
 */
export function createAgentWorker(options: AgentWorkerOptions): AgentWorker {
  const settings = resolveWorkerOptions(options);
  const { base, onError } = settings;
  const lane = new ConversationLane(base);
  lane.client.on("error", onError);
  const queue = new Queue(base.name, {
    connection: base.connection as ConnectionOptions,
    prefix: base.prefix,
  });
  queue.on("error", onError);
  let closing: Promise<void> | undefined;
  const runs = new Set<InterruptibleRun>();
  const backgroundWork = new Set<Promise<unknown>>();
  const runtime: WorkerRuntime = {
    lane,
    queue,
    createAgent: options.createAgent,
    leaseMs: settings.lockDuration,
    parkedRecheckMs: base.parkedRecheckMs,
    continuationPrompt: options.continuationPrompt ?? DEFAULT_CONTINUATION_PROMPT,
    pricing: options.pricing ? { ...DEFAULT_PRICING, ...options.pricing } : DEFAULT_PRICING,
    redaction: base.redaction,
    runs,
    closing: () => closing !== undefined,
    background(promise) {
      const settled = promise.catch(() => {}).finally(() => backgroundWork.delete(settled));
      backgroundWork.add(settled);
    },
  };
  const worker = new Worker<AgentJobData, AgentJobResult, string>(
    base.name,
    (job, token) => processRedacted(runtime, job, token!),
    {
      connection: base.connection as ConnectionOptions,
      prefix: base.prefix,
      concurrency: settings.concurrency,
      lockDuration: settings.lockDuration,
      stalledInterval: settings.stalledInterval,
      maxStalledCount: settings.maxStalledCount,
    },
  );
  worker.on("error", onError);

  async function shutDown(gracePeriodMs: number): Promise<void> {
    const stopped = worker.close();
    const timer = setTimeout(() => {
      for (const run of runs) run.interrupt();
    }, gracePeriodMs);
    try {
      await stopped;
    } finally {
      clearTimeout(timer);
      await Promise.allSettled(backgroundWork);
      await Promise.allSettled([queue.close(), lane.close()]);
    }
  }

  return withInspectSummary<AgentWorker>(
    {
      close(closeOptions) {
        const grace = nonNegativeInteger(
          closeOptions?.gracePeriodMs ?? settings.gracePeriodMs,
          queueOption("gracePeriodMs", "createAgentWorker"),
        );
        closing ??= shutDown(grace);
        return closing;
      },
      get running() {
        return runs.size;
      },
      bullmq: worker,
    },
    "AgentWorker",
    base.name,
    base.prefix,
  );
}

/** Processes a job; whatever it throws is redacted before BullMQ stores it (failedReason, stacktrace). */
function processRedacted(
  runtime: WorkerRuntime,
  job: Job<AgentJobData, AgentJobResult>,
  token: string,
): Promise<AgentJobResult> {
  return processJob(runtime, job, token).catch((error: unknown) => {
    throw runtime.redaction.error(error);
  });
}

/** Checks the worker's options and applies their defaults. */
function resolveWorkerOptions(options: AgentWorkerOptions) {
  const factory = "createAgentWorker";
  const base = resolveBaseOptions(options, factory);
  if (typeof options.createAgent !== "function")
    throw new InvalidOptionError(`${factory} needs \`createAgent\`: a function building the agent of a job.`);
  const integer = (value: number | undefined, fallback: number, option: string) =>
    positiveInteger(value ?? fallback, queueOption(option, factory));
  return {
    base,
    concurrency: integer(options.concurrency, DEFAULT_WORKER_CONCURRENCY, "concurrency"),
    gracePeriodMs: nonNegativeInteger(
      options.gracePeriodMs ?? DEFAULT_GRACE_PERIOD_MS,
      queueOption("gracePeriodMs", factory),
    ),
    lockDuration: integer(options.lockDurationMs, DEFAULT_LOCK_DURATION_MS, "lockDurationMs"),
    stalledInterval: integer(options.stalledIntervalMs, DEFAULT_STALLED_INTERVAL_MS, "stalledIntervalMs"),
    maxStalledCount: nonNegativeInteger(
      options.maxStalledCount ?? DEFAULT_MAX_STALLED_COUNT,
      queueOption("maxStalledCount", factory),
    ),
    onError:
      options.onError ?? ((error: Error) => console.error(`agent-lattice/queue worker: ${error.message}`)),
  };
}
