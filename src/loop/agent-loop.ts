/**
 * The agent loop. For each prompt: add it to history, call the model, emit the response, run its
 * tool calls, add their results, and repeat until the model stops calling tools — then emit the
 * result. Each step reports an {@link StepResult}; {@link decideNext} alone turns it into the next
 * step or an ending, and the query's {@link OutgoingMessages} alone carries messages to the consumer.
 * @module
 */
import { type ApprovalInput, isApprovalInput } from "../messages/approvals";
import { assertPrompt, type PromptInput } from "../messages/prompt-input";
import type { SDKMessage, SDKResultMessage } from "../messages/sdk-messages";
import { isPromiseLike } from "../shared/maybe-async";
import { addPrompt } from "./add-prompt";
import { resumeApprovals } from "./approvals/resume-approvals";
import { compactHistory } from "./compaction/compact-history";
import { decideNext, type NextStep, STARTED, type StepResult } from "./decide-next";
import { finishOrContinue } from "./finish-or-continue";
import { callRacingInputCheck } from "./guardrails/parallel-input";
import { MainRequest } from "./model-call/main-request";
import { initMessage, resultMessage } from "./query-messages";
import { recordResponse } from "./record-response";
import { rerunInterruptedCalls } from "./rerun-interrupted-calls";
import { PHASE_ENDED } from "./state/live-messages";
import type { LoopContext } from "./state/loop-context";
import type { OutgoingMessages } from "./state/outgoing-messages";
import type { QueryState } from "./state/query-state";
import { ToolPhase } from "./tool-phase";

/**
 * How the agent brackets one cycle: `prepare` before anything (lazy store load, MCP connect),
 * `release` once the result is built — everything is recorded, so the conversation is free for the
 * next query even before the consumer has taken the result — and `finish` always, told whether the
 * cycle completed (false: the consumer left early or it threw).
 */
export interface CycleLifecycle {
  /** Before anything: takes the guard if needed, loads the store, connects MCP. */
  prepare(): Promise<void>;
  /** The result is built: the conversation is free. */
  release(): void;
  /** Always, last; `completed` is false when the consumer left early or the loop threw. */
  finish(completed: boolean): Promise<void>;
}

/**
 * Runs one prompt cycle and yields its messages, the result last. The turns run in this one
 * generator, so each message a turn yields costs a single hop to the consumer. Every message but
 * `init` and the result comes from the query's channel: live while the model call or a compaction
 * runs, and at the hand-over before each decision — so a step never starts before the consumer has
 * taken what the step before it handed over.
 */
export async function* agentLoop<T>(
  loop: LoopContext<T>,
  query: QueryState,
  prompt: PromptInput | ApprovalInput,
  lifecycle: CycleLifecycle,
): AsyncGenerator<SDKMessage<T>, SDKResultMessage<T>> {
  let completed = false;
  let tools: ToolPhase<T> | undefined;
  try {
    if (!isApprovalInput(prompt)) assertPrompt(prompt); // a caller's mistake: thrown before the guard, the store or history is touched
    await lifecycle.prepare();
    query.span = loop.conversation.telemetry.query(loop.conversation.model);
    yield query.outgoing.clean(initMessage(loop)); // always the first message; the store's failures of the load follow it
    // Notices never carry the structured result's type.
    const outgoing = query.outgoing as OutgoingMessages<SDKMessage<T>>;
    const request = new MainRequest(loop, query);
    const toolPhase = (tools = new ToolPhase(loop, query));
    let outcome: StepResult<T> = STARTED;
    for (;;) {
      // The hand-over: what the step left for the consumer, notices first.
      while (outgoing.waiting) yield outgoing.next();
      const next: NextStep<T> = decideNext(loop, query, outcome);
      switch (next.step) {
        case "add_prompt": // 1. add the prompt — or resume a pause with its decisions
          // Calls a crash interrupted after they recorded steps run again first.
          await rerunInterruptedCalls(loop, query, toolPhase);
          outcome = await (isApprovalInput(prompt)
            ? resumeApprovals(loop, query, toolPhase, prompt)
            : addPrompt(loop, query, prompt));
          break;
        case "call_model": // 2. call the model, yielding its stream events and retry notices as they come
          outgoing.follow(modelCall(loop, query, request, toolPhase));
          for (let live = await outgoing.nextLive(); live !== PHASE_ENDED; live = await outgoing.nextLive())
            yield live;
          outcome = outgoing.phaseResult();
          break;
        case "record_response": {
          // 3. emit the response — at once when nothing waits (no store write, no output guardrail)
          const recorded = recordResponse(loop, query, next.response);
          outcome = isPromiseLike(recorded) ? await recorded : recorded;
          break;
        }
        case "run_tools": {
          // 4. run the tool calls, 5. add their results — at once when nothing waits; a subagent's messages live
          const answering = toolPhase.answer(next.response, next.calls);
          if (!isPromiseLike(answering)) outcome = answering;
          else
            outcome = toolPhase.emitsLive(next.calls) ? yield* outgoing.during(answering) : await answering;
          break;
        }
        case "finish": // 6. repeat — unless the model is done
          outcome = await finishOrContinue(loop, query, next.response);
          break;
        case "compact": {
          const result = yield* outgoing.during(compactHistory(loop, query, next.trigger));
          outcome = { kind: "compaction", after: next, result };
          break;
        }
        case "refuse_tools": // the response went over the budget: its calls are answered, not run
          outcome = await toolPhase.refuse(next.calls, next.ending);
          break;
        case "end": {
          // 7. emit the result
          const result = query.outgoing.clean(resultMessage(loop, query, next.ending));
          completed = true;
          lifecycle.release();
          yield result;
          return result;
        }
      }
    }
  } catch (error) {
    query.span.fail(error);
    throw error;
  } finally {
    tools?.discardStreamed();
    query.span.end();
    await lifecycle.finish(completed);
  }
}

/**
 * Step 2's phase: this turn's model call — read-only calls may start while it streams — or, while
 * parallel input guardrails check the prompt, the call racing their check.
 */
function modelCall<T>(
  loop: LoopContext<T>,
  query: QueryState,
  request: MainRequest,
  tools: ToolPhase<T>,
): Promise<StepResult<T>> {
  return query.inputCheck ? callRacingInputCheck(loop, query, request) : request.call(tools.streamCalls());
}
