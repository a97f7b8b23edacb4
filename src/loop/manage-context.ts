/**
 * Context management in the request-shaping step (`contextManagement`): each main request either
 * asks the provider for the edits (`contextManagement` on the request: `context_management` and its
 * beta on the wire) or carries history as the SDK edited it — old tool results replaced by a
 * placeholder, old thinking dropped — with history itself untouched. After the answer: a provider
 * that ignored the edits (no `context_management` in its response) hands them to the SDK for the
 * rest of the conversation, and what was cleared is reported when it changes.
 * @module
 */
import type { ModelMessage } from "../messages/types";
import { applyContextEdits, estimateRequestTokens } from "../model/context-editing";
import type { RequestBase } from "./call-model";
import type { ModelOutcome } from "./model-outcome";
import type { LoopContext } from "./state/loop-context";
import type { QueryState } from "./state/query-state";

/** Puts this turn's messages (edited or not) and edits on `base`, the main request's fields. */
export function manageContext(loop: LoopContext<unknown>, base: RequestBase, model: string): void {
  const { conversation } = loop;
  const history = conversation.history.messages;
  const management = loop.config.context.management;
  const state = conversation.context;
  let messages: ModelMessage[] = history;
  if (management) {
    const side = state.sideFor(management.where, loop.services.client.endpoint);
    state.askedProvider = side === "provider";
    if (side === "provider") {
      base.contextManagement = management.edits;
    } else {
      base.contextManagement = undefined;
      const tokens = estimateRequestTokens({ system: base.system, tools: base.tools, messages: history });
      const edited = applyContextEdits(history, management.edits, tokens);
      messages = edited.messages;
      state.clientEdits = edited.applied;
    }
  }
  base.messages = messages;
  state.lastRequest = { model, system: base.system, tools: base.tools, messages };
}

/**
 * Takes in what the answer says about context management, then returns `reply` unchanged: the
 * provider's applied edits (or their absence: the SDK takes over), or the SDK's own, reported as a
 * `context_edits` message when what is cleared changed.
 */
export function observeContext(
  loop: LoopContext<unknown>,
  query: QueryState,
  reply: ModelOutcome,
): ModelOutcome {
  if (reply.kind !== "response" || !loop.config.context.management) return reply;
  const state = loop.conversation.context;
  if (state.askedProvider) {
    const reported = reply.message.meta?.context_management;
    if (!reported) {
      if (state.fallBackToClient()) {
        query.channel.emit({
          type: "system",
          subtype: "context_management_fallback",
          feature: "context_editing",
          message:
            "The provider did not apply the context edits (its response has no context_management): the SDK applies them to the requests from now on.",
        });
      }
      return reply;
    }
    if (state.changed(reported.applied_edits))
      query.channel.emit({
        type: "system",
        subtype: "context_edits",
        where: "provider",
        applied_edits: reported.applied_edits,
      });
    return reply;
  }
  if (state.changed(state.clientEdits))
    query.channel.emit({
      type: "system",
      subtype: "context_edits",
      where: "client",
      applied_edits: state.clientEdits,
    });
  return reply;
}
