/**
 * Keeping a conversation's lease while a run goes on: renewed three times per lease period, and
 * given up locally before it can expire in Redis. A renewal counts from the moment it was sent, and
 * when none has been confirmed for 80% of the period the run is told it lost the lease — before
 * another worker can take the conversation, as long as clocks run at about the same rate.
 * @module
 */
import type { ConversationLane } from "./conversation-lane";

/** Share of the lease period after the last confirmed renewal at which the run stops by itself. */
const LOCAL_EXPIRY_SHARE = 0.8;

/** The lease of one run. */
export class LeaseKeeper {
  private lost = false;
  private stopped = false;
  private renewTimer: NodeJS.Timeout | undefined;
  private expiryTimer: NodeJS.Timeout | undefined;

  /** `onLost` is called once, when the lease is lost (a renewal refused, or none confirmed in time). */
  constructor(
    private readonly lane: ConversationLane,
    private readonly conversationId: string,
    private readonly fence: string,
    private readonly leaseMs: number,
    private readonly onLost: () => void,
  ) {}

  /** Starts keeping the lease, which was taken (or last renewed) at `since` (epoch ms). */
  start(since: number): void {
    this.confirmed(since);
    this.scheduleRenewal();
  }

  /** Whether the lease was lost. */
  get isLost(): boolean {
    return this.lost;
  }

  /** Reports the lease lost (a fenced write was refused). */
  markLost(): void {
    if (this.lost || this.stopped) return;
    this.lost = true;
    this.stop();
    this.onLost();
  }

  /** Stops renewing (the run is over; the lease is freed or handed on by the caller). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.renewTimer);
    clearTimeout(this.expiryTimer);
  }

  private scheduleRenewal(): void {
    if (this.stopped) return;
    this.renewTimer = setTimeout(() => void this.renew(), Math.max(1, Math.floor(this.leaseMs / 3)));
  }

  private async renew(): Promise<void> {
    const sentAt = Date.now();
    try {
      const held = await this.lane.renew(this.conversationId, this.fence, this.leaseMs);
      if (this.stopped) return;
      if (!held) return this.markLost();
      this.confirmed(sentAt);
    } catch {
      // Redis unreachable: try again; the local expiry ends the run if it lasts.
    }
    this.scheduleRenewal();
  }

  private confirmed(at: number): void {
    clearTimeout(this.expiryTimer);
    const left = at + this.leaseMs * LOCAL_EXPIRY_SHARE - Date.now();
    this.expiryTimer = setTimeout(() => this.markLost(), Math.max(0, left));
  }
}
