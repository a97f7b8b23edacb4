/**
 * Failures of tool hooks: a `preToolUse` or `postToolUse` hook that throws or runs past its timeout
 * gives that call an error tool_result naming the hook, yields a `hook_error` system message, and the
 * loop goes on.
 */
import { describe, expect, it } from "vitest";
import { createAgent } from "../../src/index";
import { createScriptedClient } from "../../src/testing";
import {
  collect,
  deferred,
  hookErrors,
  resultFor,
  resultOf,
  textOf,
  toolUse,
  workshopTools,
} from "./support";

describe("preToolUse failures", () => {
  it("a throwing hook: error result naming it, the call not run, the other calls and the loop go on", async () => {
    const { tools, executions } = workshopTools();
    const asked: string[] = [];
    const client = createScriptedClient([
      {
        content: [
          toolUse("c1", "run_command", { command: "make" }),
          toolUse("c2", "write_file", { path: "a", text: "t" }),
        ],
      },
      { content: "recovered" },
    ]);
    const agent = createAgent({
      model: "m",
      client,
      tools,
      canUseTool: async (toolName) => {
        asked.push(toolName);
        return { behavior: "allow" };
      },
      hooks: {
        preToolUse: [
          { handler: () => ({}) },
          {
            matcher: "run_command",
            handler: () => {
              throw new Error("audit log unavailable");
            },
          },
          {
            handler: ({ toolName }) => ({
              updatedInput: toolName === "run_command" ? { command: "x" } : undefined,
            }),
          },
        ],
      },
    });
    const messages = await collect(agent.query("build"));
    const result = resultOf(messages);
    expect(result.subtype).toBe("success");
    expect(result.result).toBe("recovered");
    expect(client.callCount).toBe(2);

    const history = await agent.getHistory();
    const failed = resultFor(history, "c1");
    expect(failed.is_error).toBe(true);
    expect(textOf(failed)).toBe(
      "preToolUse hook #2 (matcher run_command) failed: audit log unavailable. The call was not run.",
    );
    expect(textOf(resultFor(history, "c2"))).toBe("wrote 1 characters to a");
    expect(executions.map((execution) => execution.tool)).toEqual(["write_file"]);
    expect(asked).toEqual(["write_file"]);

    const errors = hookErrors(messages);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.hook).toBe("preToolUse");
    expect(errors[0]!.error.name).toBe("HookFailure");
    expect((errors[0]!.error.cause as Error).message).toBe("audit log unavailable");
    // A failure is not a permission decision.
    expect(result.permission_denials).toEqual([]);
  });

  it("a hook past its timeoutMs: error result naming it, the call not run", async () => {
    const { tools, executions } = workshopTools();
    const late = deferred<{ block: boolean }>();
    const client = createScriptedClient([
      { content: [toolUse("c1", "run_command", { command: "make" })] },
      { content: "ok" },
    ]);
    const agent = createAgent({
      model: "m",
      client,
      tools,
      hooks: { preToolUse: [{ matcher: /^run_/, timeoutMs: 25, handler: () => late.promise }] },
    });
    const messages = await collect(agent.query("build"));
    expect(resultOf(messages).subtype).toBe("success");
    expect(executions).toEqual([]);
    expect(textOf(resultFor(await agent.getHistory(), "c1"))).toBe(
      "preToolUse hook #1 (matcher /^run_/) failed: timed out after 25 ms. The call was not run.",
    );
    expect(hookErrors(messages)).toHaveLength(1);
    // Settling after the timeout changes nothing.
    late.resolve({ block: true });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(resultFor(await agent.getHistory(), "c1").is_error).toBe(true);
  });

  it("a hook that throws a non-Error value is described by that value", async () => {
    const { tools } = workshopTools();
    const client = createScriptedClient([
      { content: [toolUse("c1", "read_file", { path: "a" })] },
      { content: "ok" },
    ]);
    const agent = createAgent({
      model: "m",
      client,
      tools,
      hooks: {
        preToolUse: [
          {
            handler: () => {
              throw "plain string";
            },
          },
        ],
      },
    });
    await agent.prompt("go");
    expect(textOf(resultFor(await agent.getHistory(), "c1"))).toBe(
      "preToolUse hook #1 failed: plain string. The call was not run.",
    );
  });

  it("a hook rejecting after its timeout leaves no unhandled rejection", async () => {
    const { tools } = workshopTools();
    const late = deferred<void>();
    const client = createScriptedClient([
      { content: [toolUse("c1", "read_file", { path: "a" })] },
      { content: "ok" },
    ]);
    const agent = createAgent({
      model: "m",
      client,
      tools,
      hooks: {
        preToolUse: [
          {
            timeoutMs: 20,
            handler: async () => {
              await late.promise;
              throw new Error("too late to matter");
            },
          },
        ],
      },
    });
    const result = await agent.prompt("go");
    expect(result.subtype).toBe("success");
    late.resolve();
    // vitest fails the run on an unhandled rejection; give it a chance to surface.
    await new Promise((resolve) => setTimeout(resolve, 10));
  });
});

