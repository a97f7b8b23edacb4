/**
 * The agent loop. For each prompt: add it as a user message, call the model, emit the response,
 * run its tool calls, add their results, and repeat until the model stops calling tools — then
 * emit the result. Every way out is an {@link Ending} mapped to a result subtype in one place.
 * @module
 */
import type { AgentCore } from "../agent/agent-core";
import { isContextWindowExceeded } from "../compaction/overflow";
import { totalInputTokens } from "../cost/usage";
import {
  AbortError,
  BudgetExceededError,
  ContextWindowExceededError,
  MaxTurnsError,
  MissingOutputError,
  PromptBlockedError,
} from "../errors";
import { closeDanglingToolUses, errorResultsFor, unansweredCall } from "../history/dangling";
import { continueWithOverride, promptOverride, refusalMessage } from "../hooks/overrides";
import { runHookChain } from "../hooks/run-hooks";
import type { StopOutput, UserPromptSubmitOutput } from "../hooks/types";
import { isBlankText } from "../messages/blank-text";
import { assertPrompt, type PromptInput } from "../messages/prompt-input";
import type { ResultSubtype, SDKMessage, SDKResultMessage } from "../messages/sdk-messages";
import type { AssistantModelMessage, ModelMessage, ToolUseBlock } from "../messages/types";
import { isPromiseLike } from "../shared/maybe-async";
import { asSentence } from "../shared/sentence";
import { compactHistory } from "./compaction-step";
import { drain, type LiveMessages, MESSAGES_WAITING } from "./live-messages";
import { callModel, cancelledOutcome, type ModelOutcome, unfinishedOf } from "./model-call";
import { parseOutputFormat } from "./output-format";
import type { QueryRun } from "./query-run";
import { runToolPhase } from "./tool-phase";
import { recordUsage } from "./usage-step";

/** How a query ends. */
export interface Ending<T> {
  subtype: ResultSubtype;
  error?: Error;
  structured?: { value: T };
  /** Overrides the result text (an `endTurn` tool's content, a submission). */
  result?: string;
}

/**
 * How the agent brackets one cycle: `prepare` before anything (lazy store load, MCP connect),
 * `settle` once the result is built — everything is recorded, so the conversation is free for the
 * next query even before the consumer has taken the result — and `finish` always, told whether the
 * cycle completed (false: the consumer left early or it threw).
 */
export interface CycleLifecycle {
  prepare(): Promise<void>;
  settle(): void;
  finish(completed: boolean): Promise<void>;
}

/**
 * Runs one prompt cycle and yields its messages, the result last. The turns run in this one
 * generator — not in a nested one — so each message a turn yields costs a single hop to the
 * consumer; helpers that yield (compaction, continuations) are off the per-turn path.
 */
