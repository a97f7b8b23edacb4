/**
 * `preToolUse`: registration order, chained `updatedInput`, the first `block` stopping the chain,
 * and re-validation of a rewritten input.
 */
import { describe, expect, it } from "vitest";
import { createAgent } from "../../src/index";
import { createScriptedClient } from "../../src/testing";
import { collect, hookErrors, resultFor, resultOf, textOf, toolUse, workshopTools } from "./support";

describe("preToolUse", () => {
  it("passes the tool name, input, call id and the query signal", async () => {
    const { tools } = workshopTools();
    const seen: unknown[] = [];
    const client = createScriptedClient([
      { content: [toolUse("call-1", "run_command", { command: "ls" })] },
      { content: "ok" },
    ]);
    const agent = createAgent({
      model: "m",
      client,
      tools,
      hooks: {
        preToolUse: [
          {
            handler: (input) => {
              seen.push({ ...input, signal: input.signal instanceof AbortSignal });
            },
          },
        ],
      },
    });
    await agent.prompt("go");
    expect(seen).toEqual([
      { toolName: "run_command", input: { command: "ls" }, toolUseId: "call-1", signal: true },
    ]);
  });

  it("runs hooks in registration order, each seeing the input the previous one produced", async () => {
    const { tools, executions } = workshopTools();
    const order: string[] = [];
    const client = createScriptedClient([
      { content: [toolUse("c1", "run_command", { command: "ls" })] },
      { content: "ok" },
    ]);
    const agent = createAgent({
      model: "m",
      client,
      tools,
      hooks: {
        preToolUse: [
          {
            handler: ({ input }) => {
              order.push(`first saw ${(input as { command: string }).command}`);
              return { updatedInput: { command: "ls -la" } };
            },
          },
          {
            matcher: "read_file",
            handler: () => {
              order.push("not matched");
              return { updatedInput: { path: "wrong" } };
            },
          },
          {
            handler: async ({ input }) => {
              order.push(`second saw ${(input as { command: string }).command}`);
              return { updatedInput: { command: `${(input as { command: string }).command} /tmp` } };
            },
          },
          {
            handler: ({ input }) => {
              order.push(`third saw ${(input as { command: string }).command}`);
              return {};
            },
          },
        ],
      },
    });
    const result = await agent.prompt("go");
    expect(result.subtype).toBe("success");
    expect(order).toEqual(["first saw ls", "second saw ls -la", "third saw ls -la /tmp"]);
    expect(executions).toEqual([{ tool: "run_command", input: { command: "ls -la /tmp" } }]);
    const history = await agent.getHistory();
    expect(textOf(resultFor(history, "c1"))).toBe("ran ls -la /tmp");
    // History keeps the call the model made.
    expect(history[1]).toMatchObject({ content: [{ type: "tool_use", input: { command: "ls" } }] });
  });

  it("blocks a call with a message the model sees; the first block stops the chain", async () => {
    const { tools, executions } = workshopTools();
    const later: string[] = [];
    const client = createScriptedClient([
      { content: [toolUse("c1", "run_command", { command: "rm -rf /" })] },
      { content: "I will not do that." },
    ]);
    const agent = createAgent({
      model: "m",
      client,
      tools,
      hooks: {
        preToolUse: [
          { matcher: "run_command", handler: () => ({ block: true, message: "Bash blocked in production" }) },
          {
            handler: () => {
              later.push("ran");
              return { block: false };
            },
          },
        ],
      },
    });
    const messages = await collect(agent.query("clean up"));
    const result = resultOf(messages);
    expect(result.subtype).toBe("success");
    expect(executions).toEqual([]);
    expect(later).toEqual([]);
    const block = resultFor(await agent.getHistory(), "c1");
    expect(block.is_error).toBe(true);
    expect(textOf(block)).toContain("Bash blocked in production");
    // The model saw it on the next request.
    const second = client.requests[1]!;
    expect(JSON.stringify(second.messages.at(-1))).toContain("Bash blocked in production");
    expect(result.permission_denials).toEqual([
      {
        tool_name: "run_command",
        tool_use_id: "c1",
        tool_input: { command: "rm -rf /" },
        source: "hook",
        message: "Bash blocked in production",
      },
    ]);
  });

  it("a block without a message still tells the model which tool was blocked", async () => {
    const { tools } = workshopTools();
    const client = createScriptedClient([
      { content: [toolUse("c1", "run_command", { command: "x" })] },
      { content: "ok" },
    ]);
    const agent = createAgent({
      model: "m",
      client,
      tools,
      hooks: { preToolUse: [{ handler: () => ({ block: true }) }] },
    });
    await agent.prompt("go");
    const block = resultFor(await agent.getHistory(), "c1");
    expect(block.is_error).toBe(true);
    expect(textOf(block)).toContain("run_command");
  });

  it("a block after an updatedInput records the rewritten input on the denial", async () => {
    const { tools, executions } = workshopTools();
    const client = createScriptedClient([
      { content: [toolUse("c1", "run_command", { command: "x" })] },
      { content: "ok" },
    ]);
    const agent = createAgent({
      model: "m",
      client,
      tools,
      hooks: {
        preToolUse: [
          { handler: () => ({ updatedInput: { command: "y" } }) },
          {
            handler: ({ input }) => ({
              block: (input as { command: string }).command === "y",
              message: "no y",
            }),
          },
        ],
      },
    });
    const result = await agent.prompt("go");
    expect(executions).toEqual([]);
    expect(result.permission_denials).toMatchObject([
      { tool_input: { command: "y" }, source: "hook", message: "no y" },
    ]);
  });

  it("re-validates an updatedInput against the tool's schema", async () => {
    const { tools, executions } = workshopTools();
    const client = createScriptedClient([
      { content: [toolUse("c1", "write_file", { path: "a", text: "t" })] },
      { content: "ok" },
    ]);
    const agent = createAgent({
      model: "m",
      client,
      tools,
      hooks: { preToolUse: [{ handler: () => ({ updatedInput: { path: 42 } }) }] },
    });
    const messages = await collect(agent.query("go"));
    expect(resultOf(messages).subtype).toBe("success");
    expect(executions).toEqual([]);
    const block = resultFor(await agent.getHistory(), "c1");
    expect(block.is_error).toBe(true);
    expect(textOf(block)).toMatch(/Invalid input for tool "write_file"/);
    expect(hookErrors(messages)).toEqual([]);
  });

  it("does not run for a call whose input fails the schema or names an unknown tool", async () => {
    const { tools } = workshopTools();
    const seen: string[] = [];
    const client = createScriptedClient([
      { content: [toolUse("c1", "write_file", { path: 1 }), toolUse("c2", "no_such_tool", {})] },
      { content: "ok" },
    ]);
    const agent = createAgent({
      model: "m",
      client,
      tools,
      hooks: { preToolUse: [{ handler: ({ toolName }) => void seen.push(toolName) }] },
    });
    await agent.prompt("go");
    expect(seen).toEqual([]);
    const history = await agent.getHistory();
    expect(resultFor(history, "c1").is_error).toBe(true);
    expect(textOf(resultFor(history, "c2"))).toMatch(/Unknown tool "no_such_tool"/);
  });
});
