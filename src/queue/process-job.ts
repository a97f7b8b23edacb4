/**
 * The BullMQ processor of an agent worker. For each job it takes the conversation's lease — or, when
 * another job of the conversation is ahead, parks the job — runs it (job-run.ts), and settles it:
 *
 * - a result (any subtype, `error_*` included) is recorded with the lane's fenced `FINISH`, the next
 *   job of the conversation is promoted, and the job completes with the result as JSON;
 * - a run interrupted by `close()` frees the lease and goes back to the wait list (`WaitingError`);
 * - a lost lease stops the run without writing anything (another worker owns the conversation);
 * - a thrown error (Redis down, a failing store, a write conflict) frees the lease and is rethrown
 *   for BullMQ's retry with backoff; on the last attempt, or for a caller's mistake
 *   (`InvalidOptionError`, never retried), the failure is recorded and the next job promoted.
 * @module
 */
import { randomUUID } from "node:crypto";
import { DelayedError, Job, UnrecoverableError, WaitingError } from "bullmq";
import { InvalidOptionError } from "../index";
import type { FleetRedaction } from "./fleet-redaction";
import { JobRun, type RunOutcome } from "./job-run";
import type { AgentJobData, AgentJobResult, JobFailedMessage } from "./job-types";
import { toJsonText } from "./json-safe";
import type { WorkerRuntime } from "./worker-runtime";

type AgentJob = Job<AgentJobData, AgentJobResult>;

/** Slack added to a lease's time left before a job of a presumed-dead run tries again. */
const LEASE_SLACK_MS = 50;

/** Processes one job (see the module comment). */
export async function processJob(
  runtime: WorkerRuntime,
  job: AgentJob,
  token: string,
): Promise<AgentJobResult> {
  const { conversationId } = job.data;
  const jobId = job.id!;
  // A fetch already under way when close() began may still hand over a job: give it back untouched.
  if (runtime.closing()) {
    await job.moveToWait(token);
    throw new WaitingError();
  }
  // A few rounds at most: each one that does not run drops a dead head of the conversation.
  for (;;) {
    const fence = `${jobId}:${randomUUID()}`;
    const claimedAt = Date.now();
    const claim = await runtime.lane.claim(conversationId, jobId, fence, runtime.leaseMs);
    if (claim.kind === "done") return claim.result;
    if (claim.kind === "busy") return postpone(job, token, claim.leaseLeftMs + LEASE_SLACK_MS);
    if (claim.kind === "queued") {
      if (await dropIfDead(runtime, conversationId, claim.head)) continue;
      return park(runtime, job, token);
    }
    const run = new JobRun(runtime, job, fence, claim);
    runtime.runs.add(run);
    let outcome: RunOutcome;
    try {
      outcome = await run.execute(claimedAt);
    } catch (error) {
      return await settleThrown(runtime, job, fence, error, run.redaction);
    } finally {
      runtime.runs.delete(run);
    }
    return await settle(runtime, job, token, fence, outcome, run.redaction);
  }
}

async function settle(
  runtime: WorkerRuntime,
  job: AgentJob,
  token: string,
  fence: string,
  outcome: RunOutcome,
  redaction: FleetRedaction,
): Promise<AgentJobResult> {
  const { conversationId } = job.data;
  switch (outcome.kind) {
    case "result": {
      const text = toJsonText(redaction.value(outcome.result));
      const result = JSON.parse(text) as AgentJobResult;
      const entry = { field: "result" as const, value: text, entry: result, entryText: text };
      const next = await runtime.lane.finish(conversationId, job.id!, fence, entry, outcome.unstreamed);
      if (next === undefined) return stepAside(job, token);
      // The next job of the conversation starts while this one is being marked completed.
      if (next) runtime.background(promote(runtime, next));
      runtime.background(forgetInput(job));
      return result;
    }
    case "requeue":
      await runtime.lane.release(conversationId, fence);
      await job.moveToWait(token);
      throw new WaitingError();
    case "lost":
      return stepAside(job, token);
    case "retry":
      return settleThrown(runtime, job, fence, outcome.error, redaction);
  }
}

