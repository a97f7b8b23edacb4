/**
 * `createAgentQueue`: the producer's side of an agent queue — enqueue prompts for conversations,
 * wait for their results, follow their messages, read their progress.
 * @module
 */
import { randomUUID } from "node:crypto";
import { type ConnectionOptions, type JobState, type JobsOptions, Queue } from "bullmq";
import { InvalidOptionError, type RewindResult } from "../index";
import { positiveInteger } from "../shared/option-checks";
import { ConversationLane } from "./conversation-lane";
import { type QueueRewindOptions, rewindHeld } from "./conversation-rewind";
import { ConversationsInFlight } from "./conversations-in-flight";
import { checkEnqueueRequest, type EnqueueRequest } from "./enqueue-request";
import { withInspectSummary } from "./inspect-summary";
import { JobAdmission } from "./job-admission";
import { followJobMessages } from "./job-messages";
import type { AgentJobMessage, AgentJobProgress, AgentJobResult } from "./job-types";
import {
  DEFAULT_BACKOFF_DELAY_MS,
  DEFAULT_JOB_ATTEMPTS,
  type QueueBaseOptions,
  queueOption,
  resolveBaseOptions,
} from "./options";
import { ResultWaiter } from "./result-waiter";
import { type JobRetention, retentionJobOptions } from "./retention";

/** BullMQ's job name of every agent job. */
export const AGENT_JOB_NAME = "agent-query";

/** Options of {@link createAgentQueue}. */
export interface AgentQueueOptions extends QueueBaseOptions {
  /**
   * BullMQ job options applied to every job (merged over the defaults: 8 attempts for thrown
   * failures with exponential backoff from 1 s). `delay`, `jobId`, `priority` and `lifo` are the
   * queue's own and cannot be set here. Prefer `retention` to `removeOnComplete` / `removeOnFail`
   * (giving both is refused).
   */
  defaultJobOptions?: Omit<JobsOptions, "delay" | "jobId" | "priority" | "lifo" | "parent">;
  /**
   * How long BullMQ keeps finished jobs (their data, result, failed reason and stack): completed
   * and failed ones, by age in seconds and/or count. @default DEFAULT_JOB_RETENTION (completed a
   * day, failed a week)
   */
  retention?: JobRetention;
  /** Receives errors of the queue's connections. @default log to stderr */
  onError?: (error: Error) => void;
}

/** A job as the queue reports it. */
export interface AgentJobInfo {
  id: string;
  conversationId: string;
  /** BullMQ's state: `delayed` while parked behind another job of its conversation. */
  state: JobState | "unknown";
  /** Turns and cost so far, once the job's query has received a response. */
  progress?: AgentJobProgress;
  /** The result, once completed. */
  result?: AgentJobResult;
  /** Why it failed, once failed for good. */
  failedReason?: string;
  /** Attempts BullMQ counted as made: failed ones (retried with backoff), and the one that completed. */
  attemptsMade: number;
}

/** The producer's handle on an agent queue. */
export interface AgentQueue {
  /**
   * Adds a prompt for a conversation. It runs after the conversation's earlier jobs, one at a time
   * across every worker. Throws InvalidOptionError at once, queueing nothing, for a request no
   * worker could run.
   */
  enqueue(request: EnqueueRequest): Promise<{ id: string; conversationId: string }>;
  /**
   * The job's result (the query's `SDKResultMessage` as JSON, `error_*` subtypes included). Rejects
   * with JobWaitTimeoutError after `timeoutMs` (the job goes on), JobFailedError when the job failed
   * for good, JobNotFoundError for an unknown job.
   */
  waitForResult(jobId: string, options: { timeoutMs: number }): Promise<AgentJobResult>;
  /** The job's messages from its start, then live, ending with its result (or `job_failed`). */
  messages(jobId: string): AsyncGenerator<AgentJobMessage, void>;
  /** The job's state, progress and outcome; `undefined` for a job BullMQ does not know (or removed). */
  getJob(jobId: string): Promise<AgentJobInfo | undefined>;
  /**
   * Rewinds a conversation between jobs (`agent.rewind()` with the conversation's lease held, so no
   * job starts on it meanwhile); the next job runs on the rewound history. Throws
   * `ConversationHeldError` when a worker holds the conversation or a job of it waits.
   */
  rewind(options: QueueRewindOptions): Promise<RewindResult>;
  /** Closes the queue's connections; pending `waitForResult` calls reject. */
  close(): Promise<void>;
  /** The underlying BullMQ queue (counts, dashboards). Do not add jobs to it directly. */
  readonly bullmq: Queue;
}

