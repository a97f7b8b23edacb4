/**
 * How `enqueue` puts a job on its conversation and into BullMQ — two ways, chosen by whether this
 * producer has a job of the conversation in flight (see conversations-in-flight.ts) and whether
 * its connection to Redis is up:
 *
 * - **careful** (one in flight, or the connection not ready): list the job first, then add it — to run at once when it is the
 *   conversation's next job, parked (delayed) behind others, promoted by whoever finishes the job
 *   before it, or by the check here when that job finished in the meantime. A backlog never
 *   reaches a worker before its turn. A listed id whose job never arrived (the call failed half
 *   way) is dropped by the next job of the conversation that finds it at the head. While Redis is
 *   down the listing fails at once and the job is never handed to BullMQ (whose `add` would wait
 *   for Redis and run the job later, after `enqueue` had said it failed).
 * - **at once** (none in flight): add it to run at once and list it in the same round trip. A worker
 *   that fetches it before it is listed lists it with its claim; one that finds another job of the
 *   conversation ahead (another producer's) parks it. Order and exactly-once are the lane's either
 *   way; only the work differs.
 * @module
 */
import type { Queue } from "bullmq";
import type { ConversationLane } from "./conversation-lane";
import type { ConversationsInFlight } from "./conversations-in-flight";
import type { AgentJobData } from "./job-types";
import type { ResolvedBaseOptions } from "./options";
import type { ResultWaiter } from "./result-waiter";

/** What admitting a job needs from its producer. */
export interface JobAdmissionContext {
  lane: ConversationLane;
  queue: Queue;
  waiter: ResultWaiter;
  inFlight: ConversationsInFlight;
  /** BullMQ's job name of every agent job. */
  jobName: string;
  base: ResolvedBaseOptions;
}

/** Adds jobs of one producer (see the module comment). */
export class JobAdmission {
  constructor(private readonly context: JobAdmissionContext) {}

  /** Lists and adds a checked job; a job whose id finished already is left as it is. */
  async admit(jobId: string, data: AgentJobData): Promise<void> {
    const { inFlight } = this.context;
    // Noted before the first await: a concurrent enqueue of the conversation takes the careful way.
    const careful = inFlight.has(data.conversationId) || this.context.lane.client.status !== "ready";
    inFlight.add(data.conversationId, jobId);
    try {
      const added = careful ? await this.listThenAdd(jobId, data) : await this.addWhileListing(jobId, data);
      if (!added) inFlight.end(jobId);
    } catch (error) {
      inFlight.end(jobId);
      throw error;
    }
  }

  /** The careful way. False: the job had finished already (nothing added). */
  private async listThenAdd(jobId: string, data: AgentJobData): Promise<boolean> {
    const { lane, queue, waiter, jobName, base } = this.context;
    const listed = await lane.append(data.conversationId, jobId);
    if (listed === "finished") return false;
    const runnable = listed === "runnable";
    const job = await queue.add(jobName, data, {
      jobId,
      ...(runnable ? {} : { delay: base.parkedRecheckMs }),
    });
    waiter.added(jobId);
    if (!runnable && (await lane.runnable(data.conversationId, jobId))) await job.promote().catch(() => {});
    return true;
  }

  /**
   * At once. False: the job had finished already (BullMQ kept the first job of that id, or the
   * worker that fetches it finds the stored result). Throws only when BullMQ did not take the job:
   * a job it took runs even when listing it failed (its worker lists it with the claim), so
   * `enqueue` must not say it failed — a caller retrying with a new id would run it twice.
   */
  private async addWhileListing(jobId: string, data: AgentJobData): Promise<boolean> {
    const { lane, queue, waiter, jobName } = this.context;
    const [listing, adding] = await Promise.allSettled([
      lane.append(data.conversationId, jobId),
      queue.add(jobName, data, { jobId }),
    ]);
    if (adding.status === "rejected") throw adding.reason;
    waiter.added(jobId);
    return listing.status === "rejected" || listing.value !== "finished";
  }
}