describe("tool hooks and the query's signal", () => {
  it("a preToolUse hook still running when the query is aborted: the call is cancelled, the query ends error_abort", async () => {
    const { tools, executions } = workshopTools();
    const controller = new AbortController();
    const client = createScriptedClient([{ content: [toolUse("c1", "run_command", { command: "deploy" })] }]);
    const agent = createAgent({
      model: "m",
      client,
      tools,
      hooks: {
        preToolUse: [
          {
            // Waits on a human; the default 60 s timeout must not hold the abort back.
            handler: () => {
              controller.abort(new Error("operator pressed stop"));
              return new Promise(() => {});
            },
          },
        ],
      },
    });
    const messages = await collect(agent.query("ship it", { signal: controller.signal }));
    expect(resultOf(messages).subtype).toBe("error_abort");
    expect(executions).toEqual([]);
    const block = resultFor(await agent.getHistory(), "c1");
    expect(block.is_error).toBe(true);
    expect(textOf(block)).toMatch(/cancelled because the query was aborted/);
    expect(hookErrors(messages)).toEqual([]);
  });
});

describe("postToolUse failures", () => {
  it("a throwing hook: the tool ran, the call's result is an error naming the hook", async () => {
    const { tools, executions } = workshopTools();
    const client = createScriptedClient([
      {
        content: [
          toolUse("c1", "write_file", { path: "a", text: "hello" }),
          toolUse("c2", "read_file", { path: "b" }),
        ],
      },
      { content: "ok" },
    ]);
    const agent = createAgent({
      model: "m",
      client,
      tools,
      hooks: {
        postToolUse: [
          {
            matcher: "write_file",
            handler: () => {
              throw new RangeError("formatter crashed");
            },
          },
        ],
      },
    });
    const messages = await collect(agent.query("go"));
    expect(resultOf(messages).subtype).toBe("success");
    expect(executions.map((execution) => execution.tool)).toEqual(["write_file", "read_file"]);
    const history = await agent.getHistory();
    const failed = resultFor(history, "c1");
    expect(failed.is_error).toBe(true);
    expect(textOf(failed)).toMatch(
      /^postToolUse hook #1 \(matcher write_file\) failed: formatter crashed\. The tool did run/,
    );
    expect(textOf(resultFor(history, "c2"))).toBe("contents of b");
    expect(hookErrors(messages).map((error) => error.hook)).toEqual(["postToolUse"]);
    expect(client.callCount).toBe(2);
  });

  it("a hook past its timeoutMs: error result naming it, later hooks do not run", async () => {
    const { tools } = workshopTools();
    const later: string[] = [];
    const client = createScriptedClient([
      { content: [toolUse("c1", "read_file", { path: "a" })] },
      { content: "ok" },
    ]);
    const agent = createAgent({
      model: "m",
      client,
      tools,
      hooks: {
        postToolUse: [
          { handler: () => ({ updatedOutput: "rewritten once" }) },
          { timeoutMs: 20, handler: () => new Promise(() => {}) },
          { handler: () => void later.push("ran") },
        ],
      },
    });
    const messages = await collect(agent.query("go"));
    expect(resultOf(messages).subtype).toBe("success");
    expect(later).toEqual([]);
    const block = resultFor(await agent.getHistory(), "c1");
    expect(block.is_error).toBe(true);
    // The output is withheld: a failing postToolUse hook may be the one that redacts secrets.
    expect(textOf(block)).toBe(
      "postToolUse hook #2 failed: timed out after 20 ms. The tool did run, but its output was withheld because the hook could not check it.",
    );
    expect(textOf(block)).not.toContain("rewritten once");
    expect(hookErrors(messages)).toHaveLength(1);
  });
});
