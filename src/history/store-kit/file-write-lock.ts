/**
 * A short exclusive lock on a file, shared by every process on the machine (and by hosts sharing a
 * file system). The lock is a symbolic link whose target text names the holder (pid, host, token,
 * time): creating a symlink is one atomic call that fails when the name exists, so a lock is never
 * seen half-written, even if its holder is killed while taking it. Where symlinks are not allowed
 * (Windows without the privilege), the lock is a file written aside and hard-linked into place,
 * which is atomic too. A lock whose process is dead on this host, or older than `staleAfterMs` on
 * any host, is abandoned and broken.
 *
 * Breaking is exclusive too. Several waiters may judge the same lock abandoned at once; deleting
 * `<lock>` after that judgement would let a slow one delete the fresh lock a faster one has taken
 * since. So a waiter first claims the right to break that very lock — a claim named after it,
 * `<lock>.breaking-<digest of its identity>`, created like a lock — and, holding the claim, deletes
 * `<lock>` only if it is still the lock it judged. Identities never repeat (a lock names a random
 * token), so a claim for a lock already gone finds another lock in its place and leaves it alone. A
 * claim whose taker died is abandoned in turn and broken the same way.
 * @module
 */
import { createHash, randomUUID } from "node:crypto";
import { link, lstat, readFile, readlink, symlink, unlink, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { basename, dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/** What a lock file holds. */
interface LockHolder {
  pid: number;
  host: string;
  token: string;
  acquiredAt: number;
}

/** A lock that serializes writers of one file. */
export interface FileWriteLock {
  /** Waits for the lock (breaking it when abandoned), runs `write`, and releases the lock. */
  hold<T>(write: () => Promise<T>): Promise<T>;
}

/**
 * Creates the lock `lockPath`.
 * @param staleAfterMs age after which a held lock counts as abandoned
 */
export function createFileWriteLock(lockPath: string, staleAfterMs: number): FileWriteLock {
  return new LinkFileWriteLock(lockPath, staleAfterMs);
}

/** The lock as a symbolic link (or, where those are refused, a hard-linked file) naming its holder. */
class LinkFileWriteLock implements FileWriteLock {
  private readonly host = hostname();
  private symlinksAllowed = true;

  constructor(
    private readonly lockPath: string,
    private readonly staleAfterMs: number,
  ) {}

  async hold<T>(write: () => Promise<T>): Promise<T> {
    const token = await this.acquire();
    const acquiredAt = Date.now();
    try {
      return await write();
    } finally {
      await this.release(token, acquiredAt);
    }
  }

  /** Creates the lock (or claim) `path` naming this holder; false when it exists already. */
  private async tryCreate(path: string, token: string): Promise<boolean> {
    const holder: LockHolder = { pid: process.pid, host: this.host, token, acquiredAt: Date.now() };
    const content = JSON.stringify(holder);
    try {
      if (this.symlinksAllowed) await symlink(content, path);
      else await createByHardLink(path, content, token);
      return true;
    } catch (error) {
      if (isErrorCode(error, "EEXIST")) return false;
      if (this.symlinksAllowed && SYMLINK_REFUSED.some((code) => isErrorCode(error, code))) {
        this.symlinksAllowed = false;
        return this.tryCreate(path, token);
      }
      throw error;
    }
  }

  private isAbandoned(lock: LockSnapshot): boolean {
    const age = Date.now() - (lock.holder?.acquiredAt ?? lock.modifiedAt);
    if (age > this.staleAfterMs) return true;
    return lock.holder !== undefined && lock.holder.host === this.host && !isProcessAlive(lock.holder.pid);
  }

  /**
   * Deletes the lock (or claim) at `path` if it is abandoned. Resolves true when `path` is free to
   * take now, false when the caller should wait.
   */
  private async breakIfAbandoned(path: string): Promise<boolean> {
    const judged = await readSnapshot(path);
    if (judged === undefined) return true;
    if (!this.isAbandoned(judged)) return false;
    const outcome = await this.deleteUnderClaim(path, judged);
    // Another waiter is breaking this lock — or died doing so: then its claim is broken first.
    if (outcome === "claimed") await this.breakIfAbandoned(claimPathFor(path, judged));
    return outcome === "free";
  }

  /**
   * Deletes `path` if it still is the lock `seen`, holding the claim on that lock meanwhile:
   * "free" when no lock is left, "taken" when another lock is there now, "claimed" when another
   * waiter holds the claim.
   */
  private async deleteUnderClaim(path: string, seen: LockSnapshot): Promise<"free" | "taken" | "claimed"> {
    const claim = claimPathFor(path, seen);
    if (!(await this.tryCreate(claim, randomUUID()))) return "claimed";
    try {
      const current = await readSnapshot(path);
      if (current === undefined) return "free";
      if (current.identity !== seen.identity) return "taken";
      await unlink(path).catch((error) => {
        if (!isErrorCode(error, "ENOENT")) throw error;
      });
      return "free";
    } finally {
      await unlink(claim).catch(() => undefined);
    }
  }

  private async acquire(): Promise<string> {
    const token = randomUUID();
    for (let attempt = 0; ; attempt++) {
      if (await this.tryCreate(this.lockPath, token)) return token;
      if (await this.breakIfAbandoned(this.lockPath)) continue;
      await sleep(Math.min(1 + attempt, 25));
    }
  }

  /**
   * Removes the lock. Within half the stale age nobody can have broken it, so it is still ours and
   * goes at once; past that, it is removed (under a claim, like a break) only if it still holds our
   * token.
   */
  private async release(token: string, acquiredAt: number): Promise<void> {
    if (Date.now() - acquiredAt < this.staleAfterMs / 2) {
      await unlink(this.lockPath).catch(() => undefined);
      return;
    }
    const lock = await readSnapshot(this.lockPath).catch(() => undefined);
    if (lock?.holder?.token === token)
      await this.deleteUnderClaim(this.lockPath, lock).catch(() => undefined);
  }
}

/** Creates `path` holding `content` by writing it aside and hard-linking it into place (atomic too). */
async function createByHardLink(path: string, content: string, token: string): Promise<void> {
  const aside = siblingPath(path, `.${token}`);
  await writeFile(aside, content, { flag: "wx", mode: 0o600 });
  try {
    await link(aside, path);
  } finally {
    await unlink(aside).catch(() => undefined);
  }
}

/** The longest file name (in bytes) most file systems allow. */
const MAX_FILE_NAME_BYTES = 255;

/**
 * `<path><suffix>`: a file beside `path` named after it. When that name would be longer than a file
 * system allows, `path`'s name is replaced by a digest of it, so a file with a long name still gets
 * its lock, claims and temporary files (the same ones in every process).
 */
export function siblingPath(path: string, suffix: string): string {
  const name = basename(path) + suffix;
  if (Buffer.byteLength(name) <= MAX_FILE_NAME_BYTES) return path + suffix;
  const digest = createHash("sha256").update(basename(path)).digest("hex").slice(0, 32);
  return join(dirname(path), `${digest}${suffix}`);
}

/** Errors with which a file system refuses to create a symbolic link. */
const SYMLINK_REFUSED = ["EPERM", "ENOSYS", "ENOTSUP", "EOPNOTSUPP"];

/** The claim on the lock `seen` at `path`: whoever creates it may delete that lock. */
function claimPathFor(path: string, seen: LockSnapshot): string {
  return siblingPath(
    path,
    `.breaking-${createHash("sha256").update(seen.identity).digest("hex").slice(0, 16)}`,
  );
}

/** A lock as one waiter read it. */
interface LockSnapshot {
  /** What tells this lock file from any other: its inode and its text. */
  identity: string;
  /** Its holder; `undefined` when the lock does not name one. */
  holder: LockHolder | undefined;
  /** The lock file's modification time (ms), for a lock without a holder. */
  modifiedAt: number;
}

/** The lock at `path`, or `undefined` when there is none. */
async function readSnapshot(path: string): Promise<LockSnapshot | undefined> {
  try {
    const text = await readLockText(path);
    const { ino, mtimeMs } = await lstat(path);
    return { identity: `${ino}:${text}`, holder: parseHolder(text), modifiedAt: mtimeMs };
  } catch (error) {
    if (isErrorCode(error, "ENOENT")) return undefined;
    throw error;
  }
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const holder = JSON.parse(text) as Partial<LockHolder>;
    if (
      typeof holder.pid === "number" &&
      typeof holder.host === "string" &&
      typeof holder.acquiredAt === "number"
    ) {
      return holder as LockHolder;
    }
  } catch {
    // Fall through: not a lock this code wrote; only its age can tell whether it is abandoned.
  }
  return undefined;
}

/** The target of a symlink lock, or the content of a file lock. */
async function readLockText(lockPath: string): Promise<string> {
  try {
    return await readlink(lockPath);
  } catch (error) {
    if (isErrorCode(error, "EINVAL")) return readFile(lockPath, "utf8");
    throw error;
  }
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return isErrorCode(error, "EPERM");
  }
}

function isErrorCode(error: unknown, code: string): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === code;
}
