/**
 * Live delivery of a phase's messages: every message the phase emits is yielded, in order, before
 * its result (or its failure); a consumer slower than the phase loses nothing.
 */
import { describe, expect, it } from "vitest";
import { drain, LiveMessages, MESSAGES_WAITING } from "../../../src/loop/state/live-messages";
import { deferred } from "../support";

async function collect<M, R>(generator: AsyncGenerator<M, R>): Promise<{ messages: M[]; result: R }> {
  const messages: M[] = [];
  while (true) {
    const step = await generator.next();
    if (step.done) return { messages, result: step.value };
    messages.push(step.value);
  }
}

describe("drain", () => {
  it("yields what the phase emits while it runs, in order, then returns its result", async () => {
    const live = new LiveMessages<string>();
    const { messages, result } = await collect(
      drain(live, async (emit) => {
        emit("a");
        await new Promise((resolve) => setTimeout(resolve, 5));
        emit("b");
        emit("c");
        return 42;
      }),
    );
    expect(messages).toEqual(["a", "b", "c"]);
    expect(result).toBe(42);
  });

  it("yields the messages emitted right before the phase settles", async () => {
    const live = new LiveMessages<string>();
    const { messages, result } = await collect(
      drain(live, async (emit) => {
        await Promise.resolve();
        emit("last");
        return "done";
      }),
    );
    expect(messages).toEqual(["last"]);
    expect(result).toBe("done");
  });

  it("yields the messages emitted before a failure, then throws it", async () => {
    const live = new LiveMessages<string>();
    const messages: string[] = [];
    const failing = drain(live, async (emit) => {
      emit("before");
      await Promise.resolve();
      throw new Error("phase failed");
    });
    await expect(
      (async () => {
        for await (const message of failing) messages.push(message);
      })(),
    ).rejects.toThrow("phase failed");
    expect(messages).toEqual(["before"]);
  });

  it("turns a synchronous throw of the phase into a failure", async () => {
    const live = new LiveMessages<string>();
    await expect(
      collect(
        drain(live, () => {
          throw new Error("sync");
        }),
      ),
    ).rejects.toThrow("sync");
  });

  it("loses nothing while the consumer is slower than the phase", async () => {
    const live = new LiveMessages<number>();
    const generator = drain(live, async (emit) => {
      for (let index = 0; index < 50; index++) {
        emit(index);
        if (index % 7 === 0) await Promise.resolve();
      }
      return "end";
    });
    const messages: number[] = [];
    while (true) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      const step = await generator.next();
      if (step.done) {
        expect(step.value).toBe("end");
        break;
      }
      messages.push(step.value);
    }
    expect(messages).toEqual(Array.from({ length: 50 }, (_, index) => index));
  });
});

describe("LiveMessages.settle", () => {
  it("says messages wait without waiting when some are queued, else waits for either", async () => {
    const live = new LiveMessages<string>();
    const phase = deferred<string>();
    live.emit("queued");
    expect(live.settle(phase.promise)).toBe(MESSAGES_WAITING);
    expect(live.take()).toEqual(["queued"]);
    const waiting = live.settle(phase.promise);
    live.emit("woke");
    await expect(waiting).resolves.toBe(MESSAGES_WAITING);
    expect(live.take()).toEqual(["woke"]);
    const result = live.settle(phase.promise);
    phase.resolve("result");
    await expect(result).resolves.toBe("result");
  });
});

describe("a consumer that stops while messages wait", () => {
  it("leaves no unhandled rejection when the abandoned phase fails later", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const live = new LiveMessages<string>();
      const failing = deferred<string>();
      const generator = drain(live, (emit) => {
        emit("first");
        return failing.promise;
      });
      expect((await generator.next()).value).toBe("first");
      await generator.return(undefined as never);
      failing.reject(new Error("failed after the consumer left"));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});

describe("a phase that emits many messages", () => {
  it("is watched once, however many times the loop waits on it", async () => {
    let thenCalls = 0;
    class CountingPromise<T> extends Promise<T> {
      // biome-ignore lint/suspicious/noThenProperty: counting how often the phase is subscribed to
      override then<A = T, B = never>(
        onFulfilled?: ((value: T) => A | PromiseLike<A>) | null,
        onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
      ): Promise<A | B> {
        thenCalls += 1;
        return super.then(onFulfilled, onRejected);
      }
      static override get [Symbol.species]() {
        return Promise;
      }
    }
    const live = new LiveMessages<number>();
    let finish!: (value: string) => void;
    const phase = new CountingPromise<string>((resolve) => {
      finish = resolve;
    });
    const messages: number[] = [];
    const producing = (async () => {
      for (let index = 0; index < 300; index++) {
        await new Promise((resolve) => setImmediate(resolve));
        live.emit(index);
      }
      finish("done");
    })();
    let settled = await live.settle(phase);
    while (settled === MESSAGES_WAITING) {
      messages.push(...live.take());
      settled = await live.settle(phase);
    }
    await producing;
    expect(settled).toBe("done");
    expect(messages).toHaveLength(300);
    expect(thenCalls).toBe(1);
  });
});
