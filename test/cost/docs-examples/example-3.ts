import { createAgent, DEFAULT_PRICING } from "../../../src/index";
import { createScriptedClient } from "../../../src/testing/index";

// Your prices win over the built-in table; models you add are priced too.
const pricing = {
  "claude-sonnet-4-6": DEFAULT_PRICING["claude-sonnet-4-6"]!,
  "acme-llm-large": { inputPerMTok: 0.9, outputPerMTok: 2.7, cacheWritePerMTok: 0.9, cacheReadPerMTok: 0.09 },
};

const agent = createAgent({
  model: "acme-llm-large",
  client: createScriptedClient([
    { content: "Step one done.", usage: { input_tokens: 120_000, output_tokens: 4_000 } },
  ]),
  pricing,
  maxBudgetUsd: 0.5,
});

const result = await agent.prompt("Plan the migration.");
console.log(result.subtype, result.total_cost_usd.toFixed(4));
console.log(result.model_usage["acme-llm-large"]);
