/**
 * Scorers of the run's outcome: `noToolCall`, `outputMatches`, `maxCost`, `maxTurns`, `maxLatency`.
 * @module
 */
import type { OutputSchema } from "../../index";
import type { EvalRun, ScoreResult, Scorer } from "../types";

function named(name: string, scorer: (run: EvalRun) => ScoreResult): Scorer {
  return Object.defineProperty(scorer, "name", { value: name });
}

/** Passes when no tool call's name equals `nameOrPattern` (or matches it, for a RegExp). */
export function noToolCall(nameOrPattern: string | RegExp): Scorer {
  const test = (name: string) =>
    typeof nameOrPattern === "string"
      ? name === nameOrPattern
      : new RegExp(nameOrPattern.source, nameOrPattern.flags.replace("g", "")).test(name);
  return named("noToolCall", (run) => {
    const offending = run.toolCalls.filter((call) => test(call.name));
    return offending.length === 0
      ? { score: 1, pass: true, reason: `no call to ${String(nameOrPattern)}` }
      : {
          score: 0,
          pass: false,
          reason: `called ${offending.map((call) => call.name).join(", ")} (${offending.length}×)`,
        };
  });
}

/**
 * Checks the agent's final text: a string must appear in it, a RegExp must match it, a schema
 * (zod, or anything with `parse`) must accept it parsed as JSON (or the structured result, with
 * `outputSchema`). Without `expected`, the case's `expected.output` (a string) is used.
 */
export function outputMatches(expectation?: string | RegExp | OutputSchema<unknown>): Scorer {
  return named("outputMatches", (run) => {
    const expected = expectation ?? run.case.expected?.output;
    if (expected === undefined)
      throw new Error(
        `no expected output: pass it to outputMatches() or set expected.output on case "${run.case.id}"`,
      );
    const text = run.output;
    if (typeof expected === "string")
      return text.includes(expected)
        ? { score: 1, pass: true, reason: `the output contains ${JSON.stringify(expected)}` }
        : {
            score: 0,
            pass: false,
            reason: `the output does not contain ${JSON.stringify(expected)}: ${excerpt(text)}`,
          };
    if (expected instanceof RegExp)
      return new RegExp(expected.source, expected.flags.replace("g", "")).test(text)
        ? { score: 1, pass: true, reason: `the output matches ${expected}` }
        : { score: 0, pass: false, reason: `the output does not match ${expected}: ${excerpt(text)}` };
    return schemaVerdict(expected, run);
  });
}

function schemaVerdict(schema: OutputSchema<unknown>, run: EvalRun): ScoreResult {
  let value: unknown = run.result.structuredResult;
  if (value === undefined) {
    try {
      value = JSON.parse(run.output);
    } catch {
      return { score: 0, pass: false, reason: `the output is not JSON: ${excerpt(run.output)}` };
    }
  }
  try {
    schema.parse(value);
    return { score: 1, pass: true, reason: "the output matches the schema" };
  } catch (error) {
    return {
      score: 0,
      pass: false,
      reason: `the output does not match the schema: ${(error as Error).message.slice(0, 300)}`,
    };
  }
}

function excerpt(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 120 ? `"${line.slice(0, 117)}…"` : `"${line}"`;
}

/** Passes when the agent's cost (the judge's not counted) is at most `usd`. */
export function maxCost(usd: number): Scorer {
  return limit(
    "maxCost",
    usd,
    (run) => run.costUsd,
    (value) => `$${value.toFixed(6)}`,
  );
}

/** Passes when the agent made at most `n` model requests over the case. */
export function maxTurns(n: number): Scorer {
  return limit(
    "maxTurns",
    n,
    (run) => run.turns,
    (value) => `${value} turn(s)`,
  );
}

/** Passes when the case took at most `ms` milliseconds, first prompt to last result. */
export function maxLatency(ms: number): Scorer {
  return limit(
    "maxLatency",
    ms,
    (run) => run.latencyMs,
    (value) => `${value} ms`,
  );
}

function limit(
  name: string,
  bound: number,
  measure: (run: EvalRun) => number,
  show: (value: number) => string,
): Scorer {
  if (typeof bound !== "number" || !(bound >= 0))
    throw new TypeError(`${name}: the limit must be a number ≥ 0.`);
  return named(name, (run) => {
    const value = measure(run);
    return value <= bound
      ? { score: 1, pass: true, reason: `${show(value)} ≤ ${show(bound)}` }
      : { score: 0, pass: false, reason: `${show(value)} > ${show(bound)}` };
  });
}
