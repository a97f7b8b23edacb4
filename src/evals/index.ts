/**
 * `agent-lattice/evals`: prove an agent works. Define cases and scorers, run each case several
 * times in fresh Agents, score the trajectory, the output, the files and a judge's verdict, and
 * record the model connection once to replay it in CI with no key. See docs/en/evals.md.
 * This entry imports only the root entry's public surface (and the SQLite store's entry, lazily).
 * @module
 */

export {
  type Cassette,
  type CassetteChannel,
  type CassetteInteraction,
  cassetteFolder,
  cassettePath,
} from "./cassette";
export {
  DEFAULT_EVAL_CONCURRENCY,
  DEFAULT_EVAL_THRESHOLD,
  DEFAULT_EVAL_TRIALS,
  defineEval,
  isEvalDefinition,
} from "./define-eval";
export { EvalInputError } from "./eval-input-error";
export { loadCases } from "./load-cases";
export { type EvalMode, ReplayMismatchError } from "./model-connection";
export { passAtK, passHatK } from "./pass-at-k";
export type {
  BaselineComparison,
  CaseChange,
  CaseSummary,
  EvalReport,
  EvalSummary,
  NotRunTrial,
} from "./report";
export { WORKSPACE_PLACEHOLDER } from "./request-match";
export { type RunEvalOptions, runEval, type TrialStoreContext } from "./run-eval";
export { DEFAULT_PASS_SCORE, type ScoreRecord } from "./run-scorer";
export type { TrialRecord } from "./run-trial";
export { filesMatch } from "./scorers/files-match";
export { DEFAULT_JUDGE_MODEL, type JudgeOptions, judge } from "./scorers/judge";
export type { ArgsMatch } from "./scorers/match-input";
export { maxCost, maxLatency, maxTurns, noToolCall, outputMatches } from "./scorers/simple-scorers";
export { type ToolCallsMode, type ToolCallsOptions, toolCalls } from "./scorers/tool-calls";
export { toolCallsOf } from "./tool-calls-of";
export type {
  EvalAgentContext,
  EvalCase,
  EvalDefinition,
  EvalDefinitionInput,
  EvalRun,
  EvalToolCall,
  ScoreResult,
  Scorer,
} from "./types";
