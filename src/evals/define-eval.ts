/**
 * `defineEval`: checks an eval definition once, so a mistake is refused before any trial runs.
 * @module
 */
import { EvalInputError } from "./eval-input-error";
import type { EvalDefinition, EvalDefinitionInput } from "./types";

/** Trials per case when the definition gives none. */
export const DEFAULT_EVAL_TRIALS = 1;
/** Trials in flight at once when the definition gives none. */
export const DEFAULT_EVAL_CONCURRENCY = 4;
/** The pass rate a case needs when the definition gives none: every trial passes. */
export const DEFAULT_EVAL_THRESHOLD = 1;

/**
 * Defines an eval: an agent (the options of a fresh Agent per trial), cases and scorers. Run it with
 * `runEval` or `agent-lattice eval <file>` (the file's default export).
 *
 * @example
 * import { defineEval, toolCalls, outputMatches } from "agent-lattice/evals";
 * export default defineEval({
 *   name: "files",
 *   agent: ({ workspace }) => ({ model: "claude-sonnet-4-5", tools: createWorkspaceTools({ root: workspace! }) }),
 *   cases: "cases.jsonl",
 *   scorers: [toolCalls(), outputMatches(/done/i)],
 *   trials: 3,
 * });
 * @throws {EvalInputError} a missing name, agent or scorer, or a bad number.
 */
export function defineEval(definition: EvalDefinitionInput): EvalDefinition {
  if (typeof definition !== "object" || definition === null)
    throw new EvalInputError("defineEval needs an object.");
  const { name, agent, cases, scorers } = definition;
  if (typeof name !== "string" || name.trim() === "")
    throw new EvalInputError("defineEval: `name` must be a non-empty string.");
  const where = `defineEval("${name}")`;
  if (typeof agent !== "function")
    throw new EvalInputError(`${where}: \`agent\` must be a function returning agent options.`);
  if (!Array.isArray(cases) && typeof cases !== "string")
    throw new EvalInputError(
      `${where}: \`cases\` must be an array of cases or a path to a .jsonl / .json file.`,
    );
  if (!Array.isArray(scorers) || scorers.some((scorer) => typeof scorer !== "function"))
    throw new EvalInputError(`${where}: \`scorers\` must be an array of functions.`);
  const trials = positiveInteger(definition.trials, DEFAULT_EVAL_TRIALS, `${where}: \`trials\``);
  const concurrency = positiveInteger(
    definition.concurrency,
    DEFAULT_EVAL_CONCURRENCY,
    `${where}: \`concurrency\``,
  );
  const threshold = definition.threshold ?? DEFAULT_EVAL_THRESHOLD;
  if (typeof threshold !== "number" || !(threshold >= 0 && threshold <= 1))
    throw new EvalInputError(`${where}: \`threshold\` must be a number from 0 to 1.`);
  const { budgetUsd } = definition;
  if (budgetUsd !== undefined && !(typeof budgetUsd === "number" && budgetUsd > 0))
    throw new EvalInputError(`${where}: \`budgetUsd\` must be a positive number.`);
  return {
    kind: "agent-lattice-eval",
    name,
    agent,
    cases,
    scorers,
    trials,
    concurrency,
    threshold,
    ...(budgetUsd !== undefined && { budgetUsd }),
  };
}

/** Whether `value` is a definition made by {@link defineEval}. */
export function isEvalDefinition(value: unknown): value is EvalDefinition {
  return (
    typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "agent-lattice-eval"
  );
}

function positiveInteger(value: number | undefined, fallback: number, what: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new EvalInputError(`${what} must be a positive integer.`);
  return value;
}
