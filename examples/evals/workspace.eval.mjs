/**
 * The example evals: an agent with the workspace tools (read, list, glob, grep, write, edit) over a
 * small project copied fresh for every trial, scored by its trajectory (toolCalls), its answer
 * (outputMatches), the files it leaves (filesMatch), a judge, and its turns.
 *
 *   agent-lattice eval examples/evals --replay --trials 3     # offline, from the committed cassettes
 *   node examples/evals/record.mjs                            # re-record against the bundled mock model
 *
 * EVAL_SYSTEM_PROMPT overrides the system prompt (the seeded regression: "Answer without tools.").
 */
import {
  defineEval,
  filesMatch,
  judge,
  maxTurns,
  noToolCall,
  outputMatches,
  toolCalls,
} from "agent-lattice/evals";
import { createWorkspaceTools } from "agent-lattice/tools";

const SYSTEM_PROMPT =
  process.env.EVAL_SYSTEM_PROMPT ??
  "You are a careful assistant working in a project folder. Use the tools to do what is asked.";

/** The agent under test: a fresh one per trial, on the trial's copy of the project. */
const agent = ({ workspace }) => ({
  model: "claude-sonnet-4-6",
  // Live and --record: the configured endpoint (record.mjs points it at the bundled mock model).
  // --replay needs neither: the runner answers from the cassettes.
  baseURL: process.env.ANTHROPIC_BASE_URL,
  apiKey: process.env.ANTHROPIC_API_KEY,
  systemPrompt: SYSTEM_PROMPT,
  tools: createWorkspaceTools({ root: workspace }),
  maxTurns: 8,
});

/** A judge on any Anthropic-compatible endpoint (JUDGE_BASE_URL, else the agent's). */
const answerJudge = judge({
  model: "claude-haiku-4-5",
  baseURL: process.env.JUDGE_BASE_URL ?? process.env.ANTHROPIC_BASE_URL,
  apiKey: process.env.JUDGE_API_KEY ?? process.env.ANTHROPIC_API_KEY,
  rubric: (run) =>
    `The answer reports what each step of the request did, accurately.\n- mentions "${run.case.expected?.mentions ?? run.case.expected?.output}"`,
});

export default [
  defineEval({
    name: "workspace-read",
    agent,
    cases: "read-cases.jsonl",
    scorers: [
      toolCalls(),
      outputMatches(),
      noToolCall(/^(write_file|edit_file|bash)$/),
      answerJudge,
      maxTurns(4),
    ],
    trials: 1,
    concurrency: 4,
  }),
  defineEval({
    name: "workspace-edit",
    agent,
    cases: "edit-cases.jsonl",
    scorers: [toolCalls(), filesMatch(), outputMatches(), answerJudge, maxTurns(6)],
    trials: 1,
    concurrency: 4,
  }),
];
