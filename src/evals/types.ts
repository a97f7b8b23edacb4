/**
 * The vocabulary of `agent-lattice/evals`: cases, runs, scorers and eval definitions.
 * @module
 */
import type { AgentOptions, ModelClient, ModelMessage, SDKResultMessage } from "../index";

/** A tool call the agent is expected to make (or made): its name and, optionally, its input. */
export interface EvalToolCall {
  name: string;
  input?: unknown;
}

/**
 * One case of an eval. `input` is one prompt, or several prompts sent in order to the same agent
 * (a multi-turn case). `workspace` is fixture files (`{ "path/in/workspace": "content" }`) or a
 * folder (relative to the eval file) copied to a fresh folder for each trial.
 */
export interface EvalCase {
  id: string;
  input: string | string[];
  expected?: {
    toolCalls?: EvalToolCall[];
    output?: string;
    files?: Record<string, string>;
    [key: string]: unknown;
  };
  tags?: string[];
  workspace?: Record<string, string> | string;
}

/** What a scorer sees: one trial of one case, after the agent finished. */
export interface EvalRun {
  case: EvalCase;
  /** The trial, from 1. */
  trial: number;
  /** The conversation as stored: every message of every prompt of the case, in order. */
  messages: ModelMessage[];
  /** The tool calls of the conversation's assistant messages, in order (see {@link toolCallsOf}). */
  toolCalls: Array<{ name: string; input: unknown }>;
  /** The result message of the case's last prompt. */
  result: SDKResultMessage<unknown>;
  /** The final text of the last prompt (`result.result`). */
  output: string;
  /** The agent's cost over all prompts of the case, in USD (the judge's is reported apart). */
  costUsd: number;
  /** Wall time from the first prompt to the last result, in milliseconds. */
  latencyMs: number;
  /** Model requests made over all prompts of the case. */
  turns: number;
  /** The trial's workspace folder, when the case has one (read it to check files). */
  workspace?: string;
  /**
   * A model client for a scorer (`judge`) as the run's mode asks: recorded with `--record` (into
   * the trial's cassette), answered from the cassette with `--replay`, as is live. Without
   * `client`, the built-in client over `credentials` (or the environment); in replay none is made.
   */
  modelConnection(
    client: ModelClient | undefined,
    credentials?: { apiKey?: string; baseURL?: string },
  ): ModelClient;
  /** Adds a scorer's own model cost (a judge's) to the trial's judge cost, in USD. */
  addJudgeCost(usd: number): void;
}

/** What a scorer returns: a score in [0, 1], a pass/fail (default: score ≥ 0.5) and a reason. */
export interface ScoreResult {
  score: number;
  pass?: boolean;
  reason?: string;
}

/** A scorer: a function of a run. Throwing fails that case's trial with the error (never a silent 0). */
export type Scorer = (run: EvalRun) => ScoreResult | Promise<ScoreResult>;

/** What the `agent` function of a definition is given for each trial. */
export interface EvalAgentContext {
  caseId: string;
  trial: number;
  /** The trial's fresh workspace folder, when the case has one. */
  workspace?: string;
}

/** The input of {@link defineEval}. */
export interface EvalDefinitionInput {
  /** Names the eval: its cassettes folder and its report rows. */
  name: string;
  /** The options of a fresh Agent for one trial; the runner creates the Agent. */
  agent: (context: EvalAgentContext) => AgentOptions<unknown> | Promise<AgentOptions<unknown>>;
  /** The cases, or a path to a `.jsonl` / `.json` file of them, relative to the eval file. */
  cases: EvalCase[] | string;
  scorers: Scorer[];
  /** Trials per case. @default 1 */
  trials?: number;
  /** Trials in flight at once. @default 4 */
  concurrency?: number;
  /** Stop starting trials once this much is spent (agent and judge), in USD. */
  budgetUsd?: number;
  /** The pass rate a case needs over its trials, in [0, 1]. @default 1 */
  threshold?: number;
}

/** A checked eval definition (from {@link defineEval}). */
export interface EvalDefinition
  extends Required<Pick<EvalDefinitionInput, "name" | "agent" | "cases" | "scorers">> {
  readonly kind: "agent-lattice-eval";
  trials: number;
  concurrency: number;
  budgetUsd?: number;
  threshold: number;
}
