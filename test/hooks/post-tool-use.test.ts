/**
 * `postToolUse`: what it receives, `updatedOutput` chained in registration order, and results that
 * were errors in the first place.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent, defineTool, type ToolResultBlock } from "../../src/index";
import { createScriptedClient } from "../../src/testing";
import { resultFor, textOf, toolUse, workshopTools } from "./support";

describe("postToolUse", () => {
  it("receives the call and its result; chained updatedOutput replaces what the model sees", async () => {
    const { tools } = workshopTools();
    const seen: Array<{ toolName: string; input: unknown; toolUseId: string; output: ToolResultBlock }> = [];
    const client = createScriptedClient([
      { content: [toolUse("c1", "read_file", { path: "notes.txt" })] },
      { content: "ok" },
    ]);
    const agent = createAgent({
      model: "m",
      client,
      tools,
      hooks: {
        postToolUse: [
          {
            handler: (input) => {
              seen.push(structuredClone(input));
              return { updatedOutput: `${textOf(input.output)} [checked]` };
            },
          },
          { matcher: "write_file", handler: () => ({ updatedOutput: "never" }) },
          {
            handler: (input) => {
              seen.push(structuredClone(input));
              return {
                updatedOutput: { content: [{ type: "text", text: `${textOf(input.output)} [signed]` }] },
              };
            },
          },
          { handler: () => ({}) },
        ],
      },
    });
    const result = await agent.prompt("read it");
    expect(result.subtype).toBe("success");
    expect(seen).toEqual([
      {
        toolName: "read_file",
        input: { path: "notes.txt" },
        toolUseId: "c1",
        output: { type: "tool_result", tool_use_id: "c1", content: "contents of notes.txt" },
      },
      {
        toolName: "read_file",
        input: { path: "notes.txt" },
        toolUseId: "c1",
        output: { type: "tool_result", tool_use_id: "c1", content: "contents of notes.txt [checked]" },
      },
    ]);
    expect(resultFor(await agent.getHistory(), "c1")).toEqual({
      type: "tool_result",
      tool_use_id: "c1",
      content: [{ type: "text", text: "contents of notes.txt [checked] [signed]" }],
    });
  });

  it("sees the input the call actually ran with, after preToolUse rewrote it", async () => {
    const { tools } = workshopTools();
    const inputs: unknown[] = [];
    const client = createScriptedClient([
      { content: [toolUse("c1", "run_command", { command: "ls" })] },
      { content: "ok" },
    ]);
    const agent = createAgent({
      model: "m",
      client,
      tools,
      hooks: {
        preToolUse: [{ handler: () => ({ updatedInput: { command: "ls -1" } }) }],
        postToolUse: [{ handler: ({ input }) => void inputs.push(input) }],
      },
    });
    await agent.prompt("go");
    expect(inputs).toEqual([{ command: "ls -1" }]);
  });

  it("runs on error results too, and can turn them into successes or successes into errors", async () => {
    const failing = defineTool({
      name: "flaky",
      inputSchema: z.object({}),
      execute: () => {
        throw new Error("disk on fire");
      },
    });
    const { tools } = workshopTools();
    const client = createScriptedClient([
      { content: [toolUse("c1", "flaky", {}), toolUse("c2", "read_file", { path: "x" })] },
      { content: "ok" },
    ]);
    const agent = createAgent({
      model: "m",
      client,
      tools: [...tools, failing],
      hooks: {
        postToolUse: [
          {
            handler: ({ output, toolName }) =>
              toolName === "flaky"
                ? { updatedOutput: `recovered from: ${textOf(output)} (was error: ${output.is_error})` }
                : { updatedOutput: { content: "hidden by policy", isError: true } },
          },
        ],
      },
    });
    await agent.prompt("go");
    const history = await agent.getHistory();
    const flaky = resultFor(history, "c1");
    expect(flaky.is_error).toBeUndefined();
    expect(textOf(flaky)).toMatch(/^recovered from: .*disk on fire.*\(was error: true\)$/);
    expect(resultFor(history, "c2")).toEqual({
      type: "tool_result",
      tool_use_id: "c2",
      content: "hidden by policy",
      is_error: true,
    });
  });

  it("can end the turn with endTurn in its updatedOutput", async () => {
    const { tools } = workshopTools();
    const client = createScriptedClient([{ content: [toolUse("c1", "read_file", { path: "x" })] }]);
    const agent = createAgent({
      model: "m",
      client,
      tools,
      hooks: { postToolUse: [{ handler: () => ({ updatedOutput: { content: "final", endTurn: true } }) }] },
    });
    const result = await agent.prompt("go");
    expect(result.subtype).toBe("success");
    expect(result.result).toBe("final");
    expect(client.callCount).toBe(1);
  });
});