/**
 * Creates the producer's handle on an agent queue.
 *
 * @example
 * import { createAgentQueue } from "agent-lattice/queue";
 * const queue = createAgentQueue({ connection: { host: "127.0.0.1", port: 6379 }, name: "support" });
 * const job = await queue.enqueue({ conversationId: "user-42", input: "Where is my order?" });
 * const result = await queue.waitForResult(job.id, { timeoutMs: 60_000 });
 */
export function createAgentQueue(options: AgentQueueOptions): AgentQueue {
  const base = resolveBaseOptions(options, "createAgentQueue");
  const onError =
    options.onError ?? ((error: Error) => console.error(`agent-lattice/queue: ${error.message}`));
  const lane = new ConversationLane(base);
  lane.client.on("error", onError);
  const defaultJobOptions: JobsOptions = {
    attempts: DEFAULT_JOB_ATTEMPTS,
    backoff: { type: "exponential", delay: DEFAULT_BACKOFF_DELAY_MS },
    ...retentionJobOptions(options.retention, options.defaultJobOptions),
    ...options.defaultJobOptions,
  };
  const queue = new Queue(base.name, {
    connection: base.connection as ConnectionOptions,
    prefix: base.prefix,
    defaultJobOptions,
  });
  queue.on("error", onError);
  const inFlight = new ConversationsInFlight();
  const waiter = new ResultWaiter(base, queue, lane, onError, (jobId) => inFlight.end(jobId));
  const admission = new JobAdmission({ lane, queue, waiter, inFlight, jobName: AGENT_JOB_NAME, base });
  let closed = false;

  const assertOpen = () => {
    if (closed) throw new InvalidOptionError("This agent queue was closed; create a new one.");
  };

  return withInspectSummary<AgentQueue>(
    {
      async enqueue(request) {
        assertOpen();
        // Redacted here, before BullMQ or the lane stores anything (the agent would redact it too).
        const data = base.redaction.value(checkEnqueueRequest(request));
        const jobId = request.jobId ?? randomUUID();
        await admission.admit(jobId, data);
        return { id: jobId, conversationId: data.conversationId };
      },
      waitForResult(jobId, waitOptions) {
        assertOpen();
        const timeoutMs = positiveInteger(waitOptions?.timeoutMs, queueOption("timeoutMs", "waitForResult"));
        return waiter.wait(jobId, timeoutMs);
      },
      messages(jobId) {
        assertOpen();
        return followJobMessages(lane, queue, jobId);
      },
      getJob: (jobId) => describeJob(queue, lane, jobId),
      rewind(rewindOptions) {
        assertOpen();
        return rewindHeld(lane, rewindOptions);
      },
      async close() {
        if (closed) return;
        closed = true;
        await waiter.close();
        await Promise.allSettled([queue.close(), lane.close()]);
      },
      bullmq: queue,
    },
    "AgentQueue",
    base.name,
    base.prefix,
  );
}

/** A job as {@link AgentQueue.getJob} reports it. */
async function describeJob(
  queue: Queue,
  lane: ConversationLane,
  jobId: string,
): Promise<AgentJobInfo | undefined> {
  let job = await queue.getJob(jobId);
  if (!job) return undefined;
  let state = await job.getState();
  // The job was read before its state: when BullMQ finished it in between, the first read lacks
  // the outcome (return value, attempts, reason). A finished job does not change: read it again.
  if (state === "completed" || state === "failed") job = (await queue.getJob(jobId)) ?? job;
  let result = job.returnvalue as AgentJobResult | undefined;
  let attemptsMade = job.attemptsMade;
  if (state === "active") {
    // The result is recorded before BullMQ is told (waitForResult may already have it): completed,
    // and the attempt that recorded it is made (BullMQ counts it only when the job moves).
    const recorded = await lane.storedResult(jobId);
    if (recorded !== undefined) [state, result, attemptsMade] = ["completed", recorded, attemptsMade + 1];
  }
  // The progress after a query's last response is recorded with its result (see run-stream.ts).
  const final = state === "completed" || state === "failed" ? await lane.storedProgress(jobId) : undefined;
  const progress =
    final ?? (typeof job.progress === "object" ? (job.progress as unknown as AgentJobProgress) : undefined);
  return {
    id: jobId,
    conversationId: job.data.conversationId,
    state,
    ...(progress ? { progress } : {}),
    ...(state === "completed" ? { result } : {}),
    ...(state === "failed" ? { failedReason: job.failedReason } : {}),
    attemptsMade,
  };
}