/**
 * A run threw: free the lease, and rethrow for BullMQ to retry — or, when no attempt is left (or
 * retrying cannot help), record the failure for listeners and hand the conversation on first.
 * `redaction` is the run's: the worker's secrets and those of the Agent it built.
 */
async function settleThrown(
  runtime: WorkerRuntime,
  job: AgentJob,
  fence: string,
  error: unknown,
  redaction: FleetRedaction,
): Promise<never> {
  const { conversationId } = job.data;
  // Redacted before the lane or BullMQ keeps it: the failed reason, the stack, `job_failed`.
  const failure = redaction.error(error);
  const unrecoverable = failure instanceof InvalidOptionError || failure instanceof UnrecoverableError;
  const attempts = job.opts.attempts ?? 1;
  if (!unrecoverable && job.attemptsMade + 1 < attempts) {
    await runtime.lane.release(conversationId, fence).catch(() => {});
    throw failure;
  }
  const message: JobFailedMessage = {
    type: "system",
    subtype: "job_failed",
    error: { name: failure.name, message: failure.message },
  };
  const entry = { field: "failed" as const, value: failure.message, entry: message };
  const next = await runtime.lane.finish(conversationId, job.id!, fence, entry).catch(() => undefined);
  if (next) await promote(runtime, next);
  throw unrecoverable && !(failure instanceof UnrecoverableError)
    ? new UnrecoverableError(`${failure.name}: ${failure.message}`)
    : failure;
}

/**
 * Once a job's result is recorded its prompt and options are needed no more (a later run of it
 * returns the recorded result): its data is reduced to the conversation id, for BullMQ's retention.
 * A failed job keeps its (redacted) data, so that it can be retried by hand.
 */
async function forgetInput(job: AgentJob): Promise<void> {
  const { conversationId } = job.data;
  await job.updateData({ conversationId } as AgentJobData);
}

/**
 * Parks a job behind the running one of its conversation: delayed for `parkedRecheckMs`, and
 * promoted early by whoever finishes the job ahead. If that job finished between the claim and the
 * park, nobody will promote this one: check once more, after parking, and promote it ourselves.
 */
async function park(runtime: WorkerRuntime, job: AgentJob, token: string): Promise<never> {
  await job.moveToDelayed(Date.now() + runtime.parkedRecheckMs, token);
  if (await runtime.lane.runnable(job.data.conversationId, job.id!)) await job.promote().catch(() => {});
  throw new DelayedError();
}

/** Tries a job again after `delayMs` (BullMQ's delayed state; no attempt is spent). */
async function postpone(job: AgentJob, token: string, delayMs: number): Promise<never> {
  await job.moveToDelayed(Date.now() + delayMs, token);
  throw new DelayedError();
}

/**
 * This run lost the conversation to another one. Nothing is recorded; the job is put back (delayed,
 * no attempt spent) when this worker still holds its BullMQ lock, and left alone otherwise — BullMQ
 * has already handed it to the worker that owns it now.
 */
async function stepAside(job: AgentJob, token: string): Promise<never> {
  await job.moveToDelayed(Date.now() + 1_000, token).catch(() => {});
  throw new DelayedError();
}

/**
 * When the head of a conversation can never run again — failed for good (e.g. it stalled more
 * often than `maxStalledCount`), or removed — drops it and promotes the next. Returns whether it did.
 */
async function dropIfDead(runtime: WorkerRuntime, conversationId: string, headId: string): Promise<boolean> {
  const state = await runtime.queue.getJobState(headId);
  if (state !== "failed" && state !== "completed" && state !== "unknown") return false;
  const next = await runtime.lane.dropHead(conversationId, headId);
  if (next) await promote(runtime, next);
  return true;
}

/** Starts a parked job now (a job that is not parked is left as it is). */
async function promote(runtime: WorkerRuntime, jobId: string): Promise<void> {
  const next = await Job.fromId<AgentJobData, AgentJobResult>(runtime.queue, jobId).catch(() => undefined);
  await next?.promote().catch(() => {});
}
