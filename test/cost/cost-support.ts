/**
 * Helpers of the cost suites: run a query to its end, check what every query ends with, and price
 * usage records the way the table says.
 */
import { expect } from "vitest";
import { costOf, findPricing } from "../../src/cost/pricing";
import {
  type Agent,
  DEFAULT_PRICING,
  isWellFormedHistory,
  type ModelPricing,
  type SDKMessage,
  type SDKResultMessage,
  type Usage,
} from "../../src/index";

/** Runs one query; checks one result message, last, and a well-formed history afterwards. */
export async function runToEnd(
  agent: Agent,
  prompt: string,
): Promise<{ messages: SDKMessage[]; result: SDKResultMessage }> {
  const messages: SDKMessage[] = [];
  for await (const message of agent.query(prompt)) messages.push(message);
  const results = messages.filter((message) => message.type === "result");
  expect(results).toHaveLength(1);
  expect(messages.at(-1)).toBe(results[0]);
  expect(isWellFormedHistory(await agent.getHistory())).toBe(true);
  return { messages, result: results[0] as SDKResultMessage };
}

/** The cost of `usage` on `model` at the given table (the built-in one by default). */
export function priceOf(
  model: string,
  usage: Usage,
  table: Readonly<Record<string, ModelPricing>> = DEFAULT_PRICING,
): number {
  const pricing = findPricing(model, table);
  if (!pricing) throw new Error(`no price for ${model}`);
  return costOf(usage, pricing);
}

/** Usage with every bucket filled, summed from parts. */
export function sumUsage(...parts: Usage[]): Required<Omit<Usage, "cache_creation">> {
  const total = {
    input_tokens: 0,
    output_tokens: 0,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
  for (const part of parts) {
    total.input_tokens += part.input_tokens;
    total.output_tokens += part.output_tokens;
    total.cache_creation_input_tokens += part.cache_creation_input_tokens ?? 0;
    total.cache_read_input_tokens += part.cache_read_input_tokens ?? 0;
  }
  return total;
}

/** System messages of one subtype. */
export function systemMessages<S extends string>(
  messages: SDKMessage[],
  subtype: S,
): Array<Extract<SDKMessage, { type: "system"; subtype: S }>> {
  return messages.filter(
    (message): message is Extract<SDKMessage, { type: "system"; subtype: S }> =>
      message.type === "system" && message.subtype === subtype,
  );
}
