/**
 * Who answers a conversation, as its history records it: the latest handoff
 * ({@link MessageMeta.handoff}) names the active agent; a history without one is answered by the
 * root agent. Pure: read from the messages alone, the same in every process and after a rewind.
 * @module
 */
import type { MessageMeta, ModelMessage } from "../messages/types";

/** The agent that answers after `messages`: the `to` of the latest handoff, or `root` when none. */
export function activeAgentIn(messages: readonly ModelMessage[], root: string): string {
  for (let index = messages.length - 1; index >= 0; index--) {
    const handoff = (messages[index]!.meta as MessageMeta | undefined)?.handoff;
    if (handoff && typeof handoff.to === "string") return handoff.to;
  }
  return root;
}

/** The index of the message recording the latest handoff to `agent`, or -1 when there is none. */
export function latestHandoffTo(messages: readonly ModelMessage[], agent: string): number {
  for (let index = messages.length - 1; index >= 0; index--) {
    if ((messages[index]!.meta as MessageMeta | undefined)?.handoff?.to === agent) return index;
  }
  return -1;
}
