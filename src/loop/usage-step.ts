/**
 * Recording one response's usage and cost, and reporting a model without a price once per agent.
 * @module
 */
import type { AgentCore } from "../agent/agent-core";
import { countedUsage } from "../cost/usage";
import type { SDKMessage } from "../messages/sdk-messages";
import type { Usage } from "../messages/types";
import type { Emit } from "./live-messages";
import type { QueryRun } from "./query-run";

/** Adds usage to the query's ledger; returns the usage as counted (see {@link countedUsage}). */
export function recordUsage<T>(
  core: AgentCore<T>,
  run: QueryRun,
  model: string,
  usage: Usage | undefined,
  emit: Emit<SDKMessage<T>>,
): Usage {
  const counted = countedUsage(usage);
  const priced = run.ledger.record(model, counted);
  if (!priced && !core.reportedUnpricedModels.has(model)) {
    core.reportedUnpricedModels.add(model);
    emit({
      type: "system",
      subtype: "unknown_pricing",
      model,
      message: `No price is known for model "${model}"; its cost is counted as $0. Add it with the \`pricing\` option.`,
    });
  }
  return counted;
}
