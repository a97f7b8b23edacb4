/**
 * A guardrail tripped: its verdict becomes a durable fact. The turn — the last prompt and
 * everything after it — is marked withdrawn in history (kept for the studio and an audit, never
 * sent to the model again), the judged message carries the verdict, the consumer gets a
 * `guardrail` notice, the query's span an event, and the query ends `guardrail_tripwire`.
 * @module
 */
import { GuardrailTripwireError } from "../../errors";
import { listCheckpoints } from "../../history/checkpoints";
import type { GuardrailTrip } from "../../messages/sdk-messages";
import type { GuardrailRecord, MessageMeta, ModelMessage } from "../../messages/types";
import type { Ending } from "../ending";
import type { LoopContext } from "../state/loop-context";
import type { QueryState } from "../state/query-state";

/**
 * Marks the current turn withdrawn (`judged`: the index of the message the verdict is about, the
 * last one by default) and returns the query's ending. The result's text is the guardrail's
 * message, never what was blocked.
 */
export async function withdrawTurn<T>(
  loop: LoopContext<T>,
  query: QueryState,
  record: GuardrailRecord,
  judged?: number,
): Promise<Ending<T>> {
  const history = loop.conversation.history;
  const messages = history.messages;
  const start = listCheckpoints(messages).at(-1)?.index ?? messages.length;
  const at = judged ?? messages.length - 1;
  const marked = messages.map((message, index) =>
    index < start && index !== at
      ? message
      : withMeta(message, index >= start, index === at ? record : undefined),
  );
  await history.replace(marked);
  reportVerdict(query, record);
  query.resultText = query.partialText = "";
  return trippedEnding(record);
}

/** The ending of a query a guardrail tripped. */
export function trippedEnding<T>(record: GuardrailRecord): Ending<T> {
  const guardrail: GuardrailTrip = { name: record.name, stage: record.stage };
  if (record.message !== undefined) guardrail.message = record.message;
  if (record.info !== undefined) guardrail.info = record.info;
  return {
    subtype: "guardrail_tripwire",
    error: new GuardrailTripwireError(record.name, record.stage, record.message),
    result: record.message ?? "",
    guardrail,
  };
}

/** A verdict other than allow reaches the consumer (a `guardrail` notice) and the query's span. */
export function reportVerdict(query: QueryState, record: GuardrailRecord): void {
  query.outgoing.emit({ type: "system", subtype: "guardrail", guardrail: record });
  query.span.event(`guardrail.${record.verdict}`, {
    "agent_lattice.guardrail.name": record.name,
    "agent_lattice.guardrail.stage": record.stage,
    "agent_lattice.guardrail.verdict": record.verdict,
  });
}

/** `message` with the meta of a withdrawn turn and, on the judged one, the verdict. */
export function withMeta<M extends ModelMessage>(
  message: M,
  withdrawn: boolean,
  record: GuardrailRecord | undefined,
): M {
  const meta: MessageMeta = { ...message.meta };
  if (withdrawn) meta.withdrawn = "guardrail";
  if (record) meta.guardrail = record;
  return { ...message, meta };
}
