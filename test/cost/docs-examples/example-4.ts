import { z } from "zod";
import { type Agent, createAgent, defineTool } from "../../../src/index";
import { createScriptedClient } from "../../../src/testing/index";

let agent: Agent;
const handOff = defineTool({
  name: "hand_off_to_fast_model",
  description: "Call once the hard part is done; later turns run on a cheaper model.",
  inputSchema: z.object({}),
  execute: () => {
    agent.setModel("claude-haiku-4-5");
    return "Later turns run on claude-haiku-4-5.";
  },
});

agent = createAgent({
  model: "claude-opus-4-8",
  tools: [handOff],
  client: createScriptedClient([
    {
      content: [{ type: "tool_use", id: "t1", name: "hand_off_to_fast_model", input: {} }],
      usage: { input_tokens: 20_000, output_tokens: 2_000 },
    },
    { content: "Formatted the report.", usage: { input_tokens: 22_000, output_tokens: 800 } },
  ]),
});

const result = await agent.prompt("Design the schema, then format the report.");
for (const [model, usage] of Object.entries(result.model_usage)) {
  console.log(model, usage.cost_usd.toFixed(4));
}
