import { describe, expect, it } from "vitest";
import { SerialQueue } from "../../src/shared/serial-queue";

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

describe("SerialQueue", () => {
  it("runs one task at a time, in the order given, each result to its caller", async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    const first = deferred();
    const a = queue.run(async () => {
      log.push("a start");
      await first.promise;
      log.push("a end");
      return "a";
    });
    const b = queue.run(() => {
      log.push("b");
      return "b";
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(log).toEqual(["a start"]); // b waits for a
    expect(queue.isIdle).toBe(false);
    first.resolve();
    expect(await Promise.all([a, b])).toEqual(["a", "b"]);
    expect(log).toEqual(["a start", "a end", "b"]);
    expect(queue.isIdle).toBe(true);
  });

  it("a failure is its caller's only: the next task runs, and idle() does not reject", async () => {
    const queue = new SerialQueue();
    const failing = queue.run(() => Promise.reject(new Error("boom")));
    const thrown = queue.run(() => {
      throw new Error("sync boom");
    });
    const next = queue.run(() => 42);
    await expect(failing).rejects.toThrow("boom");
    await expect(thrown).rejects.toThrow("sync boom");
    expect(await next).toBe(42);
    await expect(queue.idle()).resolves.toBeUndefined();
    expect(queue.isIdle).toBe(true);
  });

  it("idle() waits for every task queued before it, not for later ones; a task gets no argument", async () => {
    const queue = new SerialQueue();
    const gate = deferred();
    const seen: unknown[] = [];
    void queue.run(async (...args: unknown[]) => {
      seen.push(args.length);
      await gate.promise;
      return "value";
    });
    let idle = false;
    const waiting = queue.idle().then(() => {
      idle = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(idle).toBe(false);
    gate.resolve();
    await waiting;
    expect(idle).toBe(true);
    void queue.run((...args: unknown[]) => seen.push(args.length));
    await queue.idle();
    expect(seen).toEqual([0, 0]);
  });
});
