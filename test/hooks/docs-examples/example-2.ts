import { createAgent, PromptBlockedError } from "../../../src/index";
import { createScriptedClient } from "../../../src/testing/index";

const client = createScriptedClient([
  { content: "Here is the plan." },
  { content: "Here is the plan, with tests." },
]);

const agent = createAgent({
  model: "claude-sonnet-4-6",
  client,
  maxTurns: 5, // bounds stop-hook continuations too
  hooks: {
    userPromptSubmit: [
      {
        handler: ({ prompt }) =>
          typeof prompt === "string" && /password\s*[:=]/i.test(prompt)
            ? { block: true, message: "Prompts may not contain credentials." }
            : { updatedPrompt: `${String(prompt)}\n\nAnswer in English.` },
      },
    ],
    stop: [
      {
        handler: ({ result, numTurns }) =>
          result.includes("tests") || numTurns >= 3 ? {} : { continueWith: "Add a testing section." },
      },
    ],
  },
});

const blocked = await agent.prompt("my password: hunter2");
console.log(blocked.subtype, blocked.error instanceof PromptBlockedError); // error_during_execution true

const answered = await agent.prompt("Plan the migration.");
console.log(answered.result, answered.num_turns); // "Here is the plan, with tests." 2
