/**
 * Run claims: one run at a time on a conversation, across processes. A durable store that can
 * claim (`claimRun`) keeps a record of who runs the conversation and until when; the claim is
 * renewed while the run goes on and released when it ends, and a claim nobody renews (its process
 * died) expires. Used by the chat endpoint of `agent-lattice/ui` through `Agent.claimRun()`.
 * @module
 */

/** How long a claim holds without being renewed, in milliseconds. */
export const DEFAULT_RUN_CLAIM_TTL_MS = 30_000;

/** A conversation claimed for one run. */
export interface RunClaim {
  /** Whether the claim is kept by the store (seen by every process) or only in this process. */
  readonly shared: boolean;
  /** Extends the claim by its time to live; false when it was lost (it expired and was taken, or deleted). */
  renew(): Promise<boolean>;
  /** Frees the conversation, if this claim still holds it. Idempotent. */
  release(): Promise<void>;
}

/** Options of a claim. */
export interface RunClaimOptions {
  /** How long the claim holds without a renewal, in milliseconds. @default 30_000 */
  ttlMs?: number;
}

/** The store side of a claim: the record, taken, extended and freed by its owner token. */
export interface RunClaimRecord {
  /** Records `owner` as running the conversation for `ttlMs` when nobody else holds it; true when taken. */
  take(owner: string, ttlMs: number): Promise<boolean>;
  /** Extends the record when `owner` still holds it; true when it did. */
  extend(owner: string, ttlMs: number): Promise<boolean>;
  /** Removes the record when `owner` holds it. */
  free(owner: string): Promise<void>;
  /** Whether anyone holds the record now (it exists and has not expired). A read only. */
  isHeld(): Promise<boolean>;
}

/**
 * Claims the conversation through `record`: a {@link RunClaim}, or `undefined` when another run
 * holds it.
 */
export async function claimRunWith(
  record: RunClaimRecord,
  options: RunClaimOptions = {},
): Promise<RunClaim | undefined> {
  const ttlMs = options.ttlMs ?? DEFAULT_RUN_CLAIM_TTL_MS;
  if (!Number.isInteger(ttlMs) || ttlMs < 1)
    throw new TypeError(`ttlMs must be a positive integer, got ${ttlMs}.`);
  const owner = crypto.randomUUID();
  if (!(await record.take(owner, ttlMs))) return undefined;
  let released = false;
  return {
    shared: true,
    async renew() {
      if (released) return false;
      return record.extend(owner, ttlMs);
    },
    async release() {
      if (released) return;
      released = true;
      await record.free(owner);
    },
  };
}
