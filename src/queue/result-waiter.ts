/**
 * Waiting for job results: one BullMQ `QueueEvents` connection per producer, opened on first use,
 * whose `completed` and `failed` events settle every waiter of their job — and, to hear a result
 * one hop sooner, a subscription to the lane's results channel, on which a worker publishes a
 * result the moment it records it (before BullMQ marks the job completed; the recorded result is
 * final, a job run again returns it). The subscription only speeds things up: a message it misses
 * still arrives as the `completed` event. A waiter is registered
 * before the job's current state is read, and the events are read from the moment the connection
 * was opened (by the server's clock), so a job that ends in between is not missed. A job this
 * producer added after the connection was ready cannot end unseen: its state is not read again —
 * an outcome that arrives before anyone waits is kept (for the last {@link FRESH_JOBS_KEPT} such
 * jobs; an older one is read from Redis as usual).
 * @module
 */
import { type ConnectionOptions, type Queue, QueueEvents } from "bullmq";
import type { Redis } from "ioredis";
import type { ConversationLane } from "./conversation-lane";
import { JobFailedError, JobNotFoundError, JobWaitTimeoutError } from "./errors";
import type { AgentJobResult } from "./job-types";
import type { ResolvedBaseOptions } from "./options";

/** How many jobs added after the events connection was ready are remembered, outcome included. */
export const FRESH_JOBS_KEPT = 1_000;

type Outcome = AgentJobResult | Error;

interface Waiter {
  resolve(result: AgentJobResult): void;
  reject(error: Error): void;
}

/** The waiters of one producer. */
export class ResultWaiter {
  private events: Promise<QueueEvents> | undefined;
  private subscriber: Redis | undefined;
  private ready = false;
  private readonly waiters = new Map<string, Set<Waiter>>();
  /** Jobs added since the connection was ready, with their outcome once it arrived unwaited. */
  private readonly fresh = new Map<string, Outcome | undefined>();

  constructor(
    private readonly options: ResolvedBaseOptions,
    private readonly queue: Queue,
    private readonly lane: ConversationLane,
    private readonly onError: (error: Error) => void,
    /** Told of every job the events connection reports completed or failed (any producer's). */
    private readonly onEnded: (jobId: string) => void = () => {},
  ) {}

  /** Resolves with the job's result; rejects with JobWaitTimeoutError, JobFailedError or JobNotFoundError. */
  wait(jobId: string, timeoutMs: number): Promise<AgentJobResult> {
    return new Promise<AgentJobResult>((resolve, reject) => {
      const timer = setTimeout(() => waiter.reject(new JobWaitTimeoutError(jobId, timeoutMs)), timeoutMs);
      const waiter: Waiter = {
        resolve: (result) => {
          this.forget(jobId, waiter, timer);
          resolve(result);
        },
        reject: (error) => {
          this.forget(jobId, waiter, timer);
          reject(error);
        },
      };
      const forJob = this.waiters.get(jobId) ?? new Set<Waiter>();
      forJob.add(waiter);
      this.waiters.set(jobId, forJob);
      // A job added after the connection was ready: its outcome is one of its events.
      if (this.fresh.has(jobId)) {
        const early = this.fresh.get(jobId);
        this.fresh.delete(jobId);
        if (early instanceof Error) waiter.reject(early);
        else if (early !== undefined) waiter.resolve(early);
        return;
      }
      // Listening first, then reading the state: a job ending in between is seen either way.
      this.open()
        .then(() => this.currentOutcome(jobId))
        .then(
          (outcome) => {
            if (outcome === undefined) return;
            if (outcome instanceof Error) waiter.reject(outcome);
            else waiter.resolve(outcome);
          },
          (error: unknown) => waiter.reject(error instanceof Error ? error : new Error(String(error))),
        );
    });
  }

  /** Notes a job this producer has just added (see the module comment). */
  added(jobId: string): void {
    if (!this.ready) return;
    this.fresh.set(jobId, undefined);
    if (this.fresh.size > FRESH_JOBS_KEPT) this.fresh.delete(this.fresh.keys().next().value!);
  }

