import { z } from "zod";
import { createAgent, defineTool } from "../../../src/index";
import { createScriptedClient } from "../../../src/testing/index";

const bash = defineTool({
  name: "bash",
  description: "Run a shell command",
  inputSchema: z.object({ command: z.string() }),
  execute: ({ command }) => `$ ${command}\n(ok)`,
});

// The model first tries something dangerous, then something harmless.
const client = createScriptedClient([
  { content: [{ type: "tool_use", id: "call-1", name: "bash", input: { command: "rm -rf /" } }] },
  { content: [{ type: "tool_use", id: "call-2", name: "bash", input: { command: "ls" } }] },
  { content: "Listed the files instead." },
]);

const agent = createAgent({
  model: "claude-sonnet-4-6",
  client,
  tools: [bash],
  hooks: {
    preToolUse: [
      {
        matcher: "bash",
        handler: ({ input }) => {
          const { command } = input as { command: string };
          if (command.includes("rm -rf")) return { block: true, message: "Bash blocked in production" };
        },
      },
      {
        matcher: /^bash$/,
        timeoutMs: 5_000,
        // Runs only when the first hook did not block; sees its input.
        handler: ({ input }) => ({
          updatedInput: { command: `${(input as { command: string }).command} -la` },
        }),
      },
    ],
    postToolUse: [
      {
        handler: ({ output }) => ({
          updatedOutput:
            typeof output.content === "string"
              ? output.content.replaceAll("ok", "OK")
              : { content: output.content },
        }),
      },
    ],
  },
});

const result = await agent.prompt("Clean up the server.");
console.log(result.result); // "Listed the files instead."
console.log(result.permission_denials); // [{ tool_name: "bash", tool_use_id: "call-1", source: "hook", message: "Bash blocked in production", ... }]
