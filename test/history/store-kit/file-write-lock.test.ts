/**
 * The JSONL write lock: one holder at a time, even when several waiters find a dead process's lock
 * and break it. The race is made deterministic by holding back one waiter's read of the lock: it
 * judges the dead lock abandoned, and acts on that judgement only once another waiter has broken
 * that lock and taken a fresh one.
 */

import { createHash } from "node:crypto";
import type * as FileSystem from "node:fs/promises";
import { lstat, readdir, readlink, symlink } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it, vi } from "vitest";
import { createFileWriteLock } from "../../../src/history/store-kit/file-write-lock";
import { ConversationConflictError, createJsonlHistoryStore } from "../../../src/index";
import { temporaryFolder } from "../../support/temporary-folders";

/** The first read of `lockPath` from now on is held back until `resume()`. */
const heldRead = vi.hoisted(() => ({
  lockPath: undefined as string | undefined,
  /** A transcript whose opening for append resumes the held-back read. */
  resumeOnAppendTo: undefined as string | undefined,
  resume: () => {},
  waiting: Promise.resolve(),
  hold(lockPath: string) {
    this.lockPath = lockPath;
    this.waiting = new Promise<void>((resolve) => {
      this.resume = resolve;
    });
  },
}));

vi.mock("node:fs/promises", async (importOriginal) => {
  const actual = await importOriginal<typeof FileSystem>();
  return {
    ...actual,
    // A writer opening the transcript to append holds the lock: the held-back read resumes, and the
    // open waits a moment, so a second holder would have time to write as well.
    open: async (...args: Parameters<typeof actual.open>) => {
      if (args[0] === heldRead.resumeOnAppendTo && args[1] === "a") {
        heldRead.resumeOnAppendTo = undefined;
        heldRead.resume();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return actual.open(...args);
    },
    readlink: async (path: string) => {
      const text = await actual.readlink(path);
      if (path === heldRead.lockPath) {
        heldRead.lockPath = undefined;
        await heldRead.waiting;
      }
      return text;
    },
  };
});

/** Leaves at `lockPath` the lock of a process that died (a pid beyond any pid_max) on this host. */
function plantDeadLock(lockPath: string): Promise<void> {
  const holder = { pid: 999_999_999, host: hostname(), token: "dead", acquiredAt: Date.now() };
  return symlink(JSON.stringify(holder), lockPath);
}

describe("createFileWriteLock", () => {
  it("a waiter that judged a dead lock abandoned does not delete the lock another waiter took since", async () => {
    const folder = temporaryFolder("file-write-lock-");
    const lockPath = join(folder, "session.jsonl.lock");
    await plantDeadLock(lockPath);
    heldRead.hold(lockPath);
    let holders = 0;
    let mostAtOnce = 0;
    const write = async () => {
      mostAtOnce = Math.max(mostAtOnce, ++holders);
      heldRead.resume(); // the slow waiter now acts on its judgement of the dead lock
      await sleep(50);
      holders--;
    };
    const waiters = [createFileWriteLock(lockPath, 30_000), createFileWriteLock(lockPath, 30_000)];
    await Promise.all(waiters.map((lock) => lock.hold(write)));
    expect(mostAtOnce).toBe(1);
    expect(await readdir(folder)).toEqual([]); // no lock, no claim left behind
  });

  it("breaks the claim of a waiter that died while breaking a dead lock", async () => {
    const folder = temporaryFolder("file-write-lock-");
    const lockPath = join(folder, "session.jsonl.lock");
    await plantDeadLock(lockPath);
    const identity = `${(await lstat(lockPath)).ino}:${await readlink(lockPath)}`;
    const digest = createHash("sha256").update(identity).digest("hex").slice(0, 16);
    await plantDeadLock(`${lockPath}.breaking-${digest}`);
    expect(await createFileWriteLock(lockPath, 30_000).hold(async () => "written")).toBe("written");
    expect(await readdir(folder)).toEqual([]);
  });

  it("many waiters breaking a dead lock at once hold it one at a time", async () => {
    const folder = temporaryFolder("file-write-lock-");
    let holders = 0;
    let mostAtOnce = 0;
    for (let trial = 0; trial < 20; trial++) {
      const lockPath = join(folder, `t${trial}.lock`);
      await plantDeadLock(lockPath);
      const waiters = Array.from({ length: 6 }, () => createFileWriteLock(lockPath, 30_000));
      await Promise.all(
        waiters.map((lock) =>
          lock.hold(async () => {
            mostAtOnce = Math.max(mostAtOnce, ++holders);
            await new Promise((resolve) => setImmediate(resolve));
            holders--;
          }),
        ),
      );
    }
    expect(mostAtOnce).toBe(1);
    expect(await readdir(folder)).toEqual([]);
  });
});

describe("createJsonlHistoryStore with a dead process's lock", () => {
  it("of two writers breaking it, exactly one writes and the other gets ConversationConflictError", async () => {
    const folder = temporaryFolder("file-write-lock-");
    const path = join(folder, "session.jsonl");
    const stores = [createJsonlHistoryStore({ path }), createJsonlHistoryStore({ path })];
    for (const store of stores) await store.load();
    await plantDeadLock(`${path}.lock`);
    heldRead.hold(`${path}.lock`);
    heldRead.resumeOnAppendTo = path;
    const outcomes = await Promise.allSettled(
      stores.map((store, index) => store.append({ role: "user", content: `from ${index}` })),
    );
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    const rejected = outcomes.find((outcome) => outcome.status === "rejected");
    expect(rejected?.status === "rejected" && rejected.reason).toBeInstanceOf(ConversationConflictError);
    for (const store of stores) await store.close();
  });
});
