/**
 * `Agent.claimRun()`: the conversation claimed for one run — through the history store when it
 * can claim (seen by every process over the same storage), else within this Agent.
 * @module
 */
import type { RunClaim, RunClaimOptions } from "../history/run-claim";
import type { HistoryStore } from "../history/store";

/** Claims for one Agent over `store`. */
export function runClaimer(
  store: HistoryStore | undefined,
): (options?: RunClaimOptions) => Promise<RunClaim | undefined> {
  let localHeld = false;
  return async (options) => {
    if (store?.claimRun !== undefined) return store.claimRun(options);
    if (localHeld) return undefined;
    localHeld = true;
    let released = false;
    return {
      shared: false,
      async renew() {
        return !released;
      },
      async release() {
        if (released) return;
        released = true;
        localHeld = false;
      },
    };
  };
}
