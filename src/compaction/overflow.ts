/**
 * Recognising a response that ran out of context window, one of the two signals of overflow
 * recovery. (The other, a provider error about a too-long prompt, is recognised in `model/errors`.)
 * @module
 */
import type { AssistantModelMessage } from "../messages/types";

/**
 * Whether `message` stopped because the context window ran out mid-request
 * (`stop_reason: "model_context_window_exceeded"`). Such a response is unusable: it is discarded,
 * never added to history, and the turn is retried after compaction. `max_tokens` is not this — it
 * means the output budget ran out, not the input room.
 */
export function isContextWindowExceeded(message: AssistantModelMessage): boolean {
  return message.stop_reason === "model_context_window_exceeded";
}
