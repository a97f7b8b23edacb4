/**
 * What an interactive session has used so far — queries, turns, tokens and cost, per model — for
 * the `/cost` command. Counted since the command started: a resumed `--session` file's earlier
 * runs are not in it.
 * @module
 */
import { addUsage, emptyModelUsage, emptyUsage } from "../cost/usage";
import type { ModelUsage, SDKResultMessage } from "../messages/sdk-messages";
import type { Usage } from "../messages/types";
import { formatUsd } from "../shared/money";
import { countOf, tokensOf } from "./render";

/** Sums of the queries (and `/compact` summaries) of one session. */
export class SessionTally {
  queries = 0;
  turns = 0;
  /** `/compact` summary requests answered (billed even when the compaction then failed). */
  compactions = 0;
  costUsd = 0;
  readonly usage: Usage = emptyUsage();
  readonly byModel: Record<string, ModelUsage> = {};

  /** Adds a query's result. */
  recordResult(result: SDKResultMessage<unknown>): void {
    this.queries += 1;
    this.turns += result.num_turns;
    this.add(result.usage, result.total_cost_usd, result.model_usage);
  }

  /** Adds a `/compact` summary request: its usage and cost under the model that wrote it. */
  recordCompaction(model: string, usage: Usage, costUsd: number): void {
    this.compactions += 1;
    this.add(usage, costUsd, { [model]: { ...usage, cost_usd: costUsd } });
  }

  /**
   * The `/cost` report: a total line, then one line per model. `isPriced` tells which models have
   * no price (their cost is counted as $0, and the line says so).
   */
  describe(isPriced: (model: string) => boolean): string[] {
    const parts = [countOf(this.queries, "query", "queries"), countOf(this.turns, "turn")];
    if (this.compactions > 0) parts.push(countOf(this.compactions, "compaction"));
    const lines = [
      `cost so far: ${parts.join(" · ")} · ${tokensOf(this.usage)} · ${formatUsd(this.costUsd)}`,
    ];
    for (const [model, usage] of Object.entries(this.byModel)) {
      const unpriced = isPriced(model) ? "" : " (no price: counted as $0)";
      lines.push(`  ${model}: ${tokensOf(usage)} · ${formatUsd(usage.cost_usd)}${unpriced}`);
    }
    return lines;
  }

  private add(usage: Usage, costUsd: number, byModel: Record<string, ModelUsage>): void {
    addUsage(this.usage, usage);
    this.costUsd += costUsd;
    for (const [model, modelUsage] of Object.entries(byModel)) {
      const entry = (this.byModel[model] ??= emptyModelUsage());
      addUsage(entry, modelUsage);
      entry.cost_usd += modelUsage.cost_usd;
    }
  }
}
