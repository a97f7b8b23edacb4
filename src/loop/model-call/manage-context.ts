/**
 * Context management in the request-shaping step (`contextManagement`, `autoCompact.where`): each
 * main request either asks the provider for the edits and for server compaction
 * (`contextManagement` on the request: `context_management` and its betas on the wire) or carries
 * history as the SDK edited it — old tool results replaced by a placeholder, old thinking dropped,
 * a server compaction's block turned into its summary — with history itself untouched. After the
 * answer: a provider that ignored the edits (no `context_management` in its response) hands them
 * to the SDK for the rest of the conversation, what was cleared is reported when it changes, and a
 * server compaction is counted and reported like ours — or, refused or ignored, handed to the SDK.
 * @module
 */
import { withoutServerCompaction } from "../../compaction/server-compaction-view";
import { totalInputTokens } from "../../cost/usage";
import { withoutWithdrawnTurns } from "../../history/withdrawn-turns";
import type { ModelMessage } from "../../messages/types";
import { applyContextEdits, estimateRequestTokens } from "../../model/context-editing";
import type { CompactEdit, ContextEdits } from "../../model/context-management";
import { hasCompactionBlock } from "../../model/server-compaction";
import type { LoopContext } from "../state/loop-context";
import type { QueryState } from "../state/query-state";
import type { RequestBase } from "./call-model";
import type { ModelOutcome } from "./model-outcome";
import { recordUsage } from "./record-usage";

/** Puts this turn's messages (edited or not) and edits on `base`, the main request's fields. */
export function manageContext(
  loop: LoopContext<unknown>,
  base: RequestBase,
  model: string,
  keepUnchecked = false,
): void {
  const { conversation } = loop;
  const stored = conversation.history.messages;
  // Turns a guardrail withdrew stay in history and are never sent.
  const unwithdrawn = conversation.withdrawn.holds(stored)
    ? withoutWithdrawnTurns(stored, keepUnchecked)
    : stored;
  // A handoff's specialist sees what its `history` form lets it see.
  const view = loop.config.handoffs?.view;
  const history = view ? view(unwithdrawn) : unwithdrawn;
  const management = loop.config.context.management;
  const state = conversation.context;
  const compact = serverCompaction(loop);
  state.askedCompaction = compact !== undefined;
  // The provider reads a compaction block itself; any other request carries its summary instead.
  let messages: ModelMessage[] =
    compact || !state.holdsServerCompaction(history) ? history : withoutServerCompaction(history);
  let edits: ContextEdits | undefined = compact && { compact };
  if (management) {
    const side = state.sideFor(management.where, loop.services.client.endpoint);
    state.askedProvider = side === "provider";
    if (side === "provider") {
      edits = { ...management.edits, ...edits };
    } else {
      const tokens = estimateRequestTokens({ system: base.system, tools: base.tools, messages });
      const edited = applyContextEdits(messages, management.edits, tokens);
      messages = edited.messages;
      state.clientEdits = edited.applied;
    }
  }
  base.contextManagement = edits;
  base.messages = messages;
  state.lastRequest = { model, system: base.system, tools: base.tools, messages, edits };
}

/** The server compaction this request asks for, when the provider compacts (`autoCompact.where`). */
function serverCompaction(loop: LoopContext<unknown>): CompactEdit | undefined {
  const settings = loop.config.compaction.history;
  if (!settings || settings.where === "client") return undefined;
  const { thresholdTokens, prompt } = settings;
  const side = loop.conversation.context.compactionSideFor(
    settings.where,
    loop.services.client.endpoint,
    thresholdTokens,
  );
  if (side !== "provider") return undefined;
  return { triggerTokens: thresholdTokens, ...(prompt !== undefined && { instructions: prompt }) };
}

/**
 * Takes in what the answer says about context management: a server compaction (counted,
 * reported), the provider's applied edits (or their absence: the SDK takes over), or the SDK's
 * own, reported as a `context_edits` message when what is cleared changed.
 */
export function observeContext(loop: LoopContext<unknown>, query: QueryState, reply: ModelOutcome): void {
  if (loop.conversation.context.askedCompaction) observeCompaction(loop, query, reply);
  if (reply.kind !== "response" || !loop.config.context.management) return;
  const state = loop.conversation.context;
  if (state.askedProvider) {
    const reported = reply.message.meta?.context_management;
    if (!reported) {
      if (state.fallBackToClient()) {
        query.outgoing.emit({
          type: "system",
          subtype: "context_management_fallback",
          feature: "context_editing",
          message:
            "The provider did not apply the context edits (its response has no context_management): the SDK applies them to the requests from now on.",
        });
      }
      return;
    }
    if (state.changed(reported.applied_edits))
      query.outgoing.emit({
        type: "system",
        subtype: "context_edits",
        where: "provider",
        applied_edits: reported.applied_edits,
      });
    return;
  }
  if (state.changed(state.clientEdits))
    query.outgoing.emit({
      type: "system",
      subtype: "context_edits",
      where: "client",
      applied_edits: state.clientEdits,
    });
}

/**
 * After a request that asked for server compaction: a response opening with a `compaction` block
 * has its compaction's usage counted and a `compaction` message emitted; a 400 refusing the
 * compaction (with `where: "auto"`) hands it to the SDK and has the turn made again; a response
 * over the trigger without compaction or `context_management` (the provider ignored it) hands it
 * to the SDK, which compacts before the next request.
 */
function observeCompaction(loop: LoopContext<unknown>, query: QueryState, reply: ModelOutcome): void {
  const state = loop.conversation.context;
  const settings = loop.config.compaction.history!;
  if (reply.kind === "failed") {
    if (settings.where === "auto" && refusesCompaction(reply.error) && state.fallBackCompaction(true))
      emitCompactionFallback(query, `The provider refused server compaction (${reply.error.message})`);
    return;
  }
  if (reply.kind !== "response") return;
  const { message } = reply;
  if (hasCompactionBlock(message)) {
    const usage = recordUsage(
      loop.conversation,
      query,
      reply.model,
      message.meta?.compaction_usage,
      (notice) => query.outgoing.emit(notice),
    );
    query.outgoing.emit({
      type: "system",
      subtype: "compaction",
      compacted_messages: loop.conversation.history.messages.length,
      usage,
      trigger: "auto",
      where: "provider",
    });
    return;
  }
  const ignored =
    message.meta?.context_management === undefined &&
    message.usage !== undefined &&
    totalInputTokens(message.usage) > settings.thresholdTokens;
  if (ignored && state.fallBackCompaction(false))
    emitCompactionFallback(query, "The provider did not compact a request over the threshold");
}

/** Whether a provider failure is a 400 refusing server compaction (its message names it). */
function refusesCompaction(error: { status?: number; message: string }): boolean {
  return error.status === 400 && /compact/i.test(error.message);
}

function emitCompactionFallback(query: QueryState, why: string): void {
  query.outgoing.emit({
    type: "system",
    subtype: "context_management_fallback",
    feature: "compaction",
    message: `${why}: the SDK compacts this conversation from now on (autoCompact).`,
  });
}
