/**
 * The model stopped calling tools: the query ends — unless a text cut at max_tokens is continued,
 * a paused turn resumed, or a `stop` hook asks for one more request — with the result its settings
 * call for (a submission was due, or the final text must parse as the output format).
 * @module
 */
import { MissingOutputError } from "../errors";
import { meetHookFailure } from "../hooks/hook-failure";
import { continueWithOverride } from "../hooks/overrides";
import { runHookChain } from "../hooks/run-hooks";
import type { StopOutput } from "../hooks/types";
import type { AssistantModelMessage, UserModelMessage } from "../messages/types";
import { READY, type StepResult } from "./decide-next";
import { cancelledEnding } from "./ending";
import { parseOutputFormat } from "./output-format";
import { recordAndHandOver } from "./record-and-hand-over";
import type { LoopContext } from "./state/loop-context";
import type { QueryState } from "./state/query-state";

const CONTINUE_CUT_TEXT =
  "Your previous response was cut off at the output limit. Continue exactly where it stopped, without repeating anything.";

/** Continues the query after `response`, or ends it. */
export async function finishOrContinue<T>(
  loop: LoopContext<T>,
  query: QueryState,
  response: AssistantModelMessage,
): Promise<StepResult<T>> {
  if (
    response.stop_reason === "max_tokens" &&
    query.continuations < loop.config.limits.maxTokensContinuations
  ) {
    query.continueText();
    query.outgoing.emit({
      type: "system",
      subtype: "max_tokens_continuation",
      continuation: query.continuations,
    });
    return addUserMessage(loop, query, { role: "user", content: CONTINUE_CUT_TEXT });
  }
  if (response.stop_reason === "pause_turn") return READY;
  let continueWith: string | undefined;
  const signal = query.signals.model;
  const failure = await runHookChain({
    event: "stop",
    hooks: loop.config.hooks?.stop,
    input: () => ({ result: query.resultText, stopReason: query.stopReason, numTurns: query.turns }),
    onOutput: (output: StopOutput) => {
      const message = continueWithOverride(output.continueWith);
      if (message) {
        continueWith = message;
        return true;
      }
    },
    signal,
  });
  // A stop hook abandoned by a cancellation cannot make the query a success (nor continue it).
  if (failure && meetHookFailure(failure, signal, query.outgoing.emit) === "cancelled")
    return { kind: "ended", ending: cancelledEnding(query.signals) };
  if (continueWith !== undefined) return addUserMessage(loop, query, { role: "user", content: continueWith });
  const { submitTool, outputFormat } = loop.config.modelSettings;
  if (submitTool)
    return { kind: "ended", ending: { subtype: "error_missing_output", error: new MissingOutputError() } };
  if (outputFormat) return { kind: "ended", ending: parseOutputFormat<T>(outputFormat, query.resultText) };
  return { kind: "ended", ending: { subtype: "success" } };
}

/** A user message the loop adds to go on: recorded, then handed over. */
async function addUserMessage<T>(
  loop: LoopContext<T>,
  query: QueryState,
  message: UserModelMessage,
): Promise<StepResult<T>> {
  await recordAndHandOver(loop, query, message);
  return READY;
}
