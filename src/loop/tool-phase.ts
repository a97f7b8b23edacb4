/**
 * Steps 4 and 5 of the loop: the calls of one assistant message are answered — refused when the
 * response was truncated, handled as a structured-output submission, or run as a batch — and their
 * results enter history as one user message, handed over as a `user` message.
 * @module
 */
import { currentCheckpoint } from "../history/checkpoints";
import { errorResultsFor } from "../history/dangling";
import type { ToolStepsByCall } from "../history/tool-steps";
import type { ToolPattern } from "../hooks/permissions";
import type { ApprovalDecision } from "../messages/approvals";
import type {
  AssistantModelMessage,
  GuardrailRecord,
  HandoffRecord,
  ToolResultBlock,
  ToolUseBlock,
  UserModelMessage,
} from "../messages/types";
import { isPromiseLike } from "../shared/maybe-async";
import { anyBatchMayPause, batchMayPause } from "../tool-calls/may-pause";
import { StreamedToolCalls } from "../tool-calls/streamed-tool-calls";
import { type RunOne, runToolBatch } from "../tool-calls/tool-batch";
import { runToolCallNow } from "../tool-calls/tool-call";
import type { ToolRuntime } from "../tool-calls/tool-runtime";
import { SUBMIT_OUTPUT_TOOL_NAME } from "../tools/submit-output";
import { runGatedBatch } from "./approvals/approval-gate";
import type { ResumedBatch } from "./approvals/child-pause";
import { recordPause } from "./approvals/record-pause";
import {
  batchResults,
  notRerun,
  resultsMessage,
  type ToolResults,
  truncatedCallResult,
} from "./batch-results";
import { toolResultCompactor } from "./compaction/compact-tool-result";
import { READY, type StepResult } from "./decide-next";
import type { Ending } from "./ending";
import { toolGuardrails, trippedResults } from "./guardrails/tool-guardrails";
import { withdrawTurn } from "./guardrails/withdraw-turn";
import { handOver, handoffOf } from "./handoff-step";
import type { StreamObserver } from "./model-call/call-model";
import { recordAndHandOver, recordInPlaceOf } from "./record-and-hand-over";
import { agentToolContext } from "./state/agent-tool-context";
import type { LoopContext } from "./state/loop-context";
import type { QueryState } from "./state/query-state";
import { BatchStepJournal, type JournalledSteps } from "./step-journal";
import { submitOutput } from "./submit-output";

/** The tool calls of one query's turns; the tool runtime is built on the first batch and reused. */
export class ToolPhase<T> {
  private runtime: ToolRuntime | undefined;
  /** The calls started while the current response streams (streaming tool execution), if any may. */
  private streamed: StreamedToolCalls | undefined;
  /** Where the steps of the next batch's calls are recorded (`ToolContext.step`). */
  private journal: BatchStepJournal | undefined;

  constructor(
    private readonly loop: LoopContext<T>,
    private readonly query: QueryState,
  ) {}

  /**
   * Steps 4 and 5: answers every call of `response` — tool-call notices (hook errors, summaries)
   * go to the channel. At once when the batch answered at once (see `runToolBatch`).
   */
  private run(
    response: AssistantModelMessage,
    calls: ToolUseBlock[],
    decisions: ReadonlyMap<string, ApprovalDecision> | undefined,
    resumed: ResumedBatch | undefined,
  ): ToolResults<T> | Promise<ToolResults<T>> {
    const streamed = this.streamed;
    this.streamed = undefined;
    (this.journal ??= this.newJournal()).open();
    const { submitTool } = this.loop.config.modelSettings;
    const submits = submitTool !== undefined && calls.some((call) => call.name === SUBMIT_OUTPUT_TOOL_NAME);
    if (response.stop_reason === "max_tokens" || submits) streamed?.discard();
    if (response.stop_reason === "max_tokens") return { blocks: calls.map(truncatedCallResult) };
    if (submits) return submitOutput(submitTool, calls, this.query.signals.tools);
    const runtime = this.preparedRuntime();
    const withOutputSchema = submitTool !== undefined;
    const { toolConcurrency } = this.loop.config.limits;
    if (decisions || batchMayPause(calls, runtime)) {
      streamed?.discard(); // none started: a batch that may ask never starts calls early
      const gated = decisions ? { ...runtime, decisions } : runtime;
      // A batch that is not resumed records that none of its calls started while they are cleared.
      const history = decisions ? undefined : this.loop.conversation.history;
      return runGatedBatch(calls, gated, toolConcurrency, { history, resumed }).then((batch) =>
        batch.kind === "paused"
          ? { blocks: [], paused: { pending: batch.pending } }
          : batchResults(calls, batch.outcomes, withOutputSchema, decisions),
      );
    }
    const outcomes = runToolBatch(calls, runtime, toolConcurrency, takenOver(streamed, calls));
    return isPromiseLike(outcomes)
      ? outcomes.then((settled) => batchResults(calls, settled, withOutputSchema))
      : batchResults(calls, outcomes, withOutputSchema);
  }

