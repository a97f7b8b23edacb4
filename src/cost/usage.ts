/**
 * Usage sums and per-model cost accounting for one query.
 * @module
 */
import type { ModelUsage } from "../messages/sdk-messages";
import type { Usage } from "../messages/types";
import { isOverBudget } from "./budget";
import { costOf, findPricing, type ModelPricing } from "./pricing";

/** A zeroed usage record. */
export function emptyUsage(): Usage {
  return { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
}

/**
 * A zeroed usage record with its cost, for one model's entry. Made by one literal: a spread of
 * {@link emptyUsage} plus `cost_usd` gave each query's entries a map of their own from the second
 * query on (dictionary mode), and every read of a ledger's sums went megamorphic.
 */
export function emptyModelUsage(): ModelUsage {
  return {
    input_tokens: 0,
    output_tokens: 0,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    cost_usd: 0,
  };
}

/** `value` when it is a token count (a finite number, not negative); else 0. */
function tokenCount(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;
}

/**
 * `usage` as it is counted: a bucket that is not a token count — missing, `null`, `NaN`, negative,
 * a string (a custom client's or a faulty gateway's report) — is 0, so it can neither poison the
 * sums nor hide spending from the budget. The cache buckets are kept only when reported; no usage
 * at all counts as zeros. The split of cache writes by TTL (`cache_creation`) is kept when
 * reported, its one-hour part never above `cache_creation_input_tokens` (a total reported without
 * it is the split's sum).
 */
export function countedUsage(usage: Usage | undefined): Usage {
  const counted: Usage = {
    input_tokens: tokenCount(usage?.input_tokens),
    output_tokens: tokenCount(usage?.output_tokens),
  };
  if (usage?.cache_creation_input_tokens !== undefined)
    counted.cache_creation_input_tokens = tokenCount(usage.cache_creation_input_tokens);
  if (usage?.cache_read_input_tokens !== undefined)
    counted.cache_read_input_tokens = tokenCount(usage.cache_read_input_tokens);
  const split = usage?.cache_creation;
  if (typeof split === "object" && split !== null) {
    const fiveMinutes = tokenCount(split.ephemeral_5m_input_tokens);
    const oneHour = tokenCount(split.ephemeral_1h_input_tokens);
    counted.cache_creation_input_tokens ??= fiveMinutes + oneHour;
    const total = counted.cache_creation_input_tokens;
    const hour = Math.min(oneHour, total);
    counted.cache_creation = { ephemeral_5m_input_tokens: total - hour, ephemeral_1h_input_tokens: hour };
  }
  return counted;
}

/**
 * Adds `delta` into `total` in place (missing counts are zero). The TTL split is summed once any
 * delta reports one; writes reported without a split count as five-minute writes in it.
 */
export function addUsage(total: Usage, delta: Usage | undefined): void {
  if (!delta) return;
  const writesBefore = total.cache_creation_input_tokens ?? 0;
  total.input_tokens += delta.input_tokens ?? 0;
  total.output_tokens += delta.output_tokens ?? 0;
  total.cache_creation_input_tokens = writesBefore + (delta.cache_creation_input_tokens ?? 0);
  total.cache_read_input_tokens = (total.cache_read_input_tokens ?? 0) + (delta.cache_read_input_tokens ?? 0);
  if (!total.cache_creation && !delta.cache_creation) return;
  const hourBefore = total.cache_creation?.ephemeral_1h_input_tokens ?? 0;
  const hour = hourBefore + (delta.cache_creation?.ephemeral_1h_input_tokens ?? 0);
  total.cache_creation = {
    ephemeral_5m_input_tokens: Math.max(0, total.cache_creation_input_tokens - hour),
    ephemeral_1h_input_tokens: hour,
  };
}

/** Every input token the request carried: fresh input plus both cache buckets (invalid counts as 0). */
export function totalInputTokens(usage: Usage): number {
  return (
    tokenCount(usage.input_tokens) +
    tokenCount(usage.cache_creation_input_tokens) +
    tokenCount(usage.cache_read_input_tokens)
  );
}

/** Where a ledger passes on what it records, as it records it (a subagent's child: the parent's ledger). */
export type SpendSink = (modelUsage: Readonly<Record<string, ModelUsage>>) => void;

/**
 * Accumulates usage and cost per model over one query. Models without a price cost 0 and are
 * returned by {@link CostLedger.record} as unpriced so the caller can report them once. With an
 * `upstream` sink, every usage recorded or added is passed on to it too, as it comes.
 */
export class CostLedger {
  readonly usage: Usage = emptyUsage();
  readonly byModel: Record<string, ModelUsage> = {};
  /**
   * With an `agentOf`: the same usage and cost by the agent that spent it, then by model (handoffs:
   * the result's `agent_usage`). Undefined without.
   */
  readonly byAgent: Record<string, Record<string, ModelUsage>> | undefined;
  totalCostUsd = 0;
  /** The cost of the usage {@link CostLedger.record} took in last (0 before any). */
  lastCostUsd = 0;
  /** The usage {@link CostLedger.record} took in last, as {@link countedUsage} counted it. */
  lastUsage: Usage = emptyUsage();
  /** Price lookups by model id (a query uses one or two models; matching scans the table). */
  private readonly prices = new Map<string, ModelPricing | undefined>();

  constructor(
    private readonly pricing: Readonly<Record<string, ModelPricing>>,
    private readonly upstream?: SpendSink,
    /** The agent spending now (a conversation with handoffs): usage is kept by agent too. */
    private readonly agentOf?: () => string,
  ) {
    this.byAgent = agentOf ? {} : undefined;
  }

  /** Adds `counted` and `cost` to the spending agent's entry of `model` (with an `agentOf`). */
  private addToAgent(model: string, counted: Usage, cost: number): void {
    if (!this.byAgent || !this.agentOf) return;
    const models = (this.byAgent[this.agentOf()] ??= {});
    const entry = (models[model] ??= emptyModelUsage());
    addUsage(entry, counted);
    entry.cost_usd += cost;
  }

  /** Whether the query's cost so far is over `budgetUsd` (see {@link isOverBudget}: equal is not over). */
  isOverBudget(budgetUsd: number): boolean {
    return isOverBudget(this.totalCostUsd, budgetUsd);
  }

  /**
   * Adds the usage and cost another query spent (a subagent's child), model by model, as that
   * query's ledger priced them.
   */
  add(modelUsage: Readonly<Record<string, ModelUsage>>): void {
    for (const [model, spent] of Object.entries(modelUsage)) {
      const counted = countedUsage(spent);
      addUsage(this.usage, counted);
      const entry = (this.byModel[model] ??= emptyModelUsage());
      addUsage(entry, counted);
      const cost = Number.isFinite(spent.cost_usd) && spent.cost_usd > 0 ? spent.cost_usd : 0;
      entry.cost_usd += cost;
      this.totalCostUsd += cost;
      this.addToAgent(model, counted, cost);
    }
    this.upstream?.(modelUsage);
  }

  /**
   * Records one response's usage under `model`, as {@link countedUsage} counts it; returns false
   * when the model has no known price.
   */
  record(model: string, usage: Usage | undefined): boolean {
    const counted = countedUsage(usage);
    this.lastUsage = counted;
    addUsage(this.usage, counted);
    const entry = (this.byModel[model] ??= emptyModelUsage());
    addUsage(entry, counted);
    let price = this.prices.get(model);
    if (price === undefined && !this.prices.has(model)) {
      price = findPricing(model, this.pricing);
      this.prices.set(model, price);
    }
    const cost = price ? costOf(counted, price) : 0;
    this.lastCostUsd = cost;
    entry.cost_usd += cost;
    this.totalCostUsd += cost;
    this.addToAgent(model, counted, cost);
    this.upstream?.({ [model]: { ...counted, cost_usd: cost } });
    return price !== undefined;
  }
}
