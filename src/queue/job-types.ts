/**
 * The shapes a job carries: its data (what the producer enqueued), its progress, its messages and
 * its result — all plain JSON, since any process may read them.
 * @module
 */
import type { Agent, QueryOptions, SDKMessage, SDKResultMessage, Usage } from "../index";
import type { Serialized } from "./json-safe";

/** Anything `agent.prompt()` takes. */
export type JobInput = Parameters<Agent["prompt"]>[0];

/**
 * Per-query options a job may carry: those of `QueryOptions` that survive JSON (`signal` cannot
 * travel; the worker bounds a job with its own).
 */
export type JobQueryOptions = Omit<QueryOptions, "signal">;

/** The data of a BullMQ job of an agent queue. */
export interface AgentJobData {
  conversationId: string;
  input: JobInput;
  options?: JobQueryOptions;
}

/** The result of a job: the query's `SDKResultMessage`, as JSON (its `error` as `{ name, message }`). */
export type AgentJobResult<T = unknown> = Serialized<SDKResultMessage<T>>;

/** A job's progress, updated after each response of its query: the turns and cost so far. */
export interface AgentJobProgress {
  /** Responses received so far by the running query (the main agent's; a subagent's are not counted). */
  num_turns: number;
  /**
   * The cost so far in USD, estimated from each response's usage and the worker's `pricing` (the
   * built-in table by default) — 0 for a model without a known price. The result's
   * `total_cost_usd` is the exact figure.
   */
  total_cost_usd: number;
  /** Usage summed over the responses so far. */
  usage: Usage;
}

/** The job went back to the queue without a result: its worker is shutting down. */
export interface JobRequeuedMessage {
  type: "system";
  subtype: "job_requeued";
  reason: "worker_closing";
}

/**
 * A new run of the job started (after a worker crashed, stalled or shut down). `mode` says how it
 * continues: `fresh` (the prompt was never recorded: it is sent now), `rewind` (the prompt was
 * recorded but no response was: it is sent again in its place), `continue` (the query had made
 * progress: the model is asked to carry on from the recorded history), `withdrawn` (a guardrail
 * withdrew the turn an earlier run recorded: the job ends with that verdict, nothing is sent).
 */
export interface JobResumedMessage {
  type: "system";
  subtype: "job_resumed";
  /** 2 for the second run, and so on. */
  run: number;
  mode: "fresh" | "rewind" | "continue" | "withdrawn";
}

/** The job failed for good (its attempts are spent, or it can never succeed); no result follows. */
export interface JobFailedMessage {
  type: "system";
  subtype: "job_failed";
  error: { name: string; message: string };
}

/** What `queue.messages(jobId)` yields: the query's messages as JSON, and the queue's own notices. */
export type AgentJobMessage<T = unknown> =
  | Serialized<SDKMessage<T>>
  | JobRequeuedMessage
  | JobResumedMessage
  | JobFailedMessage;
