import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ToolResultBlock, UserModelMessage } from "../../src/index";
import { createAgent } from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { createWorkspaceTools } from "../../src/workspace-tools/index";
import { createSandbox, survivorsOf, waitForPids } from "./helpers";

function toolResultsOf(message: UserModelMessage): ToolResultBlock[] {
  return (message.content as ToolResultBlock[]).filter((block) => block.type === "tool_result");
}

describe("workspace tools inside the agent loop", () => {
  it("answer a batch of reads, an escape attempt and an edit with tool_results in call order", async () => {
    const sandbox = createSandbox();
    sandbox.write("src/app.ts", "const greeting = 'hi';\n");
    const client = createScriptedClient([
      {
        content: [
          { type: "tool_use", id: "t1", name: "glob", input: { pattern: "**/*.ts" } },
          { type: "tool_use", id: "t2", name: "read_file", input: { path: "../outside/secret.txt" } },
          { type: "tool_use", id: "t3", name: "grep", input: { pattern: "greeting" } },
          {
            type: "tool_use",
            id: "t4",
            name: "edit_file",
            input: { path: "src/app.ts", old_string: "'hi'", new_string: "'hello'" },
          },
        ],
      },
      { content: "Done." },
    ]);
    const agent = createAgent({
      model: "test-model",
      client,
      tools: createWorkspaceTools({ root: sandbox.root }),
    });
    const result = await agent.prompt("Rename the greeting.");
    expect(result.subtype).toBe("success");
    const fed = client.requests[1]!.messages.at(-1) as UserModelMessage;
    expect(
      toolResultsOf(fed).map(({ tool_use_id, content, is_error }) => ({
        tool_use_id,
        content,
        is_error: is_error ?? false,
      })),
    ).toEqual([
      { tool_use_id: "t1", content: "src/app.ts", is_error: false },
      {
        tool_use_id: "t2",
        content: `Path "../outside/secret.txt" climbs out (through "..") of the workspace root ${sandbox.root}. Use a path relative to the root, inside it.`,
        is_error: true,
      },
      { tool_use_id: "t3", content: "src/app.ts:1: const greeting = 'hi';", is_error: false },
      { tool_use_id: "t4", content: 'Replaced 1 occurrence in "src/app.ts" (line 1).', is_error: false },
    ]);
    expect(sandbox.read("src/app.ts")).toBe("const greeting = 'hello';\n");
  });

  it("aborting the query kills a running bash command's process group", async () => {
    const sandbox = createSandbox();
    const client = createScriptedClient([
      {
        content: [
          {
            type: "tool_use",
            id: "b1",
            name: "bash",
            input: { command: "sleep 1000 & echo $! > pid; wait" },
          },
        ],
      },
    ]);
    const agent = createAgent({
      model: "test-model",
      client,
      tools: createWorkspaceTools({ root: sandbox.root, allowBash: true }),
    });
    const controller = new AbortController();
    const pending = agent.prompt("Wait forever.", { signal: controller.signal });
    const [pid] = await waitForPids(path.join(sandbox.root, "pid"), 1);
    controller.abort();
    const result = await pending;
    expect(result.subtype).toBe("error_abort");
    expect(await survivorsOf([pid!])).toEqual([]);
  });
});
