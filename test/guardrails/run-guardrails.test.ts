/**
 * One stage's guardrails run together: the first tripwire decides at once and aborts the others,
 * else the first refusal in the agent's order, else every redaction in order; definitions are
 * checked when they are made and when an agent takes them.
 */
import { describe, expect, it } from "vitest";
import { runGuardrails, type StageContext } from "../../src/guardrails/run-guardrails";
import { createAgent, defineGuardrail, type GuardrailVerdict, InvalidOptionError } from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { MODEL } from "../loop/support";

const context: StageContext = {
  stage: "input",
  text: "hello",
  messages: [],
  agent: "main",
  model: "m",
  client: { createMessage: () => Promise.reject(new Error("unused")) },
  reportUsage: () => {},
};

const decidingAfter = (
  ms: number,
  verdict: GuardrailVerdict,
  name = `g${ms}${verdict.verdict}`,
  aborted?: AbortSignal[],
) =>
  defineGuardrail({
    name,
    stage: "input",
    check: ({ signal }) =>
      new Promise((resolve) => {
        aborted?.push(signal);
        setTimeout(() => resolve(verdict), ms);
      }),
  });

describe("runGuardrails", () => {
  it("a tripwire decides at once and aborts the checks still running", async () => {
    const signals: AbortSignal[] = [];
    const started = Date.now();
    const decision = await runGuardrails(
      [
        decidingAfter(5_000, { verdict: "allow" }, "slow", signals),
        decidingAfter(1, { verdict: "tripwire", message: "stop" }, "fast"),
      ],
      context,
      new AbortController().signal,
      () => {},
    );
    expect(decision).toEqual({
      verdict: "tripwire",
      record: { name: "fast", stage: "input", verdict: "tripwire", message: "stop" },
    });
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(signals[0]!.aborted).toBe(true);
  });

  it("the first refusal in the agent's order wins over later ones; redactions chain in order", async () => {
    const decision = await runGuardrails(
      [
        decidingAfter(20, { verdict: "reject", message: "first" }, "a"),
        decidingAfter(1, { verdict: "reject", message: "second" }, "b"),
      ],
      context,
      new AbortController().signal,
      () => {},
    );
    expect(decision).toMatchObject({ verdict: "reject", record: { name: "a", message: "first" } });
    const redacted = await runGuardrails(
      [
        decidingAfter(5, { verdict: "redact", redact: (text) => text.replace("a", "b") }, "one"),
        decidingAfter(1, { verdict: "redact", redact: (text) => text.replace("b", "c") }, "two"),
      ],
      context,
      new AbortController().signal,
      () => {},
    );
    if (redacted.verdict !== "allow" || !redacted.redactions) throw new Error("expected redactions");
    expect(redacted.redactions.reduce((text, { redact }) => redact(text), "a")).toBe("c");
  });

  it("ends cancelled when the query's signal aborts, without waiting for the checks", async () => {
    const controller = new AbortController();
    const running = runGuardrails(
      [decidingAfter(10_000, { verdict: "allow" })],
      context,
      controller.signal,
      () => {},
    );
    controller.abort(new Error("user"));
    expect(await running).toEqual({ verdict: "cancelled" });
  });
});

describe("defineGuardrail and AgentOptions.guardrails", () => {
  it("refuses malformed definitions and duplicate names", () => {
    const check = () => ({ verdict: "allow" }) as const;
    const client = createScriptedClient([]);
    expect(() => defineGuardrail({ name: "", stage: "input", check })).toThrow(InvalidOptionError);
    expect(() => defineGuardrail({ name: "x", stage: [] as never, check })).toThrow(InvalidOptionError);
    expect(() => defineGuardrail({ name: "x", stage: "tool_input", mode: "parallel", check })).toThrow(
      /input/,
    );
    expect(() => defineGuardrail({ name: "x", stage: "input", timeoutMs: 0, check })).toThrow(
      InvalidOptionError,
    );
    expect(() => defineGuardrail({ name: "x", stage: "input", check: undefined as never })).toThrow(
      InvalidOptionError,
    );
    const one = defineGuardrail({ name: "same", stage: "input", check });
    expect(() => createAgent({ model: MODEL, client, guardrails: [one, one] })).toThrow(
      /two guardrails are named "same"/,
    );
    expect(() => createAgent({ model: MODEL, client, guardrails: [{ name: "fake" } as never] })).toThrow(
      InvalidOptionError,
    );
    expect(() => createAgent({ model: MODEL, client, name: "bad name!" })).toThrow(InvalidOptionError);
  });
});
