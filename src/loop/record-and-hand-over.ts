/**
 * How a step puts what it produced into the conversation: the message enters history (redacted,
 * `HistoryLog.record`), is written to the store, and is handed over to the consumer as history
 * holds it, after the failures its write reported — the response (step 3), the tool results
 * (step 5) and the messages the loop adds to go on.
 * @module
 */
import type { Redacted } from "../messages/redact-message";
import type { AssistantModelMessage, MessageMeta, UserModelMessage } from "../messages/types";
import type { LoopContext } from "./state/loop-context";
import type { QueryState } from "./state/query-state";

/**
 * Records `message` in history, saves it, then hands it over as an `assistant` or `user` message.
 * `loopMeta`: its `meta`, when the loop built it from its own clock and arithmetic alone and no
 * other code could reach it since (history's redaction does not walk it, see `HistoryLog.record`).
 * Without a store there is nothing to wait for: it is handed over at once and nothing is returned;
 * with one, the promise of the write, which hands it over once written.
 */
export function recordAndHandOver(
  loop: LoopContext<unknown>,
  query: QueryState,
  message: AssistantModelMessage | UserModelMessage,
  loopMeta?: MessageMeta,
): Promise<void> | undefined {
  const history = loop.conversation.history;
  const entry = history.record(message, loopMeta);
  if (!history.durable) return handOverEntry(query, entry);
  return history.save(entry).then(() => handOverEntry(query, entry));
}

/** An entry history holds, handed over as its `assistant` or `user` message. */
function handOverEntry(
  query: QueryState,
  entry: Redacted<AssistantModelMessage | UserModelMessage>,
): undefined {
  if (entry.role === "assistant") query.outgoing.handOver({ type: "assistant", message: entry });
  else query.outgoing.handOver({ type: "user", message: entry as typeof entry & UserModelMessage });
  return undefined;
}

/**
 * Records `message` in place of the messages of history from index `from` on (a batch's step
 * records give way to its results), saves that, then hands it over as {@link recordAndHandOver} does.
 */
export async function recordInPlaceOf(
  loop: LoopContext<unknown>,
  query: QueryState,
  from: number,
  message: UserModelMessage,
): Promise<void> {
  const [entry] = await loop.conversation.history.replaceFrom(from, [message]);
  query.outgoing.handOver({ type: "user", message: entry! });
}
