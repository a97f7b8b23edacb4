/**
 * Step 1 of the loop: the prompt passes the `userPromptSubmit` hooks and enters history.
 * @module
 */
import { PromptBlockedError } from "../errors";
import { newCheckpointId } from "../history/checkpoints";
import { meetHookFailure } from "../hooks/hook-failure";
import { promptOverride, refusalMessage } from "../hooks/overrides";
import { runHookChain } from "../hooks/run-hooks";
import type { UserPromptSubmitOutput } from "../hooks/types";
import type { PromptInput } from "../messages/prompt-input";
import { asSentence } from "../shared/sentence";
import { denyPendingCalls } from "./approvals/resume-approvals";
import { READY, type StepResult } from "./decide-next";
import { cancelledEnding } from "./ending";
import { promptMessages } from "./prompt-message";
import type { LoopContext } from "./state/loop-context";
import type { QueryState } from "./state/query-state";

/**
 * Runs `userPromptSubmit` hooks and adds the prompt to history. The query ends instead when a hook
 * blocks or fails (fail closed: a prompt a policy hook could not check is not sent), or when it was
 * cancelled during the hooks; then nothing is recorded.
 */
export async function addPrompt<T>(
  loop: LoopContext<T>,
  query: QueryState,
  prompt: PromptInput,
): Promise<StepResult<T>> {
  // Copies: history must not share objects with the caller, who may reuse or edit its blocks later.
  let content = typeof prompt === "string" ? prompt : structuredClone(prompt);
  let blockedMessage: string | undefined;
  const signal = query.signals.model;
  const failure = await runHookChain({
    event: "userPromptSubmit",
    hooks: loop.config.hooks?.userPromptSubmit,
    input: () => ({ prompt: content }),
    onOutput: (output: UserPromptSubmitOutput) => {
      if (output.updatedPrompt !== undefined) content = structuredClone(promptOverride(output.updatedPrompt));
      if (output.block) {
        blockedMessage = refusalMessage(output.message) ?? "A userPromptSubmit hook blocked the prompt.";
        return true;
      }
    },
    signal,
  });
  if (failure) {
    if (meetHookFailure(failure, signal, query.outgoing.emit) === "cancelled")
      return { kind: "ended", ending: cancelledEnding(query.signals) };
    const error = new PromptBlockedError(`${asSentence(failure.message)} The prompt was not sent.`, {
      cause: failure,
    });
    return { kind: "ended", ending: { subtype: "error_during_execution", error } };
  }
  if (blockedMessage !== undefined) {
    const error = new PromptBlockedError(blockedMessage);
    return { kind: "ended", ending: { subtype: "error_during_execution", error } };
  }
  const { history } = loop.conversation;
  // Calls waiting for approval are answered as denied: the user sent a new message instead.
  await denyPendingCalls(history, query.span);
  // Calls left without results (a history given to replaceHistory, or written by another program)
  // are answered first: the request would otherwise be refused. A prompt's tool_result blocks may
  // answer them, never anything else (thrown before history is touched).
  // The prompt enters history but is not yielded: `user` messages report what the loop fed back.
  // It starts a checkpoint: its id goes on the prompt's meta, and on the result.
  const messages = promptMessages(history.messages, content);
  query.checkpointId = newCheckpointId();
  messages[messages.length - 1]!.meta = {
    created_at: new Date(loop.config.clock.now()).toISOString(),
    checkpoint_id: query.checkpointId,
  };
  for (const message of messages) await history.append(message);
  return READY;
}
