/**
 * `agent-lattice/queue`: conversations as jobs on BullMQ (optional peer dependencies `bullmq` and
 * `ioredis`). A producer enqueues prompts with {@link createAgentQueue}; a fleet of worker processes
 * made with {@link createAgentWorker} runs them — one query per conversation at a time across the
 * fleet, in enqueue order, any worker resuming any conversation from its history store.
 * @module
 */
export {
  AGENT_JOB_NAME,
  type AgentJobInfo,
  type AgentQueue,
  type AgentQueueOptions,
  createAgentQueue,
} from "./agent-queue";
export {
  type AgentWorker,
  type AgentWorkerOptions,
  createAgentWorker,
  DEFAULT_GRACE_PERIOD_MS,
  DEFAULT_LOCK_DURATION_MS,
  DEFAULT_MAX_STALLED_COUNT,
  DEFAULT_STALLED_INTERVAL_MS,
  DEFAULT_WORKER_CONCURRENCY,
} from "./agent-worker";
export { DEFAULT_REWIND_HOLD_MS, type QueueRewindOptions } from "./conversation-rewind";
export type { EnqueueRequest } from "./enqueue-request";
export {
  ConversationHeldError,
  JobFailedError,
  JobNotFoundError,
  JobWaitTimeoutError,
  LeaseLostError,
} from "./errors";
export type {
  AgentJobData,
  AgentJobMessage,
  AgentJobProgress,
  AgentJobResult,
  JobFailedMessage,
  JobInput,
  JobQueryOptions,
  JobRequeuedMessage,
  JobResumedMessage,
} from "./job-types";
export type { Serialized, SerializedError } from "./json-safe";
export {
  DEFAULT_BACKOFF_DELAY_MS,
  DEFAULT_JOB_ATTEMPTS,
  DEFAULT_JOB_TTL_SECONDS,
  DEFAULT_MAX_MESSAGES_PER_JOB,
  DEFAULT_PARKED_RECHECK_MS,
  DEFAULT_QUEUE_NAME,
  DEFAULT_QUEUE_PREFIX,
  type QueueBaseOptions,
  type QueueConnection,
} from "./options";
export { DEFAULT_CONTINUATION_PROMPT } from "./resume-plan";
export { DEFAULT_JOB_RETENTION, type JobRetention, type KeepFinishedJobs } from "./retention";
export type { AgentJobContext, CreateJobAgent } from "./worker-runtime";
