/**
 * Admitting a job when half of the at-once enqueue fails: BullMQ took the job but listing it on its
 * conversation failed — the job will run (its worker lists it with the claim), so `admit` resolves
 * and the caller is not told to retry (a retry with a new id would run the prompt twice); BullMQ
 * refused the job — `admit` rejects with that error and nothing is in flight. The careful way
 * (a job of the conversation in flight here, or the connection not ready) lists first: a failed
 * listing adds nothing.
 */
import type { Queue } from "bullmq";
import { describe, expect, it } from "vitest";
import type { ConversationLane } from "../../src/queue/conversation-lane";
import { ConversationsInFlight } from "../../src/queue/conversations-in-flight";
import { JobAdmission, type JobAdmissionContext } from "../../src/queue/job-admission";
import type { AgentJobData } from "../../src/queue/job-types";
import type { ResultWaiter } from "../../src/queue/result-waiter";

const DATA = { conversationId: "c1", input: "Hello" } as unknown as AgentJobData;

function admission(faults: { append?: Error; add?: Error; notReady?: boolean }) {
  const calls: string[] = [];
  const lane = {
    client: { status: faults.notReady ? "reconnecting" : "ready" },
    append: async (conversationId: string, jobId: string) => {
      calls.push(`append ${conversationId} ${jobId}`);
      if (faults.append) throw faults.append;
      return "runnable" as const;
    },
    runnable: async () => true,
  } as unknown as ConversationLane;
  const queue = {
    add: async (_name: string, _data: unknown, options: { jobId: string }) => {
      calls.push(`add ${options.jobId}`);
      if (faults.add) throw faults.add;
      return { promote: async () => {} };
    },
  } as unknown as Queue;
  const added: string[] = [];
  const waiter = { added: (jobId: string) => added.push(jobId) } as unknown as ResultWaiter;
  const inFlight = new ConversationsInFlight();
  const context: JobAdmissionContext = {
    lane,
    queue,
    waiter,
    inFlight,
    jobName: "agent",
    base: { parkedRecheckMs: 1_000 } as JobAdmissionContext["base"],
  };
  return { admission: new JobAdmission(context), calls, added, inFlight };
}

describe("JobAdmission when half of an enqueue fails", () => {
  it("at once: BullMQ took the job but the listing failed — admit resolves (the job runs), no retry invited", async () => {
    const { admission: admit, calls, added, inFlight } = admission({ append: new Error("lane down") });
    await expect(admit.admit("j1", DATA)).resolves.toBeUndefined();
    expect(calls.sort()).toEqual(["add j1", "append c1 j1"]);
    expect(added).toEqual(["j1"]);
    expect(inFlight.has("c1")).toBe(true); // it runs: a later job of c1 takes the careful way
  });

  it("at once: BullMQ refused the job — admit rejects with its error and nothing stays in flight", async () => {
    const refused = new Error("bullmq down");
    const { admission: admit, added, inFlight } = admission({ add: refused });
    await expect(admit.admit("j1", DATA)).rejects.toBe(refused);
    expect(added).toEqual([]);
    expect(inFlight.has("c1")).toBe(false);
  });

  it("careful while the connection is not ready: the listing fails at once and BullMQ is never asked", async () => {
    const down = new Error("Connection is closed.");
    const { admission: admit, calls, inFlight } = admission({ append: down, notReady: true });
    await expect(admit.admit("j1", DATA)).rejects.toBe(down);
    expect(calls).toEqual(["append c1 j1"]);
    expect(inFlight.has("c1")).toBe(false);
  });

  it("careful: a failed listing adds nothing and rejects", async () => {
    const down = new Error("lane down");
    const { admission: admit, calls, inFlight } = admission({ append: down });
    inFlight.add("c1", "j0"); // a job of c1 in flight here: list first
    await expect(admit.admit("j1", DATA)).rejects.toBe(down);
    expect(calls).toEqual(["append c1 j1"]);
    expect(inFlight.has("c1")).toBe(true); // j0 still
  });
});
