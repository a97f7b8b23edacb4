/**
 * One run of a job on a worker that holds its conversation's lease: build the agent, decide how to
 * go on from the history (see resume-plan.ts), run the query, stream its messages, report progress,
 * and say how it ended. Recording the result is the caller's (process-job.ts).
 * @module
 */
import type { Job } from "bullmq";
import {
  type Agent,
  ConversationConflictError,
  type GuardrailRecord,
  GuardrailTripwireError,
  HistoryStoreError,
  type SDKMessage,
  type SDKResultMessage,
} from "../index";
import type { ClaimOutcome } from "./conversation-lane";
import { LeaseLostError } from "./errors";
import type { FleetRedaction } from "./fleet-redaction";
import type { AgentJobData, AgentJobResult } from "./job-types";
import { LeaseKeeper } from "./lease";
import { ProgressTally } from "./progress";
import { planResume, type ResumePlan } from "./resume-plan";
import { RunStream, type UnstreamedWrites } from "./run-stream";
import type { InterruptibleRun, WorkerRuntime } from "./worker-runtime";

/** How a run ended. */
export type RunOutcome =
  /** The query ended with a result: the job completes with it (and with what was not streamed yet). */
  | { kind: "result"; result: SDKResultMessage<unknown>; unstreamed: UnstreamedWrites }
  /** The worker is closing and interrupted the run: the job goes back to the queue. */
  | { kind: "requeue" }
  /** The lease was lost: another run owns the conversation now. */
  | { kind: "lost" }
  /** The query failed for a reason a retry can fix (a write conflict): BullMQ retries the job. */
  | { kind: "retry"; error: Error };

type ClaimedRun = Extract<ClaimOutcome, { kind: "claimed" }>;

/** A run of one job. */
export class JobRun implements InterruptibleRun {
  private agent: Agent<any> | undefined;
  private interruptRequested = false;
  /** A first run's history length at its start, recorded with its first message. */
  private startMark: number | undefined;
  private readonly abort = new AbortController();
  private readonly lease: LeaseKeeper;
  private readonly stream: RunStream;
  private readonly conversationId: string;
  private readonly jobId: string;
  /**
   * What this run redacts before Redis keeps it — its messages, its result, what it throws: the
   * worker's redaction, and once the run's Agent is built, that Agent's own secrets too.
   */
  redaction: FleetRedaction;

  constructor(
    private readonly runtime: WorkerRuntime,
    private readonly job: Job<AgentJobData, AgentJobResult>,
    private readonly fence: string,
    private readonly claim: ClaimedRun,
  ) {
    this.conversationId = job.data.conversationId;
    this.jobId = job.id!;
    this.redaction = runtime.redaction;
    this.lease = new LeaseKeeper(runtime.lane, this.conversationId, fence, runtime.leaseMs, () =>
      this.abort.abort(new LeaseLostError(this.conversationId)),
    );
    this.stream = new RunStream(runtime.lane, job, this.conversationId, fence, runtime.redaction, () =>
      this.lease.markLost(),
    );
  }

  interrupt(): void {
    this.interruptRequested = true;
    this.agent?.interrupt();
  }

  /** Runs the job; `claimedAt` is when the lease was requested (epoch ms). Throws what the agent threw. */
  async execute(claimedAt: number): Promise<RunOutcome> {
    this.lease.start(claimedAt);
    try {
      const agent = await this.runtime.createAgent({
        conversationId: this.conversationId,
        jobId: this.jobId,
        run: this.claim.run,
      });
      this.agent = agent;
      this.redaction = this.runtime.redaction.with(agent.secrets);
      this.stream.redactWith(this.redaction);
      try {
        return await this.runAgent(agent);
      } finally {
        // Released in the background: the job's outcome does not wait for the store to close.
        this.runtime.background(agent.close());
      }
    } finally {
      this.lease.stop();
    }
  }

  private async runAgent(agent: Agent<any>): Promise<RunOutcome> {
    let outcome: RunOutcome;
    try {
      outcome = await this.runQuery(agent);
    } finally {
      // Whatever the result does not carry is written now: a requeue, a lost lease, a thrown error.
      this.stream.flush();
    }
    return outcome;
  }

