/**
 * The first and the last message of every query: `init`, and the result.
 * @module
 */
import { totalInputTokens } from "../cost/usage";
import type { SDKMessage, SDKResultMessage } from "../messages/sdk-messages";
import type { Ending } from "./ending";
import type { LoopContext } from "./state/loop-context";
import type { QueryState } from "./state/query-state";

/** The endings that are not errors: a success, an interrupt, a pause for approval or for an answer. */
const NOT_ERRORS: ReadonlySet<string> = new Set([
  "success",
  "interrupted",
  "requires_approval",
  "requires_input",
]);

/** `init`: the model and the tools of this query, and the MCP servers' statuses when there are any. */
export function initMessage<T>(loop: LoopContext<T>): SDKMessage<T> {
  const { conversation } = loop;
  const init: SDKMessage<T> = {
    type: "system",
    subtype: "init",
    model: conversation.model,
    tools: conversation.tools.names(),
  };
  if (conversation.mcpStatuses) init.mcp_servers = conversation.mcpStatuses;
  return init;
}

/** The result message of a query that ends with `ending`; recorded on the query's span too. */
export function resultMessage<T>(
  loop: LoopContext<T>,
  query: QueryState,
  ending: Ending<T>,
): SDKResultMessage<T> {
  const result: SDKResultMessage<T> = {
    type: "result",
    subtype: ending.subtype,
    is_error: !NOT_ERRORS.has(ending.subtype),
    result: ending.result ?? (ending.subtype === "success" ? query.resultText : query.partialText),
    usage: { ...query.ledger.usage },
    stop_reason: query.stopReason,
    num_turns: query.turns,
    total_cost_usd: query.ledger.totalCostUsd,
    model_usage: query.ledger.byModel,
    duration_ms: loop.config.clock.now() - query.startedAt,
    permission_denials: query.denials,
  };
  if (query.stopSequence !== undefined) result.stop_sequence = query.stopSequence;
  if (ending.structured) result.structuredResult = ending.structured.value;
  if (ending.error) result.error = ending.error;
  if (ending.pendingApprovals) result.pending_approvals = ending.pendingApprovals;
  if (ending.pendingInputs) result.pending_inputs = ending.pendingInputs;
  if (query.checkpointId !== undefined) result.checkpoint_id = query.checkpointId;
  if (ending.guardrail) result.guardrail = ending.guardrail;
  if (query.ledger.byAgent) result.agent_usage = query.ledger.byAgent;
  recordResultOnSpan(query, result);
  return result;
}

function recordResultOnSpan<T>(query: QueryState, result: SDKResultMessage<T>): void {
  query.span.set({
    "agent_lattice.result.subtype": result.subtype,
    "agent_lattice.num_turns": result.num_turns,
    "agent_lattice.cost_usd": result.total_cost_usd,
    // The GenAI conventions count cache reads and writes in the input tokens (Anthropic reports them apart).
    "gen_ai.usage.input_tokens": totalInputTokens(result.usage),
    "gen_ai.usage.output_tokens": result.usage.output_tokens,
    "agent_lattice.approvals.pending": result.pending_approvals?.length,
    "agent_lattice.guardrail.tripped": result.guardrail?.name,
    "gen_ai.usage.cache_creation.input_tokens": result.usage.cache_creation_input_tokens,
    "gen_ai.usage.cache_read.input_tokens": result.usage.cache_read_input_tokens,
  });
  if (result.is_error) query.span.fail(result.error ?? new Error(result.subtype));
}
