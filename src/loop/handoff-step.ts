/**
 * A handoff in the tool phase (`AgentOptions.handoffs`): a batch's `transfer_to_<name>` call that
 * succeeded passes control to agent `<name>`. It is recorded with the batch's results
 * (`meta.handoff`), then the agent changes, and a `handoff` message tells the consumer.
 * @module
 */
import type { HandoffRecord, ToolResultBlock, ToolUseBlock } from "../messages/types";
import type { LoopContext } from "./state/loop-context";
import type { QueryState } from "./state/query-state";

/**
 * The handoff a batch's results make, if any: its first successful transfer call. A later
 * transfer call of the same batch has its result replaced by an error saying control had passed
 * already (`blocks` is changed in place).
 */
export function handoffOf(
  loop: LoopContext<unknown>,
  calls: readonly ToolUseBlock[],
  blocks: ToolResultBlock[],
): HandoffRecord | undefined {
  const transfers = loop.config.handoffs?.transfers;
  if (!transfers) return undefined;
  let handoff: HandoffRecord | undefined;
  for (let index = 0; index < calls.length; index++) {
    const to = transfers.get(calls[index]!.name);
    const block = blocks[index];
    if (to === undefined || block === undefined || block.is_error) continue;
    if (!handoff) {
      handoff = { from: loop.config.agentName, to };
      continue;
    }
    blocks[index] = {
      type: "tool_result",
      tool_use_id: block.tool_use_id,
      is_error: true,
      content: `Not transferred: control passed to ${handoff.to} earlier in this turn.`,
    };
  }
  return handoff;
}

/** The recorded handoff takes effect: its agent answers from the next request on. */
export function handOver(loop: LoopContext<unknown>, query: QueryState, handoff: HandoffRecord): void {
  loop.conversation.activate(handoff.to);
  query.outgoing.emit({ type: "system", subtype: "handoff", from: handoff.from, to: handoff.to });
}
