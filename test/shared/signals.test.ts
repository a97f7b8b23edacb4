/**
 * Racing work against a signal: the race settles like the work, or rejects with the signal's
 * reason the moment it aborts — for every race pending on that signal — with one listener per
 * signal however many races come and go.
 */
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { raceWithSignal } from "../../src/shared/signals";
import { deferred } from "../loop/support";

describe("raceWithSignal", () => {
  it("settles like the work when the signal does not abort", async () => {
    const signal = new AbortController().signal;
    await expect(raceWithSignal(Promise.resolve(7), signal)).resolves.toBe(7);
    await expect(raceWithSignal(Promise.reject(new Error("boom")), signal)).rejects.toThrow("boom");
  });

  it("rejects every pending race with the reason as soon as the signal aborts", async () => {
    const controller = new AbortController();
    const hung = [deferred<number>(), deferred<number>(), deferred<number>()];
    const races = hung.map((work) => raceWithSignal(work.promise, controller.signal));
    const reason = new Error("stop");
    controller.abort(reason);
    for (const race of races) await expect(race).rejects.toBe(reason);
  });

  it("leaves races that already settled alone, and rejects at once on an aborted signal", async () => {
    const controller = new AbortController();
    const done = raceWithSignal(Promise.resolve("done"), controller.signal);
    await expect(done).resolves.toBe("done");
    controller.abort(new Error("late"));
    await expect(raceWithSignal(Promise.resolve(1), controller.signal)).rejects.toThrow("late");
  });

  it("keeps one abort listener per signal, however many races came and went", async () => {
    const controller = new AbortController();
    for (let index = 0; index < 500; index++) await raceWithSignal(Promise.resolve(index), controller.signal);
    const pending = [deferred<void>(), deferred<void>()];
    const races = pending.map((work) => raceWithSignal(work.promise, controller.signal));
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    pending[1]!.resolve();
    await races[1];
    controller.abort(new Error("stop"));
    await expect(races[0]).rejects.toThrow("stop");
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("never leaves a rejection unhandled when abandoned work fails later", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const controller = new AbortController();
      const work = deferred<void>();
      const race = raceWithSignal(work.promise, controller.signal);
      controller.abort(new Error("stop"));
      await expect(race).rejects.toThrow("stop");
      work.reject(new Error("failed after the abort"));
      const alreadyAborted = deferred<void>();
      await expect(raceWithSignal(alreadyAborted.promise, controller.signal)).rejects.toThrow("stop");
      alreadyAborted.reject(new Error("also failed later"));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});

describe("raceWithSignal, many races on one signal", () => {
  it("forgets each settled race, in any order, and an abort rejects only those still pending", async () => {
    const controller = new AbortController();
    const works = Array.from({ length: 4 }, () => manual());
    const races = works.map((work) => raceWithSignal(work.promise, controller.signal));
    works[3]!.resolve("last"); // the last one pending settles first
    works[0]!.resolve("first");
    await expect(races[3]).resolves.toBe("last");
    await expect(races[0]).resolves.toBe("first");
    controller.abort(new Error("stopped"));
    await expect(races[1]).rejects.toThrow("stopped");
    await expect(races[2]).rejects.toThrow("stopped");
  });
});

function manual(): { promise: Promise<unknown>; resolve: (value: unknown) => void } {
  let resolve!: (value: unknown) => void;
  const promise = new Promise((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}
