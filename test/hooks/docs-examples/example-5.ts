import assert from "node:assert/strict";
import { createAgent } from "../../../src/index";
import { createScriptedClient } from "../../../src/testing/index";

const client = createScriptedClient([{ content: "ok" }]);
const agent = createAgent({
  model: "claude-sonnet-4-6",
  client,
  hooks: {
    onModelRequest: [
      {
        handler: ({ request }) => ({
          request: {
            ...request,
            messages: [...request.messages, { role: "assistant", content: [{ type: "text", text: "{" }] }],
          },
        }),
      },
    ],
  },
});

await agent.prompt("Reply in JSON.");
assert.equal(client.requests[0]?.messages.length, 2); // the prefill was sent …
// Role and content of each message (history keeps metadata beside them, such as the prompt's checkpoint).
const turns = (await agent.getHistory()).map(({ role, content }) => ({ role, content }));
assert.deepEqual(turns, [
  { role: "user", content: "Reply in JSON." },
  { role: "assistant", content: [{ type: "text", text: "ok" }] },
]); // … and history never saw it
