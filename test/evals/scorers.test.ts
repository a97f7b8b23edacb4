/**
 * The built-in scorers: toolCalls in its four modes and three argument rules, noToolCall,
 * outputMatches (text, RegExp, schema), the limits, filesMatch, and judge — a structured verdict from
 * any client, an invalid verdict sent back to fix, a judge that gives none a clear scorer error.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type EvalRun,
  judge,
  maxCost,
  maxLatency,
  maxTurns,
  noToolCall,
  outputMatches,
  type ScoreResult,
  toolCalls,
} from "../../src/evals/index";
import type { ModelClient, SDKResultMessage } from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";

function runOf(calls: Array<{ name: string; input: unknown }>, extra: Partial<EvalRun> = {}): EvalRun {
  let judgeCost = 0;
  return {
    case: { id: "c", input: "x", expected: { toolCalls: [{ name: "read_file" }] } },
    trial: 1,
    messages: [
      { role: "user", content: "x" },
      { role: "assistant", content: [{ type: "text", text: "done: 42" }] },
    ],
    toolCalls: calls,
    result: { result: "done: 42" } as SDKResultMessage<unknown>,
    output: "done: 42",
    costUsd: 0.01,
    latencyMs: 1200,
    turns: 3,
    modelConnection: (client) => client!,
    addJudgeCost: (usd) => {
      judgeCost += usd;
      (extra as { judgeCost?: number }).judgeCost = judgeCost;
    },
    ...extra,
  };
}

const read = (path: string) => ({ name: "read_file", input: { path } });
const write = (path: string, content = "x") => ({ name: "write_file", input: { path, content } });

async function score(scorer: (run: EvalRun) => ScoreResult | Promise<ScoreResult>, run: EvalRun) {
  return await scorer(run);
}

describe("toolCalls", () => {
  const expected = [read("a"), write("b")];
  it("strict: the same calls in the same order, nothing more", async () => {
    expect(await score(toolCalls(expected), runOf([read("a"), write("b")]))).toMatchObject({
      score: 1,
      pass: true,
    });
    const swapped = await score(toolCalls(expected), runOf([write("b"), read("a")]));
    expect(swapped).toMatchObject({ score: 0, pass: false });
    expect(swapped.reason).toContain('call 1: expected read_file {"path":"a"}, got write_file');
    expect(await score(toolCalls(expected), runOf([read("a"), write("b"), read("c")]))).toMatchObject({
      pass: false,
    });
  });
  it("unordered, subset and superset", async () => {
    expect(
      await score(toolCalls(expected, { mode: "unordered" }), runOf([write("b"), read("a")])),
    ).toMatchObject({ pass: true });
    const extra = runOf([write("b"), read("z"), read("a")]);
    expect(await score(toolCalls(expected, { mode: "unordered" }), extra)).toMatchObject({ pass: false });
    expect(await score(toolCalls(expected, { mode: "subset" }), extra)).toMatchObject({
      score: 1,
      pass: true,
    });
    const superset = await score(toolCalls(expected, { mode: "superset" }), extra);
    expect(superset.pass).toBe(false);
    expect(superset.reason).toContain('unexpected read_file {"path":"z"}');
    expect(await score(toolCalls(expected, { mode: "superset" }), runOf([read("a")]))).toMatchObject({
      pass: true,
    });
    const missing = await score(toolCalls(expected, { mode: "subset" }), runOf([read("a")]));
    expect(missing).toMatchObject({ score: 0.5, pass: false });
    expect(missing.reason).toContain("missing write_file");
  });
  it("matches a read_file-anywhere expectation with the best pairing, not the first", async () => {
    const expectations = [{ name: "read_file" }, read("a")];
    expect(
      await score(toolCalls(expectations, { mode: "unordered" }), runOf([read("a"), read("b")])),
    ).toMatchObject({ pass: true });
  });
  it("compares inputs exactly, partially or with a function", async () => {
    const run = runOf([{ name: "grep", input: { pattern: "TODO", path: "." } }]);
    expect(await score(toolCalls([{ name: "grep", input: { pattern: "TODO" } }]), run)).toMatchObject({
      pass: true,
    });
    expect(
      await score(toolCalls([{ name: "grep", input: { pattern: "TODO" } }], { args: "exact" }), run),
    ).toMatchObject({ pass: false });
    expect(
      await score(
        toolCalls([{ name: "grep", input: "todo" }], {
          args: (want, got) => (got as { pattern: string }).pattern.toLowerCase() === want,
        }),
        run,
      ),
    ).toMatchObject({ pass: true });
  });
  it("reads the case's expected.toolCalls, and fails loudly without any expectation", async () => {
    expect(await score(toolCalls(), runOf([read("x")]))).toMatchObject({ pass: true });
    const run = runOf([], { case: { id: "bare", input: "x" } });
    await expect(async () => toolCalls()(run)).rejects.toThrow(/no expected tool calls.*case "bare"/);
  });
});

describe("outcome scorers", () => {
  it("noToolCall by name or pattern", async () => {
    expect(await score(noToolCall("bash"), runOf([read("a")]))).toMatchObject({ pass: true });
    expect(await score(noToolCall(/^write|edit/), runOf([write("a"), write("b")]))).toMatchObject({
      pass: false,
      reason: "called write_file, write_file (2×)",
    });
  });
  it("outputMatches a string, a RegExp or a schema", async () => {
    expect(await score(outputMatches("42"), runOf([]))).toMatchObject({ pass: true });
    expect(await score(outputMatches(/^nope/), runOf([]))).toMatchObject({ pass: false });
    const json = runOf([], { output: '{"answer":42}' });
    expect(await score(outputMatches(z.object({ answer: z.number() })), json)).toMatchObject({ pass: true });
    expect(await score(outputMatches(z.object({ answer: z.string() })), json)).toMatchObject({ pass: false });
    expect((await score(outputMatches(z.object({})), runOf([]))).reason).toContain("not JSON");
  });
  it("limits on cost, turns and latency", async () => {
    const run = runOf([]);
    expect(await score(maxCost(0.02), run)).toMatchObject({ pass: true });
    expect(await score(maxCost(0.001), run)).toMatchObject({ pass: false, reason: "$0.010000 > $0.001000" });
    expect(await score(maxTurns(2), run)).toMatchObject({ pass: false, reason: "3 turn(s) > 2 turn(s)" });
    expect(await score(maxLatency(5000), run)).toMatchObject({ pass: true });
  });
});

const verdict = (input: unknown) => ({
  content: [{ type: "tool_use" as const, id: `v${Math.random()}`, name: "submit_output", input }],
  stop_reason: "tool_use" as const,
  usage: { input_tokens: 1000, output_tokens: 50 },
});

describe("judge", () => {
  it("parses a structured verdict from any client, counting its cost as the judge's", async () => {
    const client = createScriptedClient([
      verdict({ score: 0.8, pass: true, reason: "Mentions 42." }),
      { content: "ok" },
    ]);
    const extra: Partial<EvalRun> & { judgeCost?: number } = {};
    const run = runOf([], extra);
    Object.assign(run, { addJudgeCost: (usd: number) => (extra.judgeCost = usd) });
    expect(await judge({ client, rubric: "Says 42." })(run)).toEqual({
      score: 0.8,
      pass: true,
      reason: "Mentions 42.",
    });
    expect(extra.judgeCost).toBeGreaterThan(0);
    const sent = JSON.stringify(client.requests[0]!.messages);
    expect(sent).toContain("Says 42.");
    expect(sent).toContain("Final answer: done: 42");
  });
  it("sends an invalid verdict back to be fixed, and applies its own pass mark", async () => {
    const client = createScriptedClient([
      verdict({ score: 7 }),
      verdict({ score: 0.6, reason: "Fine." }),
      { content: "ok" },
    ]);
    expect(await judge({ client, rubric: "r", pass: 0.7 })(runOf([]))).toEqual({
      score: 0.6,
      pass: false,
      reason: "Fine.",
    });
  });
  it("fails the scorer with a clear error when the judge never gives a valid verdict", async () => {
    const client = createScriptedClient(() => verdict({ verdict: "great" }));
    await expect(async () => judge({ client, rubric: "r", maxTurns: 2 })(runOf([]))).rejects.toThrow(
      /the judge gave no valid verdict \(error_max_turns/,
    );
  });
  it("retries a transient provider error as an agent does", async () => {
    const overloaded = Object.assign(new Error("overloaded"), { status: 529 });
    const client: ModelClient = createScriptedClient([
      overloaded,
      verdict({ score: 1, reason: "Good." }),
      { content: "ok" },
    ]);
    expect(
      await judge({ client, rubric: "r", retry: { initialDelayMs: 1, maxDelayMs: 1 } })(runOf([])),
    ).toMatchObject({ score: 1, pass: true });
  });
});