export async function* runQuery<T>(
  core: AgentCore<T>,
  run: QueryRun,
  prompt: PromptInput,
  lifecycle: CycleLifecycle,
): AsyncGenerator<SDKMessage<T>, SDKResultMessage<T>> {
  let completed = false;
  try {
    assertPrompt(prompt); // a caller's mistake: thrown before the guard, the store or history is touched
    await lifecycle.prepare();
    run.span = core.telemetry.query(core.model);
    // `init` is always the first message; store failures of the load (or of earlier background
    // writes) follow it.
    yield initMessage(core);
    for (const notice of core.history.takeNotices()) yield notice;
    // A signal aborted (or an interrupt, e.g. close()) before the query starts ends it at once,
    // leaving history untouched.
    let ending = run.aborted
      ? abortEnding<T>(run)
      : run.interrupted
        ? ({ subtype: "interrupted" } as const)
        : yield* submitPrompt(core, run, prompt);
    const live = run.live as LiveMessages<SDKMessage<T>>;
    while (ending === undefined) {
      ending = checkBeforeTurn(core, run);
      if (ending) break;
      if (shouldAutoCompact(core)) {
        ending = yield* autoCompact(core, run);
        continue; // re-check abort and limits before the request
      }
      run.turns += 1;
      // The model call, yielding its live messages (stream events, retry notices) as they arrive.
      const calling = callModel(core, run, requestBase(core, run), mainCallSettings(core, run), live.emit);
      let outcome = await live.settle(calling);
      while (outcome === MESSAGES_WAITING) {
        for (const streamed of live.take()) yield streamed;
        outcome = await live.settle(calling);
      }
      if (outcome.kind !== "response") {
        keepUnfinishedText(run, outcome);
        ending = yield* endAfterFailedCall(core, run, outcome);
        continue; // undefined after a recovery: the same turn is retried
      }
      const message = withoutBlankText(outcome.message);
      recordUsage(core, run, outcome.model, message.usage, run.collect);
      if (hasNotices(core, run)) for (const notice of takeNotices<T>(core, run)) yield notice;
      if (message.usage) core.lastInputTokens = totalInputTokens(message.usage);
      run.stopReason = message.stop_reason ?? null;
      if (isContextWindowExceeded(message)) {
        // The response is unusable and never enters history.
        ending = yield* endAfterOverflowResponse(core, run);
        continue;
      }
      // The API refuses an empty message anywhere but last (blank text was dropped above): recorded
      // once, it would fail every later request of the conversation, so it is not recorded nor yielded.
      if (message.content.length > 0) {
        const writingResponse = core.history.append(message);
        if (writingResponse) await writingResponse;
        if (hasNotices(core, run)) for (const notice of takeNotices<T>(core, run)) yield notice;
        yield { type: "assistant", message };
      }
      updateResultText(run, message);

      const calls = toolUsesOf(message);
      if (overBudget(core, run)) {
        ending = yield* endOverBudget(core, run, calls);
        break;
      }
      if (calls.length === 0) {
        const next = yield* finishOrContinue(core, run, message);
        if (next !== "continue") ending = next;
        continue;
      }
      // Tool-phase notices (hook errors, summaries) need no live delivery: they are yielded once
      // the batch's results are in history, so a consumer that stops on one loses no result.
      const phase = runToolPhase(core, run, message, calls, run.collect);
      const batch = isPromiseLike(phase) ? await phase : phase; // synchronous tools: no tick
      const results: ModelMessage = { role: "user", content: batch.blocks };
      const writingResults = core.history.append(results);
      if (writingResults) await writingResults;
      if (hasNotices(core, run)) for (const notice of takeNotices<T>(core, run)) yield notice;
      yield { type: "user", message: results };
      ending = batch.ending;
    }
    const result = buildResult(core, run, ending);
    recordResultOnSpan(run, result);
    completed = true;
    lifecycle.settle();
    yield result;
    return result;
  } catch (error) {
    run.span.fail(error);
    throw error;
  } finally {
    run.span.end();
    await lifecycle.finish(completed);
  }
}

function recordResultOnSpan<T>(run: QueryRun, result: SDKResultMessage<T>): void {
  run.span.set({
    "agent_lattice.result.subtype": result.subtype,
    "agent_lattice.num_turns": result.num_turns,
    "agent_lattice.cost_usd": result.total_cost_usd,
    "gen_ai.usage.input_tokens": result.usage.input_tokens,
    "gen_ai.usage.output_tokens": result.usage.output_tokens,
  });
  if (result.is_error) run.span.fail(result.error ?? new Error(result.subtype));
}

function abortEnding<T>(run: QueryRun): Ending<T> {
  return { subtype: "error_abort", error: new AbortError(run.userSignal.reason) };
}

/**
 * Compacts before a request whose context crossed the threshold. One attempt per turn: whether
 * it compacted, skipped (nothing to cut, or a preCompact hook) or failed, the trigger re-arms only
 * when the next response reports its usage. Returns an ending only when the query was cancelled.
 */
async function* autoCompact<T>(
  core: AgentCore<T>,
  run: QueryRun,
): AsyncGenerator<SDKMessage<T>, Ending<T> | undefined> {
  const compaction = yield* drain(run.live as LiveMessages<SDKMessage<T>>, (emit) =>
    compactHistory(core, run, "auto", emit),
  );
  if (compaction.kind === "cancelled") return endingForFailure(compaction.outcome);
  core.lastInputTokens = undefined;
  return undefined;
}

/** A model call that got no response: recover from an overflow once, or end the query. */
async function* endAfterFailedCall<T>(
  core: AgentCore<T>,
  run: QueryRun,
  outcome: Exclude<ModelOutcome, { kind: "response" }>,
): AsyncGenerator<SDKMessage<T>, Ending<T> | undefined> {
  if (outcome.kind === "failed" && outcome.promptTooLong) {
    const recovery = yield* recoverFromOverflow(core, run);
    if (recovery === "recovered") return undefined;
    if (recovery !== "unrecovered") return recovery;
  }
  return endingForFailure(outcome);
}

