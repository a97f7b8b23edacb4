import { createAgent } from "../../../src/index";
import { createScriptedClient } from "../../../src/testing/index";

const client = createScriptedClient([
  { content: "First answer.", usage: { input_tokens: 150_000, output_tokens: 20 } },
  { content: "Summary of the conversation." }, // the compaction request
  { content: "Second answer." },
]);

const agent = createAgent({
  model: "claude-sonnet-4-6",
  client,
  systemPrompt: "You are a release assistant.",
  autoCompact: { thresholdTokens: 100_000, keepRecentMessages: 1 },
  // The option runs first, then the hooks; each may return a replacement for this request only.
  onModelRequest: (request) => ({
    ...request,
    system: `${request.system}\nToday is ${new Date().toDateString()}.`,
  }),
  hooks: {
    onModelRequest: [
      {
        handler: ({ request }) => ({
          request: { ...request, maxTokens: Math.min(request.maxTokens, 2_048) },
        }),
      },
    ],
    preCompact: [
      {
        handler: ({ trigger, messages }) => ({
          customInstructions: `Keep every version number (${trigger}, ${messages.length} messages).`,
        }),
      },
      {
        timeoutMs: 100,
        handler: () => {
          throw new Error("metrics endpoint down");
        },
      },
    ],
  },
});

await agent.prompt("Prepare release 2.4.");
for await (const message of agent.query("And the changelog?")) {
  if (message.type === "system" && message.subtype === "hook_error") {
    console.warn(`${message.hook} hook failed:`, message.error.message);
    // preCompact hook #2 failed: metrics endpoint down — compaction still ran
  }
  if (message.type === "result") console.log(message.result); // "Second answer."
}
// History holds what was sent before the hooks, never their replacements.
console.log((await agent.getHistory()).length);
