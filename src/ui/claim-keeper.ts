/**
 * The store's claim on a conversation, held for one chat run: taken through `Agent.claimRun()`
 * before the run starts (another process's run answers 409), renewed at a third of its time to live
 * while the run goes on, released when it ends. A renewal that finds the claim gone (it expired —
 * the process stalled longer than the time to live — and another run may have taken it) interrupts
 * the run; a renewal that fails (the store is unreachable) is tried again at the next tick.
 * @module
 */
import type { Agent, RunClaim } from "../index";

/** A claim being kept. */
export interface KeptClaim {
  /** Stops renewing and releases the claim. */
  release(): Promise<void>;
}

/**
 * Claims `agent`'s conversation for `ttlMs`, renewing it until released; `undefined` when another
 * run holds it. `onLost` is called once when a renewal finds the claim gone.
 */
export async function keepClaim(
  agent: Agent<unknown>,
  ttlMs: number,
  onLost: () => void,
): Promise<KeptClaim | undefined> {
  const claim: RunClaim | undefined = await agent.claimRun({ ttlMs });
  if (claim === undefined) return undefined;
  let timer: ReturnType<typeof setInterval> | undefined;
  if (claim.shared) {
    timer = setInterval(
      () => {
        claim.renew().then(
          (held) => {
            if (held || timer === undefined) return;
            clearInterval(timer);
            timer = undefined;
            onLost();
          },
          () => {}, // the store is unreachable now; the next tick tries again
        );
      },
      Math.max(1, Math.floor(ttlMs / 3)),
    );
    (timer as { unref?: () => void }).unref?.();
  }
  return {
    async release() {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      await claim.release();
    },
  };
}