/** A response that says the context window overflowed: recover once, or end the query. */
async function* endAfterOverflowResponse<T>(
  core: AgentCore<T>,
  run: QueryRun,
): AsyncGenerator<SDKMessage<T>, Ending<T> | undefined> {
  const recovery = yield* recoverFromOverflow(core, run);
  if (recovery === "recovered") return undefined;
  if (recovery !== "unrecovered") return recovery;
  const advice = core.autoCompact
    ? "Compaction could not recover it (recovery runs once per query, and needs something left to summarise); start a new conversation or lower autoCompact.thresholdTokens."
    : undefined;
  return { subtype: "error_during_execution", error: new ContextWindowExceededError(advice) };
}

/** The query went over its budget with this response: its tool calls are answered, not run. */
async function* endOverBudget<T>(
  core: AgentCore<T>,
  run: QueryRun,
  calls: ToolUseBlock[],
): AsyncGenerator<SDKMessage<T>, Ending<T>> {
  if (calls.length > 0)
    yield* appendToHistory(
      core,
      errorResultsFor(
        calls,
        (call) => `The tool "${call.name}" was not run: the query went over maxBudgetUsd before it ran.`,
      ),
    );
  return budgetEnding(core, run);
}

/**
 * Runs `userPromptSubmit` hooks and adds the prompt to history; returns an ending when blocked, or
 * when the query was cancelled during the hooks (then nothing is recorded).
 */
async function* submitPrompt<T>(
  core: AgentCore<T>,
  run: QueryRun,
  prompt: PromptInput,
): AsyncGenerator<SDKMessage<T>, Ending<T> | undefined> {
  // Copies: history must not share objects with the caller, who may reuse or edit its blocks later.
  let content = typeof prompt === "string" ? prompt : structuredClone(prompt);
  let blockedMessage: string | undefined;
  const failure = await runHookChain({
    event: "userPromptSubmit",
    hooks: core.hooks?.userPromptSubmit,
    input: () => ({ prompt: content }),
    onOutput: (output: UserPromptSubmitOutput) => {
      if (output.updatedPrompt !== undefined) content = structuredClone(promptOverride(output.updatedPrompt));
      if (output.block) {
        blockedMessage = refusalMessage(output.message) ?? "A userPromptSubmit hook blocked the prompt.";
        return true;
      }
    },
    signal: run.modelSignal,
  });
  // A hook abandoned by a cancellation: the prompt is not recorded.
  if (failure && run.modelSignal.aborted) return cancelledEnding(run);
  if (failure) {
    // Fail closed: a prompt a policy hook could not check is not sent.
    yield { type: "system", subtype: "hook_error", hook: "userPromptSubmit", error: failure };
    return {
      subtype: "error_during_execution",
      error: new PromptBlockedError(`${asSentence(failure.message)} The prompt was not sent.`, {
        cause: failure,
      }),
    };
  }
  if (blockedMessage !== undefined)
    return { subtype: "error_during_execution", error: new PromptBlockedError(blockedMessage) };
  // Calls left without results (a history given to replaceHistory, or written by another program)
  // are answered first: the request would otherwise be refused.
  const unanswered = closeDanglingToolUses(core.history.messages, unansweredCall);
  if (unanswered) await core.history.append(unanswered);
  // The prompt enters history but is not yielded: `user` messages report what the loop fed back.
  await core.history.append({ role: "user", content });
  yield* core.history.takeNotices();
  return undefined;
}

function checkBeforeTurn<T>(core: AgentCore<T>, run: QueryRun): Ending<T> | undefined {
  if (run.aborted) return abortEnding(run);
  if (run.interrupted) return { subtype: "interrupted" };
  // A summary or compaction response may have crossed the budget: no further request is made.
  if (overBudget(core, run)) return budgetEnding(core, run);
  if (run.turns >= core.maxTurns)
    return { subtype: "error_max_turns", error: new MaxTurnsError(core.maxTurns) };
  return undefined;
}

