/**
 * Live delivery of a phase's messages: every message the phase emits is yielded, in order, before
 * its result (or its failure); a consumer slower than the phase loses nothing.
 */
import { describe, expect, it } from "vitest";
import { type Emit, LiveMessages, PHASE_ENDED } from "../../../src/loop/state/live-messages";
import { deferred } from "../support";

async function collect<M, R>(generator: AsyncGenerator<M, R>): Promise<{ messages: M[]; result: R }> {
  const messages: M[] = [];
  while (true) {
    const step = await generator.next();
    if (step.done) return { messages, result: step.value };
    messages.push(step.value);
  }
}

/** Runs `phase` with the queue's `emit`, delivering what it emits live. */
function deliver<M, R>(live: LiveMessages<M>, phase: (emit: Emit<M>) => Promise<R>): AsyncGenerator<M, R> {
  return live.during(phase(live.emit));
}

describe("LiveMessages.during", () => {
  it("yields what the phase emits while it runs, in order, then returns its result", async () => {
    const live = new LiveMessages<string>();
    const { messages, result } = await collect(
      deliver(live, async (emit) => {
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
      deliver(live, async (emit) => {
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
    const failing = deliver(live, async (emit) => {
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

  it("loses nothing while the consumer is slower than the phase", async () => {
    const live = new LiveMessages<number>();
    const generator = deliver(live, async (emit) => {
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

  it("takes the messages queued before the phase first, then the phase's", async () => {
    const live = new LiveMessages<string>();
    live.emit("queued");
    const phase = deferred<string>();
    const generator = live.during(phase.promise);
    expect(await generator.next()).toEqual({ done: false, value: "queued" });
    const waiting = generator.next();
    live.emit("woke");
    expect(await waiting).toEqual({ done: false, value: "woke" });
    const ending = generator.next();
    phase.resolve("result");
    expect(await ending).toEqual({ done: true, value: "result" });
    expect(live.waiting).toBe(false);
  });
});

describe("LiveMessages.take", () => {
  it("hands the messages out in the order they were pushed, across refills", () => {
    const live = new LiveMessages<number>();
    const taken: number[] = [];
    for (let round = 0; round < 3; round++) {
      live.emit(round * 10);
      live.emit(round * 10 + 1);
      taken.push(live.take());
      live.emit(round * 10 + 2);
      while (live.waiting) taken.push(live.take());
    }
    expect(taken).toEqual([0, 1, 2, 10, 11, 12, 20, 21, 22]);
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
      const generator = deliver(live, (emit) => {
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
  it("is watched once, however many times the delivery waits on it", async () => {
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
    const producing = (async () => {
      for (let index = 0; index < 300; index++) {
        await new Promise((resolve) => setImmediate(resolve));
        live.emit(index);
      }
      finish("done");
    })();
    const { messages, result } = await collect(live.during(phase));
    await producing;
    expect(result).toBe("done");
    expect(messages).toHaveLength(300);
    expect(thenCalls).toBe(1);
  });
});

describe("LiveMessages.follow / nextLive / phaseResult (the loop's own model-call delivery)", () => {
  /** What the loop does: follow the phase, take each live message as it comes, then the result. */
  async function followed<M, R>(
    live: LiveMessages<M>,
    phase: Promise<R>,
  ): Promise<{ messages: M[]; result: R }> {
    live.follow(phase);
    const messages: M[] = [];
    for (let step = await live.nextLive(); step !== PHASE_ENDED; step = await live.nextLive())
      messages.push(step);
    return { messages, result: live.phaseResult<R>() };
  }

  it("gives what the phase emits while it runs — at once when it waits — then its result", async () => {
    const live = new LiveMessages<string>();
    const gate = deferred<void>();
    const phase = (async () => {
      live.emit("a");
      await gate.promise;
      live.emit("b");
      live.emit("c");
      return 7;
    })();
    live.follow(phase);
    expect(live.nextLive()).toBe("a"); // waiting already: no promise
    const waited = live.nextLive();
    expect(waited).toBeInstanceOf(Promise);
    gate.resolve();
    expect(await waited).toBe("b");
    expect(live.nextLive()).toBe("c");
    expect(await live.nextLive()).toBe(PHASE_ENDED);
    expect(live.phaseResult()).toBe(7);
  });

  it("throws the phase's rejection once the messages before it were taken; a later phase starts clean", async () => {
    const live = new LiveMessages<string>();
    const failing = (async () => {
      live.emit("before");
      await Promise.resolve();
      throw new Error("provider down");
    })();
    live.follow(failing);
    expect(await live.nextLive()).toBe("before");
    expect(await live.nextLive()).toBe(PHASE_ENDED);
    expect(() => live.phaseResult()).toThrow("provider down");
    expect(await followed(live, Promise.resolve("next"))).toEqual({ messages: [], result: "next" });
  });

  it("gives the same messages in the same order as during", async () => {
    const run = (live: LiveMessages<number>) =>
      (async () => {
        for (let index = 0; index < 20; index++) {
          live.emit(index);
          if (index % 3 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
        }
        return "done";
      })();
    const first = new LiveMessages<number>();
    const second = new LiveMessages<number>();
    const viaFollow = await followed(first, run(first));
    const viaDuring = await collect(second.during(run(second)));
    expect(viaFollow).toEqual(viaDuring);
    expect(viaFollow.messages).toHaveLength(20);
  });
});
