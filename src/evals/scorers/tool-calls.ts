/**
 * `toolCalls`: scores the trajectory — which tools the agent called, in which order, with which input.
 * @module
 */
import type { EvalRun, EvalToolCall, ScoreResult, Scorer } from "../types";
import { type ArgsMatch, inputMatches } from "./match-input";

/** How expected and actual calls are lined up. */
export type ToolCallsMode = "strict" | "unordered" | "subset" | "superset";

/** Options of {@link toolCalls}. */
export interface ToolCallsOptions {
  /**
   * `strict`: the same calls in the same order, nothing more; `unordered`: the same calls in any
   * order, nothing more; `subset`: every expected call was made (others may be too), in any order;
   * `superset`: every call made was an expected one (some may be missing). @default "strict"
   */
  mode?: ToolCallsMode;
  /** How inputs compare (see match-input.ts). @default "partial" */
  args?: ArgsMatch;
}

/**
 * A scorer of the run's real tool calls (read from the conversation) against `expected`, or the
 * case's `expected.toolCalls` when not given. The score is the share of calls matched (of the
 * expected ones; of the actual ones for `superset`; of the longer list for `strict`); it passes at 1.
 *
 * @example
 * toolCalls([{ name: "read_file", input: { path: "notes.md" } }, { name: "write_file" }], { mode: "strict" })
 */
export function toolCalls(expected?: EvalToolCall[], options: ToolCallsOptions = {}): Scorer {
  const mode = options.mode ?? "strict";
  const args = options.args ?? "partial";
  if (!["strict", "unordered", "subset", "superset"].includes(mode))
    throw new TypeError(
      `toolCalls: mode must be "strict", "unordered", "subset" or "superset", not ${JSON.stringify(mode)}.`,
    );
  const scorer = (run: EvalRun): ScoreResult => {
    const wanted = expected ?? run.case.expected?.toolCalls;
    if (!wanted)
      throw new Error(
        `no expected tool calls: pass them to toolCalls() or set expected.toolCalls on case "${run.case.id}"`,
      );
    const actual = run.toolCalls;
    return mode === "strict" ? strict(wanted, actual, args) : matched(mode, wanted, actual, args);
  };
  return Object.defineProperty(scorer, "name", { value: "toolCalls" });
}

function strict(expected: EvalToolCall[], actual: EvalRun["toolCalls"], args: ArgsMatch): ScoreResult {
  const length = Math.max(expected.length, actual.length);
  if (length === 0) return { score: 1, pass: true, reason: "no tool call expected, none made" };
  let same = 0;
  let first: string | undefined;
  for (let index = 0; index < length; index++) {
    const want = expected[index];
    const got = actual[index];
    if (want && got && callMatches(want, got, args)) same++;
    else first ??= `call ${index + 1}: expected ${describe(want)}, got ${describe(got)}`;
  }
  const score = same / length;
  return {
    score,
    pass: score === 1,
    reason:
      score === 1
        ? `the ${length} expected call(s), in order: ${names(actual)}`
        : `${first} (made: ${names(actual)})`,
  };
}

function matched(
  mode: Exclude<ToolCallsMode, "strict">,
  expected: EvalToolCall[],
  actual: EvalRun["toolCalls"],
  args: ArgsMatch,
): ScoreResult {
  const pairs = maximumMatching(expected, actual, args);
  const missing = expected.filter((_, index) => !pairs.has(index));
  const used = new Set(pairs.values());
  const extra = actual.filter((_, index) => !used.has(index));
  const base = mode === "superset" ? actual.length : expected.length;
  const denominator = mode === "unordered" ? Math.max(expected.length, actual.length) : base;
  const score = denominator === 0 ? 1 : pairs.size / denominator;
  const problems = [
    mode !== "superset" && missing.length > 0 ? `missing ${missing.map(describe).join(", ")}` : "",
    mode !== "subset" && extra.length > 0 ? `unexpected ${extra.map(describe).join(", ")}` : "",
  ].filter(Boolean);
  return {
    score,
    pass: problems.length === 0,
    reason:
      problems.length === 0
        ? `${mode}: ${pairs.size} call(s) matched (made: ${names(actual)})`
        : `${mode}: ${problems.join("; ")}`,
  };
}

/** Expected index → actual index, as many pairs as can be matched (augmenting paths). */
function maximumMatching(
  expected: EvalToolCall[],
  actual: EvalRun["toolCalls"],
  args: ArgsMatch,
): Map<number, number> {
  const ofActual = new Map<number, number>();
  const tryAssign = (want: number, seen: Set<number>): boolean => {
    for (let got = 0; got < actual.length; got++) {
      if (seen.has(got) || !callMatches(expected[want]!, actual[got]!, args)) continue;
      seen.add(got);
      const holder = ofActual.get(got);
      if (holder === undefined || tryAssign(holder, seen)) {
        ofActual.set(got, want);
        return true;
      }
    }
    return false;
  };
  for (let want = 0; want < expected.length; want++) tryAssign(want, new Set());
  return new Map([...ofActual].map(([got, want]) => [want, got]));
}

function callMatches(
  expected: EvalToolCall,
  actual: { name: string; input: unknown },
  args: ArgsMatch,
): boolean {
  return expected.name === actual.name && inputMatches(expected.input, actual.input, args);
}

function describe(call: { name: string; input?: unknown } | undefined): string {
  if (!call) return "nothing";
  if (call.input === undefined) return call.name;
  const input = JSON.stringify(call.input);
  return `${call.name} ${input.length > 60 ? `${input.slice(0, 57)}…` : input}`;
}

function names(calls: Array<{ name: string }>): string {
  return calls.length === 0 ? "none" : calls.map((call) => call.name).join(" → ");
}