function shouldAutoCompact<T>(core: AgentCore<T>): boolean {
  const settings = core.autoCompact;
  return (
    settings !== undefined &&
    !core.compactionDisabled &&
    core.lastInputTokens !== undefined &&
    core.lastInputTokens > settings.thresholdTokens
  );
}

/** Compacts once per query after an overflow; "unrecovered" means the original failure stands. */
async function* recoverFromOverflow<T>(
  core: AgentCore<T>,
  run: QueryRun,
): AsyncGenerator<SDKMessage<T>, "recovered" | "unrecovered" | Ending<T>> {
  if (!core.autoCompact || run.overflowRecoveryUsed) return "unrecovered";
  // The overflowing response itself may have spent the budget: no summarising request after it.
  if (overBudget(core, run)) return budgetEnding(core, run);
  run.overflowRecoveryUsed = true;
  const compaction = yield* drain(run.live as LiveMessages<SDKMessage<T>>, (emit) =>
    compactHistory(core, run, "overflow", emit),
  );
  if (compaction.kind === "cancelled") return endingForFailure(compaction.outcome);
  if (compaction.kind !== "compacted") return "unrecovered";
  run.turns -= 1; // the same turn is retried
  return "recovered";
}

/** The loop would end: continue a truncated text, a paused turn, or a stop hook's message; else finish. */
async function* finishOrContinue<T>(
  core: AgentCore<T>,
  run: QueryRun,
  message: AssistantModelMessage,
): AsyncGenerator<SDKMessage<T>, Ending<T> | "continue"> {
  if (message.stop_reason === "max_tokens" && run.continuations < core.maxTokensContinuations) {
    run.continuations += 1;
    run.joinNextText = true;
    yield { type: "system", subtype: "max_tokens_continuation", continuation: run.continuations };
    yield* appendToHistory(core, {
      role: "user",
      content:
        "Your previous response was cut off at the output limit. Continue exactly where it stopped, without repeating anything.",
    });
    return "continue";
  }
  if (message.stop_reason === "pause_turn") return "continue";
  let continueWith: string | undefined;
  const failure = await runHookChain({
    event: "stop",
    hooks: core.hooks?.stop,
    input: () => ({ result: run.resultText, stopReason: run.stopReason, numTurns: run.turns }),
    onOutput: (output: StopOutput) => {
      const message = continueWithOverride(output.continueWith);
      if (message) {
        continueWith = message;
        return true;
      }
    },
    signal: run.modelSignal,
  });
  // A stop hook abandoned by a cancellation cannot make the query a success (nor continue it).
  if (failure && run.modelSignal.aborted) return cancelledEnding(run);
  if (failure) yield { type: "system", subtype: "hook_error", hook: "stop", error: failure };
  if (continueWith !== undefined) {
    yield* appendToHistory(core, { role: "user", content: continueWith });
    return "continue";
  }
  if (core.submitTool) return { subtype: "error_missing_output", error: new MissingOutputError() };
  if (core.outputFormat) return parseOutputFormat<T>(core.outputFormat, run.resultText);
  return { subtype: "success" };
}

async function* appendToHistory<T>(
  core: AgentCore<T>,
  message: ModelMessage,
): AsyncGenerator<SDKMessage<T>, void> {
  await core.history.append(message);
  yield* core.history.takeNotices();
  yield message.role === "assistant" ? { type: "assistant", message } : { type: "user", message };
}

/**
 * The response as history may hold it: without blank text blocks (empty or whitespace only), which
 * the provider refuses when they are sent back. The client's message is not changed.
 */
function withoutBlankText(message: AssistantModelMessage): AssistantModelMessage {
  if (!message.content.some(isBlankText)) return message;
  return { ...message, content: message.content.filter((block) => !isBlankText(block)) };
}

function updateResultText(run: QueryRun, message: AssistantModelMessage): void {
  let text = "";
  for (const block of message.content) if (block.type === "text") text += block.text;
  run.resultText = run.joinNextText ? run.resultText + text : text;
  run.joinNextText = false;
  if (run.resultText !== "") run.partialText = run.resultText;
}

/** A main request cut off while streaming: its text so far is the latest text of the query. */
function keepUnfinishedText(run: QueryRun, outcome: ModelOutcome): void {
  const text = unfinishedOf(outcome)?.text;
  if (text) run.partialText = run.joinNextText ? run.resultText + text : text;
}

