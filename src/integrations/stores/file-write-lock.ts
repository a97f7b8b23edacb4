/**
 * A short exclusive lock on a file, shared by every process on the machine (and by hosts sharing a
 * file system): the lock is a file created with `O_EXCL` that holds the holder's pid, host and a
 * token, removed when the holder is done. A lock whose process is dead on this host, or older than
 * `staleAfterMs` on any host, is abandoned and broken.
 * @module
 */
import { randomUUID } from "node:crypto";
import { readFile, stat, unlink, writeFile } from "node:fs/promises";
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

  async function tryCreate(token: string): Promise<boolean> {
    const holder: LockHolder = { pid: process.pid, host, token, acquiredAt: Date.now() };
    try {
      await writeFile(lockPath, JSON.stringify(holder), { flag: "wx", mode: 0o600 });
      return true;
    } catch (error) {
      if (isErrorCode(error, "EEXIST")) return false;
      throw error;
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

/** The lock's holder; `undefined` when the file is not readable as one (being written); "missing" when gone. */
async function readHolder(lockPath: string): Promise<LockHolder | undefined | "missing"> {
  let text: string;
  try {
    text = await readFile(lockPath, "utf8");
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
    // Fall through: a lock file caught between creation and its content being written.
  }
  return undefined;
}

async function lockFileTime(lockPath: string): Promise<number> {
  try {
    return (await stat(lockPath)).mtimeMs;
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
