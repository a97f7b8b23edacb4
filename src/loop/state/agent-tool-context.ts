/**
 * The query's side of `ToolContext.agent`: what a subagent tool reads from the running query and
 * hands back to it. Built once per query, on its first tool batch.
 * @module
 */
import type { AgentToolContext } from "../../tools/agent-context";
import type { LoopContext } from "./loop-context";
import { sharedBudgetOf } from "./query-budget";
import type { QueryState } from "./query-state";

/**
 * The query's model, client, channel, interrupt, budget (with its ledger) and depth as a tool sees them. The model
 * is read at each use (a `setModel` between turns is seen); messages a tool emits go to the
 * query's one channel, which delivers them live while the batch runs.
 */
export function agentToolContext<T>(loop: LoopContext<T>, query: QueryState): AgentToolContext {
  const { conversation, config, services } = loop;
  return {
    get model() {
      return conversation.model;
    },
    client: services.client,
    secrets: config.secrets,
    includePartialMessages: config.modelSettings.streamEvents,
    depth: config.limits.subagentDepth,
    interruption: query.signals.interruption,
    emit: query.outgoing.emit,
    budget: sharedBudgetOf(loop, query),
  };
}
