/**
 * Step 3 of the loop: the response enters history and is handed over as an `assistant` message.
 * @module
 */
import type { AssistantModelMessage, ToolUseBlock } from "../messages/types";
import type { StepResult } from "./decide-next";
import { checkOutput, isCheckedOutput } from "./guardrails/output-guardrails";
import { recordAndHandOver } from "./record-and-hand-over";
import type { LoopContext } from "./state/loop-context";
import type { QueryState } from "./state/query-state";

/**
 * Records the response in history and hands it over. The API refuses an empty message anywhere
 * but last (blank text was dropped): recorded once, it would fail every later request of the
 * conversation, so an empty response is not recorded — and not handed over either, but for a
 * refusal (`stop_reason: "refusal"`), which is yielded so its id and model are not lost.
 */
export async function recordResponse<T>(
  loop: LoopContext<T>,
  query: QueryState,
  response: AssistantModelMessage,
): Promise<StepResult<T>> {
  query.takeText();
  // The turn's meta is vouched for only when no other code saw the response before it is recorded.
  let turnMeta = query.turnMeta;
  query.turnMeta = undefined;
  if (loop.config.guardrails?.output && isCheckedOutput(response)) {
    turnMeta = undefined;
    const checked = await checkOutput(loop, query, response);
    if (checked.kind === "ended") return checked as StepResult<T>;
    response = checked.response;
  }
  const held = query.heldEvents;
  if (held) {
    // Stream events held back until the response was checked: now they reach the consumer.
    query.heldEvents = undefined;
    for (const event of held) query.outgoing.emit(event);
  }
  if (response.content.length > 0) await recordAndHandOver(loop, query, response, turnMeta);
  // A refusal without content is still handed over (its providerResponseId and model), not recorded.
  // Not in history, so not redacted yet: `post` walks it.
  else if (response.stop_reason === "refusal") query.outgoing.post({ type: "assistant", message: response });
  return { kind: "recorded", response, calls: toolUsesOf(response) };
}

function toolUsesOf(message: AssistantModelMessage): ToolUseBlock[] {
  const calls: ToolUseBlock[] = [];
  for (const block of message.content) if (block.type === "tool_use") calls.push(block);
  return calls;
}
