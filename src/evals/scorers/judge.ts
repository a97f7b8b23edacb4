/**
 * `judge`: an LLM judge. The transcript and the rubric go to any Anthropic-compatible model (another
 * provider than the agent's is fine) through a small Agent of its own, which must answer with a
 * structured verdict (`submit_output` with `{ score, pass?, reason }`): transient provider errors are
 * retried as any agent's, an invalid verdict is sent back to the model to fix (up to `maxTurns`), and
 * a judge that still gives none fails the scorer with a clear error. Its cost is the trial's judge cost.
 * @module
 */
import { z } from "zod";
import { createAgent, type ModelClient, type RetryOptions } from "../../index";
import type { EvalRun, ScoreResult, Scorer } from "../types";
import { transcriptOf } from "./transcript";

/** The judge's model when none is given. */
export const DEFAULT_JUDGE_MODEL = "claude-sonnet-4-6";

/** Options of {@link judge}. */
export interface JudgeOptions {
  /** The judge's model. @default "claude-sonnet-4-6" */
  model?: string;
  /** The judge's client; without it the built-in client over `apiKey` / `baseURL` (or the environment). */
  client?: ModelClient;
  apiKey?: string;
  baseURL?: string;
  /** What a good answer is, in the words a reviewer would use; a function writes it per case. */
  rubric: string | ((run: EvalRun) => string);
  /** The score needed to pass, in [0, 1]. @default the judge's own `pass`, else 0.5 */
  pass?: number;
  /** Model requests the judge may make (an invalid verdict is returned to it to fix). @default 3 */
  maxTurns?: number;
  /** Retries of transient provider errors, as an agent's `retry`. */
  retry?: RetryOptions;
}

const VERDICT = z.object({
  score: z
    .number()
    .min(0)
    .max(1)
    .describe("How well the agent met the rubric, from 0 (not at all) to 1 (fully)."),
  pass: z.boolean().optional().describe("Whether the agent's work is acceptable under the rubric."),
  reason: z.string().min(1).describe("One to three sentences a person can check: what was good or missing."),
});

const JUDGE_SYSTEM_PROMPT =
  "You are an impartial evaluator of an AI agent's work. Read the rubric and the transcript, then " +
  "give your verdict with the submit_output tool: a score from 0 to 1, whether it passes, and a short reason. " +
  "Judge only what the transcript shows.";

/**
 * A scorer asking a model to grade the run against `rubric`.
 *
 * @example
 * judge({ model: "deepseek-v4-flash", baseURL: "https://api.deepseek.com/anthropic", rubric: "Says which file changed." })
 */
export function judge(options: JudgeOptions): Scorer {
  const { rubric } = options ?? {};
  if (typeof rubric !== "function" && (typeof rubric !== "string" || rubric.trim() === ""))
    throw new TypeError("judge: `rubric` must be a non-empty string or a function of the run.");
  if (options.pass !== undefined && !(options.pass >= 0 && options.pass <= 1))
    throw new TypeError("judge: `pass` must be a number from 0 to 1.");
  const scorer = async (run: EvalRun): Promise<ScoreResult> => {
    const agent = createAgent({
      model: options.model ?? DEFAULT_JUDGE_MODEL,
      client: run.modelConnection(options.client, { apiKey: options.apiKey, baseURL: options.baseURL }),
      systemPrompt: JUDGE_SYSTEM_PROMPT,
      outputSchema: VERDICT,
      maxTurns: options.maxTurns ?? 3,
      ...(options.retry && { retry: options.retry }),
    });
    try {
      const result = await agent.prompt(
        `<rubric>\n${typeof rubric === "function" ? rubric(run) : rubric}\n</rubric>\n\n<transcript>\n${transcriptOf(run)}\n</transcript>`,
      );
      run.addJudgeCost(result.total_cost_usd);
      const verdict = result.structuredResult as z.infer<typeof VERDICT> | undefined;
      if (result.subtype !== "success" || !verdict)
        throw new Error(
          `the judge gave no valid verdict (${result.subtype}${result.error ? `: ${result.error.message}` : ""})`,
        );
      const pass =
        options.pass !== undefined ? verdict.score >= options.pass : (verdict.pass ?? verdict.score >= 0.5);
      return { score: verdict.score, pass, reason: verdict.reason };
    } finally {
      await agent.close();
    }
  };
  return Object.defineProperty(scorer, "name", { value: "judge" });
}
