/**
 * Following a job's messages from any process: its Redis stream is read from the start and then
 * live (blocking reads on a connection of the iterator's own), until the job's last message — its
 * result, or `job_failed`.
 * @module
 */
import type { Job, Queue } from "bullmq";
import type { ConversationLane } from "./conversation-lane";
import { JobNotFoundError } from "./errors";
import type { AgentJobData, AgentJobMessage, AgentJobResult } from "./job-types";

/** How long one blocking read waits before the iterator checks the job is still alive. */
const BLOCK_MS = 1_000;
/** Entries read at most per round trip. */
const BATCH = 200;

type StreamReply = Array<[key: string, entries: Array<[id: string, fields: string[]]>]> | null;

/** Whether `message` is the last one of its job. */
function isLast(message: AgentJobMessage): boolean {
  return message.type === "result" || (message.type === "system" && message.subtype === "job_failed");
}

/** Yields the job's messages, the result (or `job_failed`) last. Throws JobNotFoundError for an unknown job. */
export async function* followJobMessages(
  lane: ConversationLane,
  queue: Queue,
  jobId: string,
): AsyncGenerator<AgentJobMessage, void> {
  const key = lane.keys.messages(jobId);
  if ((await queue.getJobState(jobId)) === "unknown" && (await lane.client.exists(key)) === 0) {
    const stored = await lane.storedResult(jobId);
    if (stored === undefined) throw new JobNotFoundError(jobId);
    yield stored as AgentJobMessage;
    return;
  }
  const reader = lane.client.duplicate();
  reader.on("error", () => {}); // a failed read rejects; the connection's own events are not the caller's
  let lastId = "0";
  try {
    for (;;) {
      const reply = (await reader.xread(
        "COUNT",
        BATCH,
        "BLOCK",
        BLOCK_MS,
        "STREAMS",
        key,
        lastId,
      )) as StreamReply;
      for (const [id, fields] of reply?.[0]?.[1] ?? []) {
        lastId = id;
        const message = JSON.parse(fields[1]!) as AgentJobMessage;
        yield message;
        if (isLast(message)) return;
      }
      if (reply !== null) continue;
      // Nothing new for a while: a job that ended without streaming its end (its stream expired or
      // was trimmed, or BullMQ failed it for stalling too often) is ended here.
      const ending = await endingOf(queue, jobId);
      if (ending === undefined) continue;
      const rest = (await reader.xrange(key, `(${lastId}`, "+")) as Array<[string, string[]]>;
      for (const [, fields] of rest) {
        const message = JSON.parse(fields[1]!) as AgentJobMessage;
        yield message;
        if (isLast(message)) return;
      }
      yield ending;
      return;
    }
  } finally {
    reader.disconnect();
  }
}

/** The last message of a job that has ended, from BullMQ's record; `undefined` while it runs or waits. */
async function endingOf(queue: Queue, jobId: string): Promise<AgentJobMessage | undefined> {
  const state = await queue.getJobState(jobId);
  if (state !== "completed" && state !== "failed") return undefined;
  const job = (await queue.getJob(jobId)) as Job<AgentJobData, AgentJobResult> | undefined;
  if (state === "completed" && job?.returnvalue) return job.returnvalue as AgentJobMessage;
  return {
    type: "system",
    subtype: "job_failed",
    error: { name: "JobFailedError", message: job?.failedReason ?? "the job failed" },
  };
}
