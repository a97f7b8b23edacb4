/**
 * The errors of `agent-lattice/queue`, in the package's error tree.
 * @module
 */
import { AgentLatticeError, ConcurrentQueryError, TimeoutError } from "../index";

/**
 * `waitForResult` gave up: the job had not finished within `timeoutMs`. The job itself goes on; wait
 * again, or follow it with `messages()`. A {@link TimeoutError} (`code` `"ETIMEDOUT"`, `timeoutMs`).
 */
export class JobWaitTimeoutError extends TimeoutError {
  /** The job waited for. */
  readonly jobId: string;
  constructor(jobId: string, timeoutMs: number) {
    super(timeoutMs);
    this.message = `Job ${jobId} did not finish within ${timeoutMs} ms; it has not been cancelled.`;
    this.jobId = jobId;
  }
}

/** The job failed for good: its attempts are spent, or it could never succeed. `reason` says why. */
export class JobFailedError extends AgentLatticeError {
  readonly jobId: string;
  /** The failure BullMQ recorded (the last attempt's error message). */
  readonly reason: string;
  constructor(jobId: string, reason: string) {
    super(`Job ${jobId} failed: ${reason}`);
    this.jobId = jobId;
    this.reason = reason;
  }
}

/** No job with this id is known to the queue (never enqueued, or removed since). */
export class JobNotFoundError extends AgentLatticeError {
  readonly jobId: string;
  constructor(jobId: string) {
    super(`No job ${jobId} in this queue: it was never enqueued here, or it has been removed.`);
    this.jobId = jobId;
  }
}

/**
 * A worker lost the lease of the conversation it was running (it stalled past the lease, or Redis
 * could not be reached to renew it). The run stops; the job is continued by whoever holds the lease.
 */
export class LeaseLostError extends AgentLatticeError {
  constructor(conversationId: string) {
    super(
      `The lease of conversation "${conversationId}" was lost; this run stopped and the job continues elsewhere.`,
    );
  }
}

/**
 * `queue.rewind()` was refused: a worker holds the conversation's lease (a job of it is running), or
 * a job of it waits to run. Rewind between jobs — after `waitForResult` — and nothing is changed.
 */
export class ConversationHeldError extends ConcurrentQueryError {
  readonly conversationId: string;
  /** The job running (`running`) or waiting (`waiting`). */
  readonly jobId: string;
  readonly state: "running" | "waiting";
  constructor(conversationId: string, jobId: string, state: "running" | "waiting") {
    super(
      `Cannot rewind conversation "${conversationId}": ${state === "running" ? `a worker holds its lease, running job ${jobId}` : `job ${jobId} waits to run on it`}. ` +
        "Rewind between jobs (after waitForResult); nothing was changed.",
    );
    this.conversationId = conversationId;
    this.jobId = jobId;
    this.state = state;
  }
}
