/**
 * A short exclusive lock on a file, shared by every process on the machine (and by hosts sharing a
 * file system). The lock is a symbolic link whose target text names the holder (pid, host, token,
 * time): creating a symlink is one atomic call that fails when the name exists, so a lock is never
 * seen half-written, even if its holder is killed while taking it. Where symlinks are not allowed
 * (Windows without the privilege), the lock is a file written aside and hard-linked into place,
 * which is atomic too. A lock whose process is dead on this host, or older than `staleAfterMs` on
 * any host, is abandoned and broken.
 * @module
 */
import { randomUUID } from "node:crypto";
import { link, lstat, readFile, readlink, symlink, unlink, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
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
  const host = hostname();

  let symlinksAllowed = true;

  /** Creates the lock naming this holder; false when it exists already. */
  async function tryCreate(token: string): Promise<boolean> {
    const holder: LockHolder = { pid: process.pid, host, token, acquiredAt: Date.now() };
    const content = JSON.stringify(holder);
    try {
      if (symlinksAllowed) await symlink(content, lockPath);
      else await createByHardLink(content, token);
      return true;
    } catch (error) {
      if (isErrorCode(error, "EEXIST")) return false;
      if (symlinksAllowed && SYMLINK_REFUSED.some((code) => isErrorCode(error, code))) {
        symlinksAllowed = false;
        return tryCreate(token);
      }
      throw error;
    }
  }

  async function createByHardLink(content: string, token: string): Promise<void> {
    const aside = `${lockPath}.${token}`;
    await writeFile(aside, content, { flag: "wx", mode: 0o600 });
    try {
      await link(aside, lockPath);
    } finally {
      await unlink(aside).catch(() => undefined);
    }
  }

  async function isAbandoned(): Promise<boolean> {
    const holder = await readHolder(lockPath);
    if (holder === "missing") return false;
    const age = Date.now() - (holder?.acquiredAt ?? (await lockFileTime(lockPath)));
    if (age > staleAfterMs) return true;
    return holder !== undefined && holder.host === host && !isProcessAlive(holder.pid);
  }

  async function acquire(): Promise<string> {
    const token = randomUUID();
    for (let attempt = 0; ; attempt++) {
      if (await tryCreate(token)) return token;
      if (await isAbandoned()) {
        await unlink(lockPath).catch((error) => {
          if (!isErrorCode(error, "ENOENT")) throw error;
        });
        continue;
      }
      await sleep(Math.min(1 + attempt, 25));
    }
  }

  /**
   * Removes the lock. Within half the stale age nobody can have broken it, so it is still ours and
   * goes at once; past that, it is removed only if it still holds our token.
   */
  async function release(token: string, acquiredAt: number): Promise<void> {
    if (Date.now() - acquiredAt < staleAfterMs / 2) {
      await unlink(lockPath).catch(() => undefined);
      return;
    }
    const holder = await readHolder(lockPath);
    if (holder !== "missing" && holder?.token === token) await unlink(lockPath).catch(() => undefined);
  }

  return {
    async hold<T>(write: () => Promise<T>): Promise<T> {
      const token = await acquire();
      const acquiredAt = Date.now();
      try {
        return await write();
      } finally {
        await release(token, acquiredAt);
      }
    },
  };
}

/** Errors with which a file system refuses to create a symbolic link. */
const SYMLINK_REFUSED = ["EPERM", "ENOSYS", "ENOTSUP", "EOPNOTSUPP"];

/** The lock's holder; `undefined` when the lock does not name one; "missing" when there is no lock. */
async function readHolder(lockPath: string): Promise<LockHolder | undefined | "missing"> {
  let text: string;
  try {
    text = await readLockText(lockPath);
  } catch (error) {
    if (isErrorCode(error, "ENOENT")) return "missing";
    throw error;
  }
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

async function lockFileTime(lockPath: string): Promise<number> {
  try {
    return (await lstat(lockPath)).mtimeMs;
  } catch {
    return Date.now();
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