  /**
   * Streaming tool execution for the next model request: what starts its read-only calls as their
   * blocks complete — undefined when it is off, or when a batch of this agent could pause for
   * approval (a call of one of its tools could ask, `tool-calls/may-pause.ts`: such a batch clears
   * every call before any runs, so none may start early), or summarises results
   * (`compactToolResults`: a summary is a model request of its own). A response of the request before that was
   * not run (an overflow) has its started calls discarded.
   */
  streamCalls(): StreamObserver | undefined {
    this.discardStreamed();
    if (!this.loop.config.limits.streamingToolExecution) return undefined;
    // Skill grants only widen `allowedTools`, which matters with canUseTool alone: no early start then.
    const runtime = (this.runtime ??= this.buildRuntime());
    if (anyBatchMayPause(runtime)) return undefined;
    // A result summary is a model request with notices of its own: it runs in the batch, never early.
    if (runtime.compactResult) return undefined;
    this.newJournal();
    const streamed = new StreamedToolCalls(runtime, this.loop.config.limits.toolConcurrency);
    this.streamed = streamed;
    return this.loop.config.modelSettings.submitTool ? cancelledAtSubmission(streamed) : streamed;
  }

  /** The calls started from a response that is not run are cancelled (its query ended, or it overflowed). */
  discardStreamed(): void {
    this.streamed?.discard();
    this.streamed = undefined;
  }

  /** The runtime, with the tools the skills used since the last batch granted (`allowed-tools`). */
  private preparedRuntime(): ToolRuntime {
    const runtime = (this.runtime ??= this.buildRuntime());
    runtime.allowedTools = withGranted(
      this.loop.config.permissions.allowedTools,
      this.loop.conversation.skillGrantedTools(),
    );
    return runtime;
  }

  /**
   * Steps 4 and 5: runs the calls of `response`, then records their results and hands them over —
   * or, when a call needs approval, records the pause and ends the query `requires_approval`.
   * `decisions` are those of a resumed batch (and `resumed` what it carries over from a pause
   * inside a subagent). At once when nothing waits: a batch that answered at once, with no step
   * recorded, no pause and no tripped guardrail, recorded with no store to write, costs no tick.
   */
  answer(
    response: AssistantModelMessage,
    calls: ToolUseBlock[],
    decisions?: ReadonlyMap<string, ApprovalDecision>,
    resumed?: ResumedBatch,
  ): StepResult<T> | Promise<StepResult<T>> {
    const running = this.run(response, calls, decisions, resumed);
    if (isPromiseLike(running)) return running.then((results) => this.settle(calls, results));
    return this.settle(calls, running);
  }

  /** {@link answer} once the batch settled: at once unless a step journal, a pause or a tripwire waits. */
  private settle(calls: ToolUseBlock[], results: ToolResults<T>): StepResult<T> | Promise<StepResult<T>> {
    const closing = this.journal?.close();
    this.journal = undefined;
    if (closing || results.paused || this.runtime?.guardrails?.trip)
      return this.settleSlowly(calls, results, closing);
    return this.recordResults(calls, results);
  }