  /** Rejects every waiter and closes the events connection. */
  async close(): Promise<void> {
    for (const [jobId, waiters] of this.waiters)
      for (const waiter of waiters)
        waiter.reject(new Error(`The queue was closed while waiting for job ${jobId}.`));
    const events = await this.events?.catch(() => undefined);
    await Promise.allSettled([events?.close(), this.subscriber?.quit()]);
  }

  private open(): Promise<QueueEvents> {
    this.events ??= (async () => {
      // QueueEvents reads from "$" by default: what happens between its start and its first read
      // would be missed. It reads from the server's clock instead (stream ids are its milliseconds).
      const [seconds, microseconds] = await this.lane.client.time();
      const events = new QueueEvents(this.options.name, {
        connection: this.options.connection as ConnectionOptions,
        prefix: this.options.prefix,
        lastEventId: `${Number(seconds) * 1000 + Math.floor(Number(microseconds) / 1000)}-0`,
      });
      events.on("error", this.onError);
      events.on("completed", ({ jobId, returnvalue }) =>
        this.settle(jobId, returnvalue as unknown as AgentJobResult),
      );
      events.on("failed", ({ jobId, failedReason }) =>
        this.settle(jobId, new JobFailedError(jobId, failedReason)),
      );
      await Promise.all([events.waitUntilReady(), this.subscribe()]);
      this.ready = true;
      return events;
    })();
    return this.events;
  }

  /** Subscribes to the lane's results channel (see the module comment). */
  private async subscribe(): Promise<void> {
    const subscriber = this.lane.client.duplicate();
    this.subscriber = subscriber;
    subscriber.on("error", this.onError);
    // Reconnected (Redis restarted, say): a restart without persistence forgets the jobs waited on,
    // and no event will ever tell; their state is read again.
    subscriber.on("ready", () => {
      if (this.ready) void this.recheckWaiting();
    });
    subscriber.on("message", (_channel: string, message: string) => {
      const split = message.indexOf("\n");
      if (split < 0) return;
      let result: AgentJobResult;
      try {
        result = JSON.parse(message.slice(split + 1)) as AgentJobResult;
      } catch {
        return; // not ours to judge: the `completed` event still comes
      }
      this.settle(message.slice(0, split), result);
    });
    await subscriber.subscribe(this.lane.keys.results());
  }

  /** Reads the state of every job waited on again, settling those that ended or are gone. */
  private async recheckWaiting(): Promise<void> {
    for (const jobId of [...this.waiters.keys()]) {
      const outcome = await this.currentOutcome(jobId).catch(() => undefined); // down again: the next "ready" retries
      if (outcome !== undefined) this.settle(jobId, outcome);
    }
  }

  /** The job's outcome if it has ended (a result, or the error to reject with); `undefined` if not. */
  private async currentOutcome(jobId: string): Promise<AgentJobResult | Error | undefined> {
    const state = await this.queue.getJobState(jobId);
    if (state === "unknown") return (await this.lane.storedResult(jobId)) ?? new JobNotFoundError(jobId);
    // Recorded, and BullMQ not told yet (its worker is marking it completed, or stopped first).
    if (state === "active") return this.lane.storedResult(jobId);
    if (state !== "completed" && state !== "failed") return undefined;
    const job = await this.queue.getJob(jobId);
    if (state === "completed") return job?.returnvalue ?? (await this.lane.storedResult(jobId));
    return new JobFailedError(jobId, job?.failedReason ?? "unknown reason");
  }

  private settle(jobId: string, outcome: Outcome): void {
    this.onEnded(jobId);
    const waiters = this.waiters.get(jobId);
    if (waiters === undefined) {
      if (this.fresh.has(jobId)) this.fresh.set(jobId, outcome);
      return;
    }
    for (const waiter of [...waiters]) {
      if (outcome instanceof Error) waiter.reject(outcome);
      else waiter.resolve(outcome);
    }
  }

  private forget(jobId: string, waiter: Waiter, timer: NodeJS.Timeout): void {
    clearTimeout(timer);
    const forJob = this.waiters.get(jobId);
    forJob?.delete(waiter);
    if (forJob?.size === 0) this.waiters.delete(jobId);
  }
}
