import { z } from "zod";
import { type CanUseTool, createAgent, defineTool } from "../../../src/index";
import { createScriptedClient } from "../../../src/testing/index";

const readFile = defineTool({
  name: "read_file",
  inputSchema: z.object({ path: z.string() }),
  readOnly: true,
  execute: ({ path }) => `contents of ${path}`,
});
const writeFile = defineTool({
  name: "write_file",
  inputSchema: z.object({ path: z.string(), text: z.string() }),
  execute: ({ path, text }) => `wrote ${text.length} characters to ${path}`,
});
const deploy = defineTool({
  name: "deploy",
  inputSchema: z.object({ environment: z.enum(["staging", "production"]) }),
  execute: ({ environment }) => `deployed to ${environment}`,
});

// Stands in for a real review UI: the signal tells you when to stop waiting for a human.
const canUseTool: CanUseTool = async (toolName, input, { signal, toolUseId }) => {
  if (signal.aborted) return { behavior: "deny", message: "The session ended." };
  if (toolName === "write_file") {
    const { path, text } = input as { path: string; text: string };
    if (!path.startsWith("src/"))
      return { behavior: "deny", message: `Only files under src/ may be written (${toolUseId}).` };
    return { behavior: "allow", updatedInput: { path, text: text.trimEnd() + "\n" } };
  }
  return { behavior: "allow" };
};

const client = createScriptedClient([
  {
    content: [
      { type: "tool_use", id: "r1", name: "read_file", input: { path: "README.md" } },
      { type: "tool_use", id: "w1", name: "write_file", input: { path: "/etc/hosts", text: "x" } },
      { type: "tool_use", id: "w2", name: "write_file", input: { path: "src/a.ts", text: "export {};  " } },
      { type: "tool_use", id: "d1", name: "deploy", input: { environment: "production" } },
    ],
  },
  { content: "Done: README read, src/a.ts written; the rest was refused." },
]);

const agent = createAgent({
  model: "claude-sonnet-4-6",
  client,
  tools: [readFile, writeFile, deploy],
  permissionMode: "default",
  allowedTools: ["read_*"],
  disallowedTools: [/^deploy$/],
  canUseTool,
});

const result = await agent.prompt("Update the project.");
for (const denial of result.permission_denials) {
  console.log(`${denial.tool_name} (${denial.tool_use_id}) refused by ${denial.source}: ${denial.message}`);
}
// write_file (w1) refused by canUseTool: Only files under src/ may be written (w1).
// deploy (d1) refused by disallowedTools: The tool "deploy" is not allowed in this session (disallowedTools).

// The same agent in plan mode would only read:
const planner = createAgent({
  model: "claude-sonnet-4-6",
  client: createScriptedClient([
    { content: [{ type: "tool_use", id: "w3", name: "write_file", input: { path: "src/b.ts", text: "" } }] },
    { content: "I would create src/b.ts." },
  ]),
  tools: [readFile, writeFile],
  permissionMode: "plan",
});
const plan = await planner.prompt("Add src/b.ts.");
console.log(plan.permission_denials[0]?.source); // "permissionMode"
