import { describe, expect, it } from "vitest";
import { createAgent, InvalidOptionError } from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";

describe("pricing option validation", () => {
  const client = createScriptedClient([]);
  it.each([
    { inputPerMTok: Number.NaN, outputPerMTok: 1 },
    { inputPerMTok: -1, outputPerMTok: 1 },
    { inputPerMTok: 1, outputPerMTok: Number.POSITIVE_INFINITY },
    { inputPerMTok: 1, outputPerMTok: 1, cacheReadPerMTok: -0.1 },
    {
      inputPerMTok: 1,
      outputPerMTok: 1,
      longPrompt: { aboveInputTokens: 100_000, inputPerMTok: Number.NaN, outputPerMTok: 2 },
    },
  ])("refuses a price that would make cost NaN or negative: %j", (price) => {
    expect(() => createAgent({ model: "m", client, pricing: { m: price as never } })).toThrow(
      InvalidOptionError,
    );
  });

  it("accepts finite non-negative prices", () => {
    expect(() =>
      createAgent({
        model: "m",
        client,
        pricing: { m: { inputPerMTok: 0, outputPerMTok: 2, cacheReadPerMTok: 0.1 } },
      }),
    ).not.toThrow();
  });
});

describe("options in milliseconds: at most 2^31 - 1, the longest a Node timer waits", () => {
  const client = () => createScriptedClient([{ content: "Slow but fine.", delayMs: 20 }]);
  const MAX_TIMER_MS = 2_147_483_647;

  it.each([
    { requestTimeoutMs: MAX_TIMER_MS + 1 },
    { requestTimeoutMs: 30 * 24 * 3600 * 1000 },
    { requestTimeoutMs: Number.MAX_SAFE_INTEGER },
    { toolTimeoutMs: 2 ** 31 },
    { retry: { maxDelayMs: 2 ** 31 } },
    { retry: { initialDelayMs: 2 ** 32 } },
  ])("createAgent refuses %j, naming the maximum", (options) => {
    expect(() => createAgent({ model: "m", client: client(), ...options })).toThrow(InvalidOptionError);
    expect(() => createAgent({ model: "m", client: client(), ...options })).toThrow(
      `at most ${MAX_TIMER_MS} ms`,
    );
  });

  it("prompt() and query() refuse a per-query requestTimeoutMs of 2^31 ms", async () => {
    const agent = createAgent({ model: "m", client: client() });
    await expect(agent.prompt("Hello", { requestTimeoutMs: 2 ** 31 })).rejects.toThrow(
      `at most ${MAX_TIMER_MS} ms`,
    );
    expect(() => agent.query("Hello", { requestTimeoutMs: 2 ** 31 })).toThrow(InvalidOptionError);
  });

  it("prompt(), query() and streamInput() refuse a signal that is not an AbortSignal (the controller itself, say)", async () => {
    const agent = createAgent({ model: "m", client: createScriptedClient([{ content: "after" }]) });
    const signal = new AbortController() as never;
    await expect(agent.prompt("Hello", { signal })).rejects.toThrow(/`signal` must be an AbortSignal/);
    expect(() => agent.query("Hello", { signal })).toThrow(InvalidOptionError);
    await expect(agent.streamInput(["Hello"], { signal }).next()).rejects.toThrow(InvalidOptionError);
    expect((await agent.prompt("Hello")).result).toBe("after");
  });

  it("does not apply the timer maximum to counts that are not durations", () => {
    expect(() =>
      createAgent({
        model: "m",
        client: client(),
        maxTurns: 2 ** 31,
        autoCompact: { thresholdTokens: 2 ** 32 },
        compactToolResults: { thresholdChars: 2 ** 33 },
      }),
    ).not.toThrow();
  });

  it("accepts the maximum itself, which does not time out a 20 ms answer", async () => {
    const agent = createAgent({
      model: "m",
      client: client(),
      requestTimeoutMs: MAX_TIMER_MS,
      toolTimeoutMs: MAX_TIMER_MS,
      retry: { initialDelayMs: MAX_TIMER_MS, maxDelayMs: MAX_TIMER_MS },
    });
    const result = await agent.prompt("Hello", { requestTimeoutMs: MAX_TIMER_MS });
    expect(result.subtype).toBe("success");
    expect(result.result).toBe("Slow but fine.");
  });
});

describe("concurrent queries without a caller's signal", () => {
  it("put no listener on a shared signal (no MaxListenersExceededWarning with 20 queries at once)", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      const agents = Array.from({ length: 20 }, () =>
        createAgent({ model: "m", client: createScriptedClient([{ content: "ok", delayMs: 20 }]) }),
      );
      const results = await Promise.all(agents.map((agent) => agent.prompt("hi")));
      expect(results.map((result) => result.subtype)).toEqual(Array(20).fill("success"));
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
  });
});
