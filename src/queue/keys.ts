/**
 * The Redis keys of the queue's own bookkeeping, beside BullMQ's. Every key of one queue shares a
 * hash tag, so the lane scripts (which touch several keys at once) also run on Redis Cluster.
 * @module
 */

/** Prefix of every key the queue writes besides BullMQ's own. */
export const LANE_KEY_PREFIX = "agent-lattice:queue:";

/** The keys of one queue. */
export interface LaneKeys {
  /** The ids of a conversation's unfinished jobs, in enqueue order: the head runs, the rest wait. */
  pending(conversationId: string): string;
  /** The lease of the job running a conversation: `<jobId>:<random>`, with a time to live. */
  lease(conversationId: string): string;
  /** A job's state hash: `started`, `progressed`, `runs`, `result`, `failed`, `progress`. */
  job(jobId: string): string;
  /** A job's messages, as a Redis stream. */
  messages(jobId: string): string;
  /**
   * The pub/sub channel a job's result is published on the moment it is recorded (`<jobId>\n<result
   * JSON>`): waiting producers hear it before BullMQ marks the job completed.
   */
  results(): string;
}

/** The keys of the queue `name` whose BullMQ keys start with `prefix`. */
export function laneKeys(prefix: string, name: string): LaneKeys {
  const base = `${LANE_KEY_PREFIX}{${prefix}:${name}}:`;
  // Encoded, so that no id can reach into another's key (`a:lease` versus `a` + `:lease`).
  const conversation = (id: string) => encodeURIComponent(id);
  return {
    pending: (id) => `${base}pending:${conversation(id)}`,
    lease: (id) => `${base}lease:${conversation(id)}`,
    job: (id) => `${base}job:${id}`,
    messages: (id) => `${base}messages:${id}`,
    results: () => `${base}results`,
  };
}
