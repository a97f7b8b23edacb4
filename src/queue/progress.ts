/**
 * A job's progress while its query runs: responses so far, their usage, and an estimate of their
 * cost from the worker's price table.
 * @module
 */
import { costOf, findPricing } from "../cost/pricing";
import type { ModelPricing, SDKMessage, Usage } from "../index";
import type { AgentJobProgress } from "./job-types";

/** Sums the responses of one run. */
export class ProgressTally {
  private turns = 0;
  private cost = 0;
  private readonly usage: Usage = { input_tokens: 0, output_tokens: 0 };

  constructor(private readonly pricing: Readonly<Record<string, ModelPricing>>) {}

  /**
   * Counts `message` when it is a response of the main agent (a subagent's messages carry
   * `parent_tool_use_id`; its cost reaches the parent's result); returns whether it was counted.
   * `agentModel` prices a response that does not name its model.
   */
  add(message: SDKMessage<unknown>, agentModel: string): boolean {
    if (message.type !== "assistant" || "parent_tool_use_id" in message) return false;
    const usage = message.message.usage;
    this.turns += 1;
    if (usage) {
      this.usage.input_tokens += usage.input_tokens ?? 0;
      this.usage.output_tokens += usage.output_tokens ?? 0;
      for (const bucket of ["cache_creation_input_tokens", "cache_read_input_tokens"] as const) {
        if (usage[bucket] !== undefined) this.usage[bucket] = (this.usage[bucket] ?? 0) + usage[bucket];
      }
      const price = findPricing(message.message.model ?? agentModel, this.pricing);
      if (price) this.cost += costOf(usage, price);
    }
    return true;
  }

  /** The progress so far. */
  snapshot(): AgentJobProgress {
    return { num_turns: this.turns, total_cost_usd: this.cost, usage: { ...this.usage } };
  }
}