  /** {@link settle} when something waits: the journal's records written, a pause recorded, a turn withdrawn. */
  private async settleSlowly(
    calls: ToolUseBlock[],
    results: ToolResults<T>,
    closing: Promise<JournalledSteps | undefined> | undefined,
  ): Promise<StepResult<T>> {
    const journalled = closing && (await closing);
    const { history } = this.loop.conversation;
    // A tool guardrail tripped: the batch's results are recorded (the calls it kept from running
    // answered so, a pause included), then the turn is withdrawn and the query ends.
    const tripped = this.runtime?.guardrails?.trip;
    if (results.paused && !tripped) {
      // The calls that finished keep their results in the pause's marker: their step records go.
      if (journalled) await history.replaceFrom(journalled.from, []);
      return recordPause(this.loop, this.query, results.paused);
    }
    if (!tripped && !journalled) return this.recordResults(calls, results);
    const content = tripped
      ? (trippedResults(calls, results.paused ? undefined : results.blocks).content as ToolResultBlock[])
      : results.blocks;
    const handoff = tripped ? undefined : handoffOf(this.loop, calls, results.blocks);
    const message = resultsMessage(content, results.durations, handoff, this.takeVerdict());
    if (journalled) {
      // The results take the place of the step records; the steps stay in their meta.
      message.meta = { ...message.meta, tool_steps: journalled.steps };
      await recordInPlaceOf(this.loop, this.query, journalled.from, message);
    } else await recordAndHandOver(this.loop, this.query, message);
    if (tripped) return { kind: "ended", ending: await withdrawTurn(this.loop, this.query, tripped) };
    return this.afterRecorded(results, handoff);
  }

  /**
   * Records the results of a batch that ran to its end and hands them over: at once without a
   * store. Their `meta`: the calls' durations by the loop's clock (keys: the calls' ids) — vouched
   * for, so history does not walk it, until a handoff or a guardrail's verdict joins them.
   */
  private recordResults(
    calls: ToolUseBlock[],
    results: ToolResults<T>,
  ): StepResult<T> | Promise<StepResult<T>> {
    const handoff = handoffOf(this.loop, calls, results.blocks);
    const verdict = this.takeVerdict();
    const message = resultsMessage(results.blocks, results.durations, handoff, verdict);
    const loopMeta = handoff || verdict ? undefined : message.meta;
    const saving = recordAndHandOver(this.loop, this.query, message, loopMeta);
    if (saving) return saving.then(() => this.afterRecorded(results, handoff));
    return this.afterRecorded(results, handoff);
  }

  /** The first verdict a guardrail left about this batch, taken (the others go with it). */
  private takeVerdict(): GuardrailRecord | undefined {
    const guard = this.runtime?.guardrails;
    if (!guard || guard.verdicts.length === 0) return undefined;
    const verdict = guard.verdicts[0];
    guard.verdicts.length = 0;
    return verdict;
  }

  /** Once the results are recorded: a handoff passes control; the batch's ending, if any, ends the query. */
  private afterRecorded(results: ToolResults<T>, handoff: HandoffRecord | undefined): StepResult<T> {
    if (handoff) {
      handOver(this.loop, this.query, handoff);
      this.runtime = undefined; // the next batch runs with the specialist's tools, hooks and settings
    }
    return results.ending ? { kind: "ended", ending: results.ending } : READY;
  }

  /**
   * Runs `calls` again after a crash (the calls that were running and had recorded steps), each
   * with the input its first run ran with and its recorded steps replayed: their results, and the
   * steps of each call (the replayed ones first). The records of the steps run now follow the last
   * message of history until the caller writes the results in their place.
   */
  async rerun(
    calls: ToolUseBlock[],
    inputs: ReadonlyMap<string, unknown>,
    replayed: ToolStepsByCall,
  ): Promise<{ blocks: ToolResultBlock[]; steps: ToolStepsByCall }> {
    const runtime = this.preparedRuntime();
    const journal = new BatchStepJournal(this.loop.conversation.history, replayed);
    journal.open();
    // The calls ran before: they passed every check. They run again as approved, with the input they ran with.
    const decisions = new Map<string, ApprovalDecision>();
    for (const call of calls)
      decisions.set(
        call.id,
        inputs.has(call.id) ? { approved: true, updatedInput: inputs.get(call.id) } : { approved: true },
      );
    const outcomes = await runToolBatch(
      calls,
      { ...runtime, decisions, journal },
      this.loop.config.limits.toolConcurrency,
    );
    const journalled = await journal.close();
    const blocks = outcomes.map((outcome, index) =>
      outcome.kind === "result" ? outcome.block : notRerun(calls[index]!),
    );
    return { blocks, steps: journalled?.steps ?? replayed };
  }

