/**
 * What a run streams — its messages, and its progress after each response — written a moment after
 * they happen (the next turn of the event loop), batched: messages that arrive together go out in
 * one fenced round trip. Whatever is still waiting when the query's result arrives goes with the
 * result instead (the lane's FINISH), so a query's last response costs no write of its own: no
 * stream write and no progress update on the way from the model's answer to the job's completion.
 * @module
 */
import type { Job } from "bullmq";
import type { SDKMessage } from "../index";
import type { ConversationLane } from "./conversation-lane";
import type { FleetRedaction } from "./fleet-redaction";
import type { AgentJobProgress, JobRequeuedMessage, JobResumedMessage } from "./job-types";
import { toJsonText } from "./json-safe";

/** What a run had not written when its result arrived: recorded with the result. */
export interface UnstreamedWrites {
  /** Messages as JSON text, in order. */
  entries: string[];
  /** The progress after the last response, unless it was written already. */
  progress?: AgentJobProgress;
}

/** What a run streams (serialised on the way). */
export type StreamedMessage = SDKMessage<unknown> | JobRequeuedMessage | JobResumedMessage;

/** The stream writes of one run. */
export class RunStream {
  private entries: string[] = [];
  /** Whether a queued message is a response (recorded as the job's `progressed` mark). */
  private progressed = false;
  private progress: AgentJobProgress | undefined;
  private scheduled: NodeJS.Immediate | undefined;

  /** `onRefused` is called when a write is refused: the run's fence no longer holds the lease. */
  constructor(
    private readonly lane: ConversationLane,
    private readonly job: Job,
    private readonly conversationId: string,
    private readonly fence: string,
    private redaction: FleetRedaction,
    private readonly onRefused: () => void,
  ) {}

  /** Redacts what is added from now on with `redaction` (the worker's and the run's Agent's secrets). */
  redactWith(redaction: FleetRedaction): void {
    this.redaction = redaction;
  }

  /** Queues `message` for the next write; `progress` is the job's progress after it, for a response. */
  add(message: StreamedMessage, progress?: AgentJobProgress): void {
    this.entries.push(toJsonText(this.redaction.value(message)));
    if (progress !== undefined) {
      this.progressed = true;
      this.progress = progress;
    }
    this.scheduled ??= setImmediate(() => this.flush());
  }

  /**
   * Writes what is queued now (not waited for): the messages in one round trip, then the progress.
   * Writes of the lane go out in order on its connection, so a later fenced write lands after these.
   */
  flush(): void {
    const { entries, progressed, progress } = this.take();
    if (entries.length > 0) {
      const written = this.lane.publishEntries(
        this.conversationId,
        this.job.id!,
        this.fence,
        entries,
        progressed,
      );
      ignoreFailure(written.then((held) => held || this.onRefused()));
    }
    if (progress !== undefined) ignoreFailure(this.job.updateProgress(progress as unknown as object));
  }

  /** Takes what is queued, unwritten (to be recorded with the result). */
  takeUnstreamed(): UnstreamedWrites {
    const { entries, progress } = this.take();
    return progress === undefined ? { entries } : { entries, progress };
  }

  private take() {
    if (this.scheduled !== undefined) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    const taken = { entries: this.entries, progressed: this.progressed, progress: this.progress };
    this.entries = [];
    this.progressed = false;
    this.progress = undefined;
    return taken;
  }
}

/** A write nobody waits for; its failure is not fatal (the lease decides). */
function ignoreFailure(promise: Promise<unknown>): void {
  promise.catch(() => {});
}
