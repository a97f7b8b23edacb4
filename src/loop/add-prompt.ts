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
import type { MessageMeta } from "../messages/types";
import { asSentence } from "../shared/sentence";
import { pauseForAuthorization } from "./approvals/authorization-pause";
import { denyPendingCalls } from "./approvals/resume-approvals";
import { READY, type StepResult } from "./decide-next";
import { cancelledEnding } from "./ending";
import { answerBlockedPrompt, checkPrompt, startParallelInput } from "./guardrails/input-guardrails";
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
  // The blocking input guardrails: the prompt is not sent until they allow (or redact it).
  const checked = await checkPrompt(loop, query, content);
  if (checked.kind === "cancelled") return { kind: "ended", ending: cancelledEnding(query.signals) };
  if (checked.kind === "allowed") content = checked.content;
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
  const meta: MessageMeta = {
    created_at: new Date(loop.config.clock.now()).toISOString(),
    checkpoint_id: query.checkpointId,
  };
  messages[messages.length - 1]!.meta = meta;
  // A refused prompt is recorded withdrawn, with the verdict; one that parallel guardrails still
  // check is recorded unchecked (never sent by a later request should this process stop).
  if (checked.kind === "blocked") Object.assign(meta, { withdrawn: "guardrail", guardrail: checked.record });
  else if (checked.record) meta.guardrail = checked.record;
  const parallel = checked.kind === "allowed" && loop.config.guardrails?.parallelInput !== undefined;
  if (parallel) meta.withdrawn = "unchecked";
  const before = parallel ? history.messages.slice() : undefined;
  for (const message of messages) await history.append(message);
  if (checked.kind === "blocked")
    return { kind: "ended", ending: await answerBlockedPrompt(loop, query, checked.record) };
  // MCP servers waiting for a person to authorize them pause the query before the model is called
  // (the parallel guardrails then check the prompt when it resumes).
  const paused = await pauseForAuthorization(loop, query);
  if (paused) return paused;
  if (before) startParallelInput(loop, query, content, before);
  return READY;
}