  /** A fresh journal for the next batch, on the runtime its calls run with. */
  private newJournal(): BatchStepJournal {
    const journal = new BatchStepJournal(this.loop.conversation.history);
    this.journal = journal;
    (this.runtime ??= this.buildRuntime()).journal = journal;
    return journal;
  }

  /** Answers the calls of a response that went over the budget without running them; the query ends. */
  async refuse(calls: ToolUseBlock[], ending: Ending<T>): Promise<StepResult<T>> {
    this.discardStreamed();
    const refused = errorResultsFor(calls, notRunOverBudget) as UserModelMessage; // a user message
    await recordAndHandOver(this.loop, this.query, refused);
    return { kind: "ended", ending };
  }

  /** Whether a call of the batch emits messages while it runs (a subagent): then they go live. */
  emitsLive(calls: readonly ToolUseBlock[]): boolean {
    const tools = this.loop.conversation.tools.byName;
    for (const call of calls) if (tools.get(call.name)?.runAgentCall) return true;
    return false;
  }

  private buildRuntime(): ToolRuntime {
    const { loop, query } = this;
    const { permissions } = loop.config;
    return {
      tools: loop.conversation.tools.byName, // a live view: tools added later (addTools, MCP refresh) are seen
      hooks: loop.config.hooks,
      canUseTool: permissions.canUseTool,
      permissionMode: permissions.mode,
      allowedTools: permissions.allowedTools,
      disallowedTools: permissions.disallowedTools,
      toolTimeoutMs: loop.config.deadlines.toolTimeoutMs,
      signal: query.signals.tools,
      signalAborted: () => query.signals.toolsAborted,
      telemetry: loop.conversation.telemetry,
      parentSpan: query.span,
      secrets: loop.config.secrets,
      emit: query.outgoing.emit,
      denials: query.denials,
      compactResult: toolResultCompactor(loop, query),
      agent: agentToolContext(loop, query),
      now: loop.config.clock.now,
      checkpointId: query.checkpointId ?? currentCheckpoint(loop.conversation.history.messages),
      guardrails: toolGuardrails(loop, query),
    };
  }
}

function notRunOverBudget(call: ToolUseBlock): string {
  return `The tool "${call.name}" was not run: the query went over maxBudgetUsd before it ran.`;
}

/** How a batch runs each call: a call started while the response streamed is taken over, not run again. */
function takenOver(
  streamed: StreamedToolCalls | undefined,
  calls: readonly ToolUseBlock[],
): RunOne | undefined {
  if (!streamed) return undefined;
  const started = streamed.takeOver(calls);
  if (started.size === 0) return undefined;
  return (call, runtime) => {
    const outcome = started.get(call.id);
    return outcome ?? runToolCallNow(call, runtime);
  };
}

/**
 * `streamed`, cancelled as soon as the response starts a `submit_output` call: such a response is
 * never run as a batch (a submission is answered alone), so what started early is cancelled at
 * once and nothing more starts — until an attempt that failed is retried.
 */
function cancelledAtSubmission(streamed: StreamedToolCalls): StreamObserver {
  let submitted = false;
  return {
    observe(event) {
      if (submitted) return;
      submitted = event.type === "content_block_start" && isSubmission(event.content_block);
      if (submitted) streamed.discard();
      else streamed.observe(event);
    },
    discard() {
      submitted = false;
      streamed.discard();
    },
  };
}

function isSubmission(block: { type: string; name?: string }): boolean {
  return block.type === "tool_use" && block.name === SUBMIT_OUTPUT_TOOL_NAME;
}

/** The agent's `allowedTools` with the tools the skills in use pre-approve. */
function withGranted(
  allowed: readonly ToolPattern[] | undefined,
  granted: readonly string[],
): readonly ToolPattern[] | undefined {
  return granted.length === 0 ? allowed : [...(allowed ?? []), ...granted];
}
