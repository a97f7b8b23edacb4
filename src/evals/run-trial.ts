/**
 * One trial of one case: a fresh workspace, a fresh Agent over the trial's model connection, the
 * case's prompts in order, then every scorer. Whatever happens, the trial ends as a record.
 * @module
 */
import {
  type AgentOptions,
  createAgent,
  type HistoryStore,
  type ModelMessage,
  type SDKResultMessage,
} from "../index";
import { type Cassette, cassettePath, readCassette, writeCassette } from "./cassette";
import { type EvalMode, TrialConnection } from "./model-connection";
import { runScorer, type ScoreRecord } from "./run-scorer";
import { toolCallsOf } from "./tool-calls-of";
import { startTrialSpan, type TrialSpan } from "./trial-span";
import type { EvalCase, EvalDefinition, EvalRun } from "./types";
import { createTrialWorkspace, type TrialWorkspace } from "./workspace";

/** How one trial ended. */
export interface TrialRecord {
  caseId: string;
  trial: number;
  /** `passed`: every scorer passed; `failed`: one did not; `error`: the trial could not run or replay failed; `interrupted`: stopped by Ctrl-C / abort. */
  status: "passed" | "failed" | "error" | "interrupted";
  scores: ScoreRecord[];
  /** The agent's cost, in USD. */
  costUsd: number;
  /** The scorers' own model cost (a judge's), in USD. */
  judgeCostUsd: number;
  latencyMs: number;
  turns: number;
  /** The result subtype of the last prompt (`success`, `error_max_turns` …), when one ran. */
  resultSubtype?: string;
  /** The agent's final text (its first 2,000 characters). */
  output?: string;
  /** Why the trial is `error` or `interrupted`. */
  error?: string;
  /** The conversation id in the results store, when one is kept. */
  conversationId?: string;
}

/** What a trial needs from its run. */
export interface TrialSetup {
  definition: EvalDefinition;
  evalCase: EvalCase;
  trial: number;
  baseDir: string;
  mode: EvalMode;
  cassettes: string;
  signal: AbortSignal;
  /** The store for this trial's conversation, when results are kept. */
  historyStore?: (conversationId: string) => HistoryStore | Promise<HistoryStore>;
  /** The id the trial's conversation is stored under. */
  conversationId: string;
}

const OUTPUT_KEPT = 2_000;

/** Runs one trial; never throws. */
export async function runTrial(setup: TrialSetup): Promise<TrialRecord> {
  const record: TrialRecord = {
    caseId: setup.evalCase.id,
    trial: setup.trial,
    status: "error",
    scores: [],
    costUsd: 0,
    judgeCostUsd: 0,
    latencyMs: 0,
    turns: 0,
  };
  let workspace: TrialWorkspace | undefined;
  try {
    workspace = await createTrialWorkspace(setup.evalCase, setup.baseDir);
    await runInWorkspace(setup, record, workspace?.path);
  } catch (error) {
    record.status = setup.signal.aborted ? "interrupted" : "error";
    record.error = error instanceof Error ? error.message : String(error);
  } finally {
    await workspace?.remove();
  }
  return record;
}

async function runInWorkspace(
  setup: TrialSetup,
  record: TrialRecord,
  workspace: string | undefined,
): Promise<void> {
  const { definition, evalCase, trial, mode } = setup;
  const path = cassettePath(setup.cassettes, evalCase.id, trial);
  const cassette: Cassette | undefined = mode === "replay" ? await readCassette(path) : undefined;
  const options = await definition.agent({ caseId: evalCase.id, trial, ...(workspace && { workspace }) });
  const secrets = [options.apiKey, process.env.ANTHROPIC_API_KEY].filter(
    (secret): secret is string => !!secret,
  );
  const connection = new TrialConnection(mode, workspace, secrets, cassette);
  const client = connection.connect("agent", options.client, options);
  const { apiKey: _key, baseURL: _url, ...rest } = options;
  const historyStore = setup.historyStore
    ? await setup.historyStore(setup.conversationId)
    : options.historyStore;
  const agentOptions: AgentOptions<unknown> = { ...rest, client, ...(historyStore && { historyStore }) };
  if (setup.historyStore) record.conversationId = setup.conversationId;
  const span = await startTrialSpan(options.telemetry, definition.name, evalCase.id, trial);
  try {
    await converseAndScore(setup, record, { agentOptions, workspace, connection, path, span });
  } finally {
    span?.finish(record);
  }
}

