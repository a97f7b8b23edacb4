/**
 * Run claims of the JSONL store, on the file system only: a claim file beside the transcript,
 * `<path>.run`, holding the owner's token and the claim's expiry (epoch milliseconds of the
 * claiming machine's clock), written aside and renamed into place so a reader never sees half of one.
 *
 * **Why two takers cannot both win.** Every change to the claim file — take, renew, release — is a
 * read-compare-write made while holding a short exclusive lock, `<path>.run.lock`, of the kind the
 * transcript's writes use (a symbolic link created atomically, whose breaking is itself claimed
 * exclusively, so two waiters that both judge a lock abandoned cannot both take it). Two processes
 * that both saw an expired claim therefore take turns: the first replaces it with its own, the
 * second reads that fresh claim under the lock and backs off. A holder renews only when the file
 * still names its token, so a holder that stalled past its expiry and lost the claim cannot write
 * over its taker's. Reads (`isHeld`) take no lock: a rename replaces the file whole.
 *
 * **A killed holder blocks for its time to live at most.** Its claim file stays, but its expiry
 * passes and the next taker replaces it; a lock left by a process killed mid-operation is broken at
 * once on the same host (its pid is dead), or after `staleLockMs` on any host (the lock is held for
 * one read and one rename, so no live holder comes near that age).
 *
 * Limits: the processes share one machine, or a file system whose `rename`, exclusive create and
 * symbolic links are atomic across its clients (a local disk is; NFS v3 is not) and hosts whose
 * clocks agree to well within the time to live.
 * @module
 */
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, unlink, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { dirname } from "node:path";
import type { RunClaimRecord } from "./run-claim";
import { createFileWriteLock, siblingPath } from "./store-kit/file-write-lock";

/** What a claim file holds. */
interface ClaimFile {
  owner: string;
  /** When the claim lapses unless renewed, in epoch milliseconds. */
  expiresAt: number;
  /** Who took it, for people reading the file. */
  pid: number;
  host: string;
}

/** The run-claim record of the transcript at `transcriptPath`, in `<transcriptPath>.run`. */
export function jsonlRunClaimRecord(transcriptPath: string, staleLockMs: number): RunClaimRecord {
  const claimPath = siblingPath(transcriptPath, ".run");
  const lock = createFileWriteLock(siblingPath(transcriptPath, ".run.lock"), staleLockMs);
  let directoryReady = false;
  const underLock = async <T>(change: (current: ClaimFile | undefined) => Promise<T>): Promise<T> => {
    if (!directoryReady) await mkdir(dirname(claimPath), { recursive: true });
    directoryReady = true;
    return lock.hold(async () => change(await readClaim(claimPath)));
  };
  return {
    take: (owner, ttlMs) =>
      underLock(async (current) => {
        if (current !== undefined && current.owner !== owner && current.expiresAt > Date.now()) return false;
        await writeClaim(claimPath, owner, ttlMs);
        return true;
      }),
    extend: (owner, ttlMs) =>
      underLock(async (current) => {
        if (current?.owner !== owner) return false;
        await writeClaim(claimPath, owner, ttlMs);
        return true;
      }),
    free: (owner) =>
      underLock(async (current) => {
        if (current?.owner === owner) await unlink(claimPath).catch(ignoreMissing);
      }),
    async isHeld() {
      const current = await readClaim(claimPath);
      return current !== undefined && current.expiresAt > Date.now();
    },
  };
}

/** The claim at `path`; `undefined` when there is none, or the file is not one this code wrote. */
async function readClaim(path: string): Promise<ClaimFile | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
  try {
    const claim = JSON.parse(text) as Partial<ClaimFile>;
    if (typeof claim.owner === "string" && typeof claim.expiresAt === "number") return claim as ClaimFile;
  } catch {}
  return undefined;
}

/**
 * Writes `owner`'s claim, expiring `ttlMs` from now: aside, then renamed over the old one. Not
 * fsynced: after a power loss every run it could guard is gone anyway.
 */
async function writeClaim(path: string, owner: string, ttlMs: number): Promise<void> {
  const claim: ClaimFile = { owner, expiresAt: Date.now() + ttlMs, pid: process.pid, host: hostname() };
  const aside = siblingPath(path, `.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    await writeFile(aside, JSON.stringify(claim), { flag: "wx", mode: 0o600 });
    await rename(aside, path);
  } catch (error) {
    await unlink(aside).catch(() => undefined);
    throw error;
  }
}

function isMissing(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "ENOENT";
}

function ignoreMissing(error: unknown): void {
  if (!isMissing(error)) throw error;
}
