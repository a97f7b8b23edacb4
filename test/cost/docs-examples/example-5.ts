import { createAgent } from "../../../src/index";
import { createScriptedClient } from "../../../src/testing/index";

const agent = createAgent({
  model: "claude-sonnet-4-6",
  maxTokens: 1_024,
  maxTokensContinuations: 2,
  client: createScriptedClient([
    { content: "The three causes were: first, ", stop_reason: "max_tokens" },
    { content: "a stale cache; second, a race; ", stop_reason: "max_tokens" },
    { content: "third, a missing index." },
  ]),
});

const result = await agent.prompt("Write up the incident.");
console.log(result.num_turns, result.stop_reason);
console.log(result.result);
