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
