/**
 * Step 3 of the loop: the response enters history and is handed over as an `assistant` message.
 * @module
 */
import type { AssistantModelMessage, MessageMeta, ToolUseBlock } from "../messages/types";
import type { StepResult } from "./decide-next";
import { checkOutput, isCheckedOutput } from "./guardrails/output-guardrails";
import { recordAndHandOver } from "./record-and-hand-over";
import type { LoopContext } from "./state/loop-context";
import type { QueryState } from "./state/query-state";

/**
 * Records the response in history and hands it over. The API refuses an empty message anywhere
 * but last (blank text was dropped): recorded once, it would fail every later request of the
 * conversation, so an empty response is not recorded — and not handed over either, but for a
 * refusal (`stop_reason: "refusal"`), which is yielded so its id and model are not lost. At once
 * when nothing waits (no output guardrail to ask, no store to write).
 */
export function recordResponse<T>(
  loop: LoopContext<T>,
  query: QueryState,
  response: AssistantModelMessage,
): StepResult<T> | Promise<StepResult<T>> {
  query.takeText();
  // The turn's meta is vouched for only when no other code saw the response before it is recorded.
  const turnMeta = query.turnMeta;
  query.turnMeta = undefined;
  if (loop.config.guardrails?.output && isCheckedOutput(response))
    return checkThenRecord(loop, query, response);
  return recordChecked(loop, query, response, turnMeta);
}

/** The output guardrails check the response first: it is recorded as they leave it, or the query ends. */
async function checkThenRecord<T>(
  loop: LoopContext<T>,
  query: QueryState,
  response: AssistantModelMessage,
): Promise<StepResult<T>> {
  const checked = await checkOutput(loop, query, response);
  if (checked.kind === "ended") return checked as StepResult<T>;
  return recordChecked(loop, query, checked.response, undefined);
}

/** The response as it is recorded: held-back stream events first, then the response itself. */
function recordChecked<T>(
  loop: LoopContext<T>,
  query: QueryState,
  response: AssistantModelMessage,
  turnMeta: MessageMeta | undefined,
): StepResult<T> | Promise<StepResult<T>> {
  const held = query.heldEvents;
  if (held) {
    // Stream events held back until the response was checked: now they reach the consumer.
    query.heldEvents = undefined;
    for (const event of held) query.outgoing.emit(event);
  }
  const recorded: StepResult<T> = { kind: "recorded", response, calls: toolUsesOf(response) };
  if (response.content.length > 0) {
    const saving = recordAndHandOver(loop, query, response, turnMeta);
    if (saving) return saving.then(() => recorded);
  }
  // A refusal without content is still handed over (its providerResponseId and model), not recorded.
  // Not in history, so not redacted yet: `post` walks it.
  else if (response.stop_reason === "refusal") query.outgoing.post({ type: "assistant", message: response });
  return recorded;
}

function toolUsesOf(message: AssistantModelMessage): ToolUseBlock[] {
  const calls: ToolUseBlock[] = [];
  for (const block of message.content) if (block.type === "tool_use") calls.push(block);
  return calls;
}
