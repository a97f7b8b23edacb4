/**
 * A conversation lane: the queue's own bookkeeping in Redis that BullMQ (open source) has no notion
 * of — one job per conversation at a time, in enqueue order.
 *
 * - Each conversation has a **pending list** of its unfinished job ids in enqueue order. Only the
 *   head may run; the others are parked in BullMQ's delayed state until the job before them
 *   finishes and promotes the next head.
 * - The running job holds the conversation's **lease** (a key with a time to live, renewed while it
 *   runs) whose value is its **fence**, `<jobId>:<random>`. Every write of a run — its messages,
 *   its result, freeing the lease — checks the fence first, so a run that lost the lease can no
 *   longer write.
 * - Each job has a **state hash** (`started`: the history length its first run began from;
 *   `progressed`: a response of its query was recorded; `runs`; `result`) and a **message stream**.
 * @module
 */
import { Redis } from "ioredis";
import type { AgentJobProgress, AgentJobResult } from "./job-types";
import { toJsonText } from "./json-safe";
import { type LaneKeys, laneKeys } from "./keys";
import * as scripts from "./lane-scripts";
import type { QueueConnection, ResolvedBaseOptions } from "./options";

/** What a worker finds when it tries to take a conversation for a job. */
export type ClaimOutcome =
  /** The job finished before (its result was recorded, then its worker stopped before BullMQ knew). */
  | { kind: "done"; result: AgentJobResult }
  /** Another job of the conversation is ahead of it. */
  | { kind: "queued"; head: string }
  /** The job is the head, but a lease is still held (an earlier run of it, presumed dead). */
  | { kind: "busy"; leaseLeftMs: number }
  /** The lease is this run's. */
  | { kind: "claimed"; run: number; startedAt: number | undefined; progressed: boolean };

/** Opens a client of the lane's own on `connection` (a duplicate, when it is a client). */
export function openClient(connection: QueueConnection): Redis {
  if (typeof (connection as Redis).duplicate === "function") return (connection as Redis).duplicate();
  const { url, ...options } = connection as { url?: string };
  return url === undefined ? new Redis(options) : new Redis(url, options);
}

/** What `finish` records: the job's result (or failure) and the stream's last entry. */
export interface FinishOutcome {
  field: "result" | "failed";
  /** The field's value: the result as JSON text, or the failure's message. */
  value: string;
  /** The stream's last message. */
  entry: unknown;
  /** `entry` as JSON text (`toJsonText`), when the caller has it already. */
  entryText?: string;
}

type ScriptCall = (...keysThenArgs: Array<string | number>) => Promise<unknown>;

/** The lane of one queue, over a Redis client of its own. */
export class ConversationLane {
  readonly keys: LaneKeys;
  readonly client: Redis;
  private readonly options: ResolvedBaseOptions;
  private readonly commands = new Map<string, ScriptCall>();

  constructor(options: ResolvedBaseOptions) {
    this.options = options;
    this.keys = laneKeys(options.prefix, options.name);
    this.client = openClient(options.connection);
    for (const [name, script] of Object.entries(scripts)) {
      if (typeof script !== "object") continue;
      const command = `agentLatticeLane${name}`;
      this.client.defineCommand(command, script);
      const method = (this.client as unknown as Record<string, ScriptCall>)[command]!;
      this.commands.set(name, method.bind(this.client));
    }
  }

  private run(name: keyof typeof scripts, ...keysThenArgs: Array<string | number>): Promise<unknown> {
    return this.commands.get(name)!(...keysThenArgs);
  }

  /** Lists a job on its conversation: `runnable` when it is the head and the lease is free. */
  async append(conversationId: string, jobId: string): Promise<"finished" | "runnable" | "waiting"> {
    const { pending, lease, job } = this.keysOf(conversationId, jobId);
    const answer = await this.run("APPEND", pending, lease, job, jobId);
    return answer === -1 ? "finished" : answer === 1 ? "runnable" : "waiting";
  }

  /** Whether the job is its conversation's head and the lease is free. */
  async runnable(conversationId: string, jobId: string): Promise<boolean> {
    const { pending, lease } = this.keysOf(conversationId, jobId);
    return (await this.run("RUNNABLE", pending, lease, jobId)) === 1;
  }

  /** Tries to take the conversation for a run of `jobId` under `fence`. */
  async claim(conversationId: string, jobId: string, fence: string, leaseMs: number): Promise<ClaimOutcome> {
    const { pending, lease, job } = this.keysOf(conversationId, jobId);
    const ttl = this.options.jobTtlSeconds;
    const answer = (await this.run("CLAIM", pending, lease, job, jobId, fence, leaseMs, ttl)) as string[];
    switch (answer[0]) {
      case "done":
        return { kind: "done", result: JSON.parse(answer[1]!) as AgentJobResult };
      case "queued":
        return { kind: "queued", head: answer[1]! };
      case "busy":
        return { kind: "busy", leaseLeftMs: Math.max(0, Number(answer[1])) };
      default:
        return {
          kind: "claimed",
          run: Number(answer[1]),
          startedAt: answer[2] === "" ? undefined : Number(answer[2]),
          progressed: answer[3] === "1",
        };
    }
  }

