/**
 * The conversations a producer has enqueued jobs for that it has not seen end — a hint for
 * `enqueue`. A job of a conversation with nothing in flight here is most likely runnable at once,
 * so it is added to BullMQ and listed on its conversation in the same round trip; a job behind one
 * in flight is listed first and added parked, which keeps a backlog off the workers. The hint is
 * only that: another producer's job may be running, and then a worker fetches the job, finds it
 * queued and parks it — extra work, never a change of order or a second run. Jobs end when this
 * producer's events connection reports them completed or failed; without one (a producer that
 * never waits), the oldest entries are dropped beyond {@link CONVERSATIONS_IN_FLIGHT_KEPT} jobs.
 * @module
 */

/** How many jobs a producer remembers as in flight at most. */
export const CONVERSATIONS_IN_FLIGHT_KEPT = 10_000;

/** Jobs of this producer not seen ending, by conversation. */
export class ConversationsInFlight {
  /** Job id → conversation id, oldest first. */
  private readonly jobs = new Map<string, string>();
  /** Conversation id → jobs in flight. */
  private readonly counts = new Map<string, number>();

  /** Whether a job of the conversation is in flight. */
  has(conversationId: string): boolean {
    return this.counts.has(conversationId);
  }

  /** Notes a job being enqueued. */
  add(conversationId: string, jobId: string): void {
    if (this.jobs.has(jobId)) return;
    this.jobs.set(jobId, conversationId);
    this.counts.set(conversationId, (this.counts.get(conversationId) ?? 0) + 1);
    if (this.jobs.size > CONVERSATIONS_IN_FLIGHT_KEPT) this.end(this.jobs.keys().next().value!);
  }

  /** Notes that a job ended (or was never enqueued). Unknown ids are ignored. */
  end(jobId: string): void {
    const conversationId = this.jobs.get(jobId);
    if (conversationId === undefined) return;
    this.jobs.delete(jobId);
    const count = this.counts.get(conversationId)! - 1;
    if (count === 0) this.counts.delete(conversationId);
    else this.counts.set(conversationId, count);
  }
}
