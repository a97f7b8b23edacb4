/**
 * Detection behind tool search on the provider (`toolSearch: "auto"` on a profiled host, or
 * `"provider"`): a request carrying the tool-search fields (`defer_loading`, the search tool, the
 * beta) that the provider refuses as invalid, in a conversation where it never searched tools,
 * hands the search to the agent's own `search_tools` for the rest of the conversation — reported
 * once, as context management's fallback is — and the same turn is sent again without the fields.
 * @module
 */
import type { ContentBlock, ModelMessage } from "../../messages/types";
import { mayRefuseToolSearch } from "../../model/tool-search-support";
import type { LoopContext } from "../state/loop-context";
import type { QueryState } from "../state/query-state";
import type { ModelFailure } from "./model-outcome";

/**
 * Whether `failure` made the conversation fall back to client-side tool search (then the request
 * is to be made again): true once per conversation at most, and never when history shows the
 * provider searching tools (its 400 is about something else then).
 */
export function fellBackFromToolSearch(
  loop: LoopContext<unknown>,
  query: QueryState,
  failure: ModelFailure,
): boolean {
  if (failure.kind !== "failed" || !mayRefuseToolSearch(failure.error, failure.promptTooLong)) return false;
  const { tools, history } = loop.conversation;
  if (tools.toolSearch !== "provider" || providerSearched(history.messages)) return false;
  if (!tools.fallBackToClientSearch()) return false;
  query.outgoing.emit({
    type: "system",
    subtype: "context_management_fallback",
    feature: "tool_search",
    message: `The provider refused the request with deferred tools (${failure.error.message}): the agent's search_tools finds them from now on, and the request is sent again.`,
  });
  return true;
}

/** Whether an assistant message in `messages` holds a result of the provider's tool search. */
function providerSearched(messages: readonly ModelMessage[]): boolean {
  return messages.some(
    (message) =>
      message.role === "assistant" &&
      typeof message.content !== "string" &&
      (message.content as ContentBlock[]).some((block) => block.type === "tool_search_tool_result"),
  );
}