  private async runQuery(agent: Agent<any>): Promise<RunOutcome> {
    const plan = await this.prepare(agent);
    if (plan === undefined) return { kind: "lost" };
    if (this.claim.run > 1)
      this.stream.add({ type: "system", subtype: "job_resumed", run: this.claim.run, mode: plan.mode });
    if (this.interruptRequested) return this.requeue();
    if (plan.mode === "withdrawn")
      return {
        kind: "result",
        result: withdrawnResult(plan.guardrail),
        unstreamed: this.stream.takeUnstreamed(),
      };
    const { input, options } = this.job.data;
    const tally = new ProgressTally(this.runtime.pricing);
    let result: SDKResultMessage<unknown> | undefined;
    const prompt = plan.mode === "continue" ? this.runtime.continuationPrompt : input;
    let mark = this.startMark;
    for await (const message of agent.query(prompt, { ...options, signal: this.abort.signal })) {
      if (mark !== undefined) {
        if (await this.publishWithMark(message, mark)) {
          mark = undefined;
          continue;
        }
        this.lease.markLost();
        break;
      }
      if (this.interruptRequested) agent.interrupt();
      // The result is the last message; it is recorded with the job's result, not streamed here.
      if (message.type === "result") {
        result = message;
        continue;
      }
      this.stream.add(message, tally.add(message, agent.model) ? tally.snapshot() : undefined);
    }
    // The stream's writes are not waited for: the lane's next write (fenced, on the same connection)
    // lands after them, and is refused as they would be if the lease was lost.
    if (this.lease.isLost || this.abort.signal.aborted) return { kind: "lost" };
    if (result === undefined) throw new Error("The query ended without a result message.");
    if (result.subtype === "interrupted" && this.interruptRequested) return this.requeue();
    if (isRetryableFailure(result)) return { kind: "retry", error: result.error! };
    return { kind: "result", result, unstreamed: this.stream.takeUnstreamed() };
  }

  /**
   * A first run's first message (`init`, always yielded before the prompt is recorded) carries the
   * start mark, and the query waits for it: the mark must be durable before the prompt is
   * recorded, or a crash right after would send the prompt twice. False: the lease is lost.
   */
  private publishWithMark(message: SDKMessage<unknown>, mark: number): Promise<boolean> {
    this.stream.flush(); // a `job_resumed` queued before it goes first
    return this.runtime.lane.publish(this.conversationId, this.jobId, this.fence, message, false, mark);
  }

  /**
   * Loads the history (the agent repairs a crashed tail as it loads), notes where the job's first
   * run starts (recorded with its first message), and rewinds a prompt recorded without a
   * response. `undefined`: the lease was lost.
   */
  private async prepare(agent: Agent<any>): Promise<ResumePlan | undefined> {
    const history = await agent.getHistory();
    const { startedAt, progressed } = this.claim;
    if (startedAt === undefined) this.startMark = history.length;
    const plan = planResume(history, startedAt, progressed, this.job.data.input);
    if (plan.mode === "rewind") await agent.replaceHistory(history.slice(0, plan.keep));
    return this.lease.isLost ? undefined : plan;
  }

  private requeue(): RunOutcome {
    this.stream.add({ type: "system", subtype: "job_requeued", reason: "worker_closing" });
    return { kind: "requeue" };
  }
}

/**
 * The result of a job whose turn a guardrail withdrew in an earlier run: a tripwire's
 * `guardrail_tripwire`, or a refused prompt answered with the refusal — nothing is sent again.
 */
function withdrawnResult(record: GuardrailRecord): SDKResultMessage<unknown> {
  const tripped = record.verdict === "tripwire";
  const result: SDKResultMessage<unknown> = {
    type: "result",
    subtype: tripped ? "guardrail_tripwire" : "success",
    is_error: tripped,
    result: record.message ?? "",
    usage: { input_tokens: 0, output_tokens: 0 },
    stop_reason: null,
    num_turns: 0,
    total_cost_usd: 0,
    model_usage: {},
    duration_ms: 0,
    permission_denials: [],
  };
  if (tripped) {
    result.error = new GuardrailTripwireError(record.name, record.stage, record.message);
    result.guardrail = { name: record.name, stage: record.stage, message: record.message, info: record.info };
  }
  return result;
}

/** A result that a retry can turn into a real answer: a conflict with another writer, a store failure. */
function isRetryableFailure(result: SDKResultMessage<unknown>): boolean {
  return (
    result.subtype === "error_during_execution" &&
    (result.error instanceof ConversationConflictError || result.error instanceof HistoryStoreError)
  );
}