function toolUsesOf(message: AssistantModelMessage): ToolUseBlock[] {
  const calls: ToolUseBlock[] = [];
  for (const block of message.content) if (block.type === "tool_use") calls.push(block);
  return calls;
}

function budgetEnding<T>(core: AgentCore<T>, run: QueryRun): Ending<T> {
  return {
    subtype: "error_max_budget_usd",
    error: new BudgetExceededError(core.maxBudgetUsd!, run.ledger.totalCostUsd),
  };
}

function overBudget<T>(core: AgentCore<T>, run: QueryRun): boolean {
  return core.maxBudgetUsd !== undefined && run.ledger.isOverBudget(core.maxBudgetUsd);
}

/** The ending of a query cancelled outside a model request: by its signal, an interrupt, or its consumer. */
function cancelledEnding<T>(run: QueryRun): Ending<T> {
  return endingForFailure(cancelledOutcome(run));
}

function endingForFailure<T>(outcome: Exclude<ModelOutcome, { kind: "response" }>): Ending<T> {
  switch (outcome.kind) {
    case "aborted":
      return { subtype: "error_abort", error: new AbortError(outcome.reason) };
    case "interrupted":
      return { subtype: "interrupted" };
    case "timeout":
      return { subtype: "error_timeout", error: outcome.error };
    case "failed":
    case "hook_failed":
      return { subtype: "error_during_execution", error: outcome.error };
  }
}

/** Whether notices wait: collected by `run.collect` (pricing, tool phase) or from the store. */
function hasNotices<T>(core: AgentCore<T>, run: QueryRun): boolean {
  return run.notices.length > 0 || core.history.hasNotices();
}

/** The waiting notices in order — collected ones first, then the store's — leaving none. */
function takeNotices<T>(core: AgentCore<T>, run: QueryRun): SDKMessage<T>[] {
  const notices = run.notices.splice(0) as SDKMessage<T>[];
  for (const notice of core.history.takeNotices()) notices.push(notice);
  return notices;
}

/**
 * The fields of a main request, kept on the run and refreshed each turn rather than rebuilt
 * (model calls copy them into the request they send, so refreshing later changes nothing sent).
 */
function requestBase<T>(core: AgentCore<T>, run: QueryRun) {
  const base = (run.requestBase ??= {
    system: core.systemPrompt,
    messages: core.history.messages,
    tools: core.toolDefinitions(),
    maxTokens: core.maxTokens,
    outputFormat: core.outputFormat,
  });
  base.messages = core.history.messages; // replaced by compaction and replaceHistory
  base.tools = core.toolDefinitions(); // cached until the tool set changes
  return base;
}

function mainCallSettings<T>(core: AgentCore<T>, run: QueryRun) {
  const settings = (run.mainCallSettings ??= {
    model: core.model,
    fallbackModel: core.fallbackModel,
    timeoutMs: run.requestTimeoutMs,
    streamEvents: core.includePartialMessages,
    applyRequestHooks: true,
  });
  settings.model = core.model; // setModel() between turns
  return settings;
}

function initMessage<T>(core: AgentCore<T>): SDKMessage<T> {
  const tools = [...core.tools.keys()];
  if (core.submitTool) tools.push(core.submitTool.definition.name);
  const init: SDKMessage<T> = { type: "system", subtype: "init", model: core.model, tools };
  if (core.mcpStatuses) init.mcp_servers = core.mcpStatuses;
  return init;
}

function buildResult<T>(core: AgentCore<T>, run: QueryRun, ending: Ending<T>): SDKResultMessage<T> {
  const result: SDKResultMessage<T> = {
    type: "result",
    subtype: ending.subtype,
    is_error: ending.subtype !== "success" && ending.subtype !== "interrupted",
    result: ending.result ?? (ending.subtype === "success" ? run.resultText : run.partialText),
    usage: { ...run.ledger.usage },
    stop_reason: run.stopReason,
    num_turns: run.turns,
    total_cost_usd: run.ledger.totalCostUsd,
    model_usage: run.ledger.byModel,
    duration_ms: core.now() - run.startedAt,
    permission_denials: run.denials,
  };
  if (ending.structured) result.structuredResult = ending.structured.value;
  if (ending.error) result.error = ending.error;
  return result;
}