  /** Extends the lease; false when `fence` no longer holds it. */
  async renew(conversationId: string, fence: string, leaseMs: number): Promise<boolean> {
    return (await this.run("RENEW", this.keys.lease(conversationId), fence, leaseMs)) === 1;
  }

  /** Records the history length the job's first run starts from; false when the lease is lost. */
  async markStarted(conversationId: string, jobId: string, fence: string, length: number): Promise<boolean> {
    const { lease, job } = this.keysOf(conversationId, jobId);
    return (await this.run("MARK_STARTED", lease, job, fence, length)) === 1;
  }

  /**
   * Appends a message to the job's stream; false (nothing written) when the lease is lost. With
   * `startedAt`, also records the history length the job's first run started from (see markStarted).
   */
  publish(
    conversationId: string,
    jobId: string,
    fence: string,
    message: unknown,
    progressed: boolean,
    startedAt?: number,
  ): Promise<boolean> {
    return this.publishEntries(conversationId, jobId, fence, [toJsonText(message)], progressed, startedAt);
  }

  /** Appends messages already turned into JSON text (`toJsonText`) to the job's stream, in one round trip. */
  async publishEntries(
    conversationId: string,
    jobId: string,
    fence: string,
    entries: readonly string[],
    progressed: boolean,
    startedAt?: number,
  ): Promise<boolean> {
    const { lease, job, messages } = this.keysOf(conversationId, jobId);
    const { maxMessagesPerJob, jobTtlSeconds } = this.options;
    const answer = await this.run(
      "PUBLISH",
      lease,
      job,
      messages,
      fence,
      progressed ? "1" : "0",
      maxMessagesPerJob,
      jobTtlSeconds,
      startedAt === undefined ? "" : startedAt,
      ...entries,
    );
    return answer === 1;
  }

  /**
   * Takes the conversation's lease under `fence` for `holdMs` when no job holds it and none waits
   * (a rewind between jobs); otherwise says which job is in the way.
   */
  async holdIdle(
    conversationId: string,
    fence: string,
    holdMs: number,
  ): Promise<{ kind: "held" } | { kind: "busy" | "queued"; jobId: string }> {
    const { pending, lease } = this.keysOf(conversationId, "");
    const answer = (await this.run("HOLD_IDLE", pending, lease, fence, holdMs)) as string[];
    if (answer[0] === "held") return { kind: "held" };
    // A lease holds `<jobId>:<random>`: the job is what the caller needs to hear about.
    const jobId = answer[0] === "busy" ? answer[1]!.slice(0, answer[1]!.lastIndexOf(":")) : answer[1]!;
    return { kind: answer[0] === "busy" ? "busy" : "queued", jobId };
  }

  /** Frees the lease when `fence` holds it; the job stays its conversation's head. */
  async release(conversationId: string, fence: string): Promise<void> {
    await this.run("RELEASE", this.keys.lease(conversationId), fence);
  }

  /**
   * Ends the job's turn: records its result (or its failure) and the run's last progress, unlists
   * it, frees the lease and streams the messages not streamed yet, then `entry`, last. Resolves
   * with the next head (or "" for none), or `undefined` when `fence` had lost the lease and nothing
   * was written.
   */
  async finish(
    conversationId: string,
    jobId: string,
    fence: string,
    outcome: FinishOutcome,
    unstreamed: { entries: readonly string[]; progress?: AgentJobProgress } = { entries: [] },
  ): Promise<string | undefined> {
    const { pending, lease, job, messages } = this.keysOf(conversationId, jobId);
    const { maxMessagesPerJob, jobTtlSeconds } = this.options;
    const entry = outcome.entryText ?? toJsonText(outcome.entry);
    const answer = (await this.run(
      "FINISH",
      pending,
      lease,
      job,
      messages,
      jobId,
      fence,
      outcome.field,
      outcome.value,
      entry,
      maxMessagesPerJob,
      jobTtlSeconds,
      unstreamed.progress === undefined ? "" : JSON.stringify(unstreamed.progress),
      this.keys.results(),
      ...unstreamed.entries,
    )) as [number, string?];
    return answer[0] === 1 ? (answer[1] ?? "") : undefined;
  }

  /** Unlists a head that can never run again; resolves with the new head ("" for none). */
  async dropHead(conversationId: string, headId: string): Promise<string> {
    const { pending, lease } = this.keysOf(conversationId, headId);
    return (await this.run("DROP_HEAD", pending, lease, headId)) as string;
  }

  /** The result a job recorded, if any (kept for `jobTtlSeconds`). */
  async storedResult(jobId: string): Promise<AgentJobResult | undefined> {
    const text = await this.client.hget(this.keys.job(jobId), "result");
    return text === null ? undefined : (JSON.parse(text) as AgentJobResult);
  }

  /** The last progress a finished job's run recorded with its result, if any (see `finish`). */
  async storedProgress(jobId: string): Promise<AgentJobProgress | undefined> {
    const text = await this.client.hget(this.keys.job(jobId), "progress");
    return text === null ? undefined : (JSON.parse(text) as AgentJobProgress);
  }

  /** Quits the lane's client. */
  async close(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }

  private keysOf(conversationId: string, jobId: string) {
    return {
      pending: this.keys.pending(conversationId),
      lease: this.keys.lease(conversationId),
      job: this.keys.job(jobId),
      messages: this.keys.messages(jobId),
    };
  }
}
