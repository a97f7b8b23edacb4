/**
 * Recording one response's usage and cost, and reporting a model without a price once per
 * conversation.
 * @module
 */
import type { SDKMessage } from "../../messages/sdk-messages";
import type { Usage } from "../../messages/types";
import type { Conversation } from "../state/conversation";
import type { Emit } from "../state/live-messages";
import type { QueryState } from "../state/query-state";

/** Adds usage to the query's ledger; returns the usage as counted (see `countedUsage`). */
export function recordUsage(
  conversation: Conversation,
  query: QueryState,
  model: string,
  usage: Usage | undefined,
  emit: Emit<SDKMessage<unknown>>,
): Usage {
  const priced = query.ledger.record(model, usage);
  const counted = query.ledger.lastUsage; // counted once, by the ledger
  if (!priced && conversation.reportUnpricedOnce(model)) {
    emit({
      type: "system",
      subtype: "unknown_pricing",
      model,
      message: `No price is known for model "${model}"; its cost is counted as $0. Add it with the \`pricing\` option.`,
    });
  }
  return counted;
}