async function converseAndScore(
  setup: TrialSetup,
  record: TrialRecord,
  parts: {
    agentOptions: AgentOptions<unknown>;
    workspace: string | undefined;
    connection: TrialConnection;
    path: string;
    span: TrialSpan | undefined;
  },
): Promise<void> {
  const { definition, evalCase, trial, mode } = setup;
  const { agentOptions, workspace, connection, path, span } = parts;
  const talk = () => converse(agentOptions, evalCase, setup.signal);
  const conversation = span ? await span.run(talk) : await talk();
  Object.assign(record, {
    costUsd: conversation.costUsd,
    latencyMs: conversation.latencyMs,
    turns: conversation.turns,
    resultSubtype: conversation.result.subtype,
    output: conversation.result.result.slice(0, OUTPUT_KEPT),
  });
  if (setup.signal.aborted) {
    record.status = "interrupted";
    record.error = "interrupted before the case's prompts were all answered";
    return;
  }
  const run = evalRunOf(setup, conversation, workspace, connection, record);
  for (const [index, scorer] of definition.scorers.entries())
    record.scores.push(await runScorer(scorer, index, run));
  connection.checkAllUsed();
  const failure = connection.failure?.message ?? executionError(conversation.result);
  if (failure !== undefined) record.error = failure;
  record.status =
    failure !== undefined ? "error" : record.scores.every((score) => score.pass) ? "passed" : "failed";
  if (mode === "record")
    await writeCassette(path, {
      format: "agent-lattice-cassette",
      version: 1,
      eval: definition.name,
      case: evalCase.id,
      trial,
      interactions: connection.recorded,
    });
}

interface Conversation {
  messages: ModelMessage[];
  result: SDKResultMessage<unknown>;
  costUsd: number;
  latencyMs: number;
  turns: number;
}

async function converse(
  options: AgentOptions<unknown>,
  evalCase: EvalCase,
  signal: AbortSignal,
): Promise<Conversation> {
  const agent = createAgent(options);
  try {
    const inputs = typeof evalCase.input === "string" ? [evalCase.input] : evalCase.input;
    let costUsd = 0;
    let turns = 0;
    let result: SDKResultMessage<unknown> | undefined;
    const started = performance.now();
    for (const input of inputs) {
      result = await agent.prompt(input, { signal });
      costUsd += result.total_cost_usd;
      turns += result.num_turns;
      if (result.is_error || signal.aborted) break;
    }
    const latencyMs = Math.round(performance.now() - started);
    return { messages: await agent.getHistory(), result: result!, costUsd, latencyMs, turns };
  } finally {
    await agent.close();
  }
}

function executionError(result: SDKResultMessage<unknown>): string | undefined {
  if (result.subtype !== "error_during_execution") return undefined;
  return `the agent failed: ${result.error?.message ?? "error_during_execution"}`;
}

function evalRunOf(
  setup: TrialSetup,
  conversation: Conversation,
  workspace: string | undefined,
  connection: TrialConnection,
  record: TrialRecord,
): EvalRun {
  return {
    case: setup.evalCase,
    trial: setup.trial,
    messages: conversation.messages,
    toolCalls: toolCallsOf(conversation.messages),
    result: conversation.result,
    output: conversation.result.result,
    costUsd: conversation.costUsd,
    latencyMs: conversation.latencyMs,
    turns: conversation.turns,
    ...(workspace && { workspace }),
    modelConnection: (client, credentials) => connection.connect("judge", client, credentials),
    addJudgeCost: (usd) => {
      if (Number.isFinite(usd) && usd > 0) record.judgeCostUsd += usd;
    },
  };
}
