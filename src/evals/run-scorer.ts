/**
 * Running one scorer so that it can never fail silently: a throw, a rejected promise, a score that
 * is not a number in [0, 1] or a result that is not an object each become a failed score whose
 * reason says so (and `error: true`), for that trial only.
 * @module
 */
import type { EvalRun, Scorer } from "./types";

/** One scorer's verdict on one trial. */
export interface ScoreRecord {
  scorer: string;
  score: number;
  pass: boolean;
  reason: string;
  /** The scorer failed (threw, or returned something unusable); `reason` says how. */
  error?: true;
}

/** The pass mark of a scorer that gives no `pass`. */
export const DEFAULT_PASS_SCORE = 0.5;

/** The name a scorer shows in reports: its own (built-in scorers set one) or `scorer #n`. */
export function scorerName(scorer: Scorer, index: number): string {
  return scorer.name && scorer.name !== "anonymous" ? scorer.name : `scorer #${index + 1}`;
}

/** Runs `scorer` on `run`; never throws. */
export async function runScorer(scorer: Scorer, index: number, run: EvalRun): Promise<ScoreRecord> {
  const name = scorerName(scorer, index);
  let value: unknown;
  try {
    value = await scorer(run);
  } catch (error) {
    return failed(
      name,
      `threw: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
    );
  }
  if (typeof value !== "object" || value === null)
    return failed(name, `returned ${String(value)}, not { score, pass?, reason? }`);
  const { score, pass, reason } = value as { score?: unknown; pass?: unknown; reason?: unknown };
  if (typeof score !== "number" || !(score >= 0 && score <= 1))
    return failed(
      name,
      `returned the score ${JSON.stringify(score) ?? "undefined"}, not a number from 0 to 1`,
    );
  if (pass !== undefined && typeof pass !== "boolean")
    return failed(name, `returned pass ${JSON.stringify(pass)}, not a boolean`);
  return {
    scorer: name,
    score,
    pass: pass ?? score >= DEFAULT_PASS_SCORE,
    reason: typeof reason === "string" && reason !== "" ? reason : `score ${score}`,
  };
}

function failed(scorer: string, reason: string): ScoreRecord {
  return { scorer, score: 0, pass: false, reason: `scorer error: ${reason}`, error: true };
}
