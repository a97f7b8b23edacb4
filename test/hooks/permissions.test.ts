/**
 * Permissions: the order lists → mode → preToolUse → canUseTool → execute → postToolUse, the three
 * modes, allow/deny lists (names, `*` wildcards, RegExp; deny wins), `canUseTool` decisions and
 * failures, and `permission_denials` on the result.
 */
import { describe, expect, it } from "vitest";
import {
  type AgentOptions,
  type CanUseTool,
  createAgent,
  type Hooks,
  type PermissionDenial,
  type ToolUseBlock,
} from "../../src/index";
import { createScriptedClient } from "../../src/testing";
import { collect, never, resultFor, resultOf, type Trace, textOf, toolUse, workshopTools } from "./support";

/** Hooks and a canUseTool that record themselves in `trace`. */
function tracing(trace: Trace, decide: CanUseTool = async () => ({ behavior: "allow" })) {
  const hooks: Hooks = {
    preToolUse: [{ handler: ({ toolName }) => void trace.push(`preToolUse:${toolName}`) }],
    postToolUse: [{ handler: ({ toolName }) => void trace.push(`postToolUse:${toolName}`) }],
  };
  const canUseTool: CanUseTool = async (toolName, input, context) => {
    trace.push(`canUseTool:${toolName}`);
    return decide(toolName, input, context);
  };
  return { hooks, canUseTool };
}

/** Runs one batch of calls, then a final answer, under `options`; returns what happened. */
async function runBatch(calls: ToolUseBlock[], options: Partial<AgentOptions> = {}, decide?: CanUseTool) {
  const trace: Trace = [];
  const { tools, executions } = workshopTools([], trace);
  const traced = tracing(trace, decide);
  const client = createScriptedClient([{ content: calls }, { content: "done" }]);
  const agent = createAgent({
    model: "m",
    client,
    tools,
    hooks: traced.hooks,
    canUseTool: traced.canUseTool,
    ...options,
  });
  const messages = await collect(agent.query("go"));
  const result = resultOf(messages);
  const history = await agent.getHistory();
  const ran = executions.map((execution) => execution.tool);
  return { trace, executions, ran, result, history, client };
}

const read = (id = "r1") => toolUse(id, "read_file", { path: "notes.txt" });
const write = (id = "w1") => toolUse(id, "write_file", { path: "out.txt", text: "hi" });
const command = (id = "x1") => toolUse(id, "run_command", { command: "make" });

describe("the permission order", () => {
  it("runs preToolUse, then canUseTool, then the tool, then postToolUse", async () => {
    const { trace, result } = await runBatch([write()]);
    expect(result.subtype).toBe("success");
    expect(trace).toEqual([
      "preToolUse:write_file",
      "canUseTool:write_file",
      "execute:write_file",
      "postToolUse:write_file",
    ]);
  });

  it("lists come first: a disallowed call reaches no hook and no canUseTool", async () => {
    const { trace, ran, result } = await runBatch([write()], { disallowedTools: ["write_file"] });
    expect(trace).toEqual([]);
    expect(ran).toEqual([]);
    expect(result.permission_denials.map((denial) => denial.source)).toEqual(["disallowedTools"]);
  });

  it("the mode comes next: a call plan mode refuses reaches no hook and no canUseTool", async () => {
    const { trace, result } = await runBatch([write()], { permissionMode: "plan" });
    expect(trace).toEqual([]);
    expect(result.permission_denials.map((denial) => denial.source)).toEqual(["permissionMode"]);
  });

  it("preToolUse comes before canUseTool: a block means canUseTool is never asked", async () => {
    const trace: Trace = [];
    const traced = tracing(trace);
    const { tools, executions } = workshopTools([], trace);
    const client = createScriptedClient([{ content: [write()] }, { content: "done" }]);
    const agent = createAgent({
      model: "m",
      client,
      tools,
      canUseTool: traced.canUseTool,
      hooks: { preToolUse: [{ handler: () => ({ block: true, message: "no writes today" }) }] },
    });
    const result = await agent.prompt("go");
    expect(trace).toEqual([]);
    expect(executions).toEqual([]);
    expect(result.permission_denials).toMatchObject([{ source: "hook", message: "no writes today" }]);
  });

  it("canUseTool sees the input preToolUse produced; the tool and postToolUse see canUseTool's", async () => {
    const seen: Array<[string, unknown]> = [];
    const { tools, executions } = workshopTools();
    const client = createScriptedClient([{ content: [command()] }, { content: "done" }]);
    const agent = createAgent({
      model: "m",
      client,
      tools,
      hooks: {
        preToolUse: [{ handler: () => ({ updatedInput: { command: "make -n" } }) }],
        postToolUse: [{ handler: ({ input }) => void seen.push(["postToolUse", input]) }],
      },
      canUseTool: async (_name, input) => {
        seen.push(["canUseTool", input]);
        return { behavior: "allow", updatedInput: { command: "make -n --quiet" } };
      },
    });
    await agent.prompt("go");
    expect(seen).toEqual([
      ["canUseTool", { command: "make -n" }],
      ["postToolUse", { command: "make -n --quiet" }],
    ]);
    expect(executions).toEqual([{ tool: "run_command", input: { command: "make -n --quiet" } }]);
  });

  it("a canUseTool denial stops before execute and postToolUse", async () => {
    const { trace, ran } = await runBatch([command()], {}, async () => ({
      behavior: "deny",
      message: "nope",
    }));
    expect(trace).toEqual(["preToolUse:run_command", "canUseTool:run_command"]);
    expect(ran).toEqual([]);
  });
});

describe("permissionMode", () => {
  it("default: canUseTool is asked for tools that are not read-only, never for read-only ones", async () => {
    const { trace, ran } = await runBatch([read(), write(), command()]);
    expect(trace.filter((entry) => entry.startsWith("canUseTool"))).toEqual([
      "canUseTool:write_file",
      "canUseTool:run_command",
    ]);
    expect(ran).toEqual(["read_file", "write_file", "run_command"]);
  });

  it("default without canUseTool: every tool runs", async () => {
    const { tools, executions } = workshopTools();
    const client = createScriptedClient([{ content: [read(), write(), command()] }, { content: "done" }]);
    const agent = createAgent({ model: "m", client, tools });
    const result = await agent.prompt("go");
    expect(executions.map((execution) => execution.tool)).toEqual(["read_file", "write_file", "run_command"]);
    expect(result.permission_denials).toEqual([]);
  });

  it("plan: read-only tools run; others are denied with an explanation the model sees", async () => {
    const { trace, ran, result, history } = await runBatch([read(), write(), command()], {
      permissionMode: "plan",
    });
    expect(ran).toEqual(["read_file"]);
    expect(trace).toEqual(["preToolUse:read_file", "execute:read_file", "postToolUse:read_file"]);
    for (const id of ["w1", "x1"]) {
      const block = resultFor(history, id);
      expect(block.is_error).toBe(true);
      expect(textOf(block)).toMatch(/plan mode/);
      expect(textOf(block)).toMatch(/only read-only tools may run/);
    }
    expect(result.subtype).toBe("success");
    expect(result.permission_denials).toEqual([
      expect.objectContaining({ tool_name: "write_file", tool_use_id: "w1", source: "permissionMode" }),
      expect.objectContaining({ tool_name: "run_command", tool_use_id: "x1", source: "permissionMode" }),
    ]);
  });

  it("plan: allowedTools does not let a tool that is not read-only run", async () => {
    const { ran } = await runBatch([write()], { permissionMode: "plan", allowedTools: ["write_file"] });
    expect(ran).toEqual([]);
  });

  it("bypassPermissions: canUseTool is never asked, hooks still run, disallowedTools still refuse", async () => {
    const { trace, ran, result } = await runBatch([read(), write(), command()], {
      permissionMode: "bypassPermissions",
      disallowedTools: ["run_command"],
    });
    expect(ran).toEqual(["read_file", "write_file"]);
    expect(trace.some((entry) => entry.startsWith("canUseTool"))).toBe(false);
    expect(trace).toContain("preToolUse:write_file");
    expect(result.permission_denials.map((denial) => [denial.tool_name, denial.source])).toEqual([
      ["run_command", "disallowedTools"],
    ]);
  });

  it("bypassPermissions: a preToolUse block still refuses", async () => {
    const { tools, executions } = workshopTools();
    const client = createScriptedClient([{ content: [write()] }, { content: "done" }]);
    const agent = createAgent({
      model: "m",
      client,
      tools,
      permissionMode: "bypassPermissions",
      hooks: { preToolUse: [{ handler: () => ({ block: true, message: "frozen" }) }] },
    });
    const result = await agent.prompt("go");
    expect(executions).toEqual([]);
    expect(result.permission_denials).toMatchObject([{ source: "hook", message: "frozen" }]);
  });
});

describe("allowedTools and disallowedTools", () => {
  it("allowedTools (exact names) run without asking; the rest are asked", async () => {
    const { trace, ran } = await runBatch([write(), command()], { allowedTools: ["write_file"] });
    expect(trace.filter((entry) => entry.startsWith("canUseTool"))).toEqual(["canUseTool:run_command"]);
    expect(ran).toEqual(["write_file", "run_command"]);
  });

  it("allowedTools with * wildcards and RegExp", async () => {
    const wildcard = await runBatch([write(), command()], { allowedTools: ["write_*"] });
    expect(wildcard.trace.filter((entry) => entry.startsWith("canUseTool"))).toEqual([
      "canUseTool:run_command",
    ]);
    const pattern = await runBatch([write(), command()], { allowedTools: [/^run_/] });
    expect(pattern.trace.filter((entry) => entry.startsWith("canUseTool"))).toEqual([
      "canUseTool:write_file",
    ]);
    const everything = await runBatch([write(), command()], { allowedTools: ["*"] });
    expect(everything.trace.filter((entry) => entry.startsWith("canUseTool"))).toEqual([]);
  });

  it("a * wildcard matches whole names only; other characters are literal", async () => {
    const partial = await runBatch([write(), command()], { disallowedTools: ["write"] });
    expect(partial.ran).toEqual(["write_file", "run_command"]);
    const prefixed = await runBatch([read(), write(), command()], { disallowedTools: ["*_file"] });
    expect(prefixed.ran).toEqual(["run_command"]);
    const middle = await runBatch([read(), write(), command()], { disallowedTools: ["r*d_*"] });
    expect(middle.ran).toEqual(["write_file", "run_command"]);
  });

  it("disallowedTools refuses even read-only tools, with a message the model sees", async () => {
    const { ran, history, result } = await runBatch([read(), write()], { disallowedTools: ["read_file"] });
    expect(ran).toEqual(["write_file"]);
    const block = resultFor(history, "r1");
    expect(block.is_error).toBe(true);
    expect(textOf(block)).toMatch(/^Permission denied: .*read_file.*disallowedTools/);
    expect(result.permission_denials).toEqual([
      {
        tool_name: "read_file",
        tool_use_id: "r1",
        tool_input: { path: "notes.txt" },
        source: "disallowedTools",
        message: expect.stringContaining("read_file"),
      },
    ]);
  });

  it("disallowedTools with a global RegExp refuses every matching call, however often it is used", async () => {
    const global = /_file$/g;
    const first = await runBatch([read("r1"), write("w1"), read("r2"), command()], {
      disallowedTools: [global],
    });
    expect(first.ran).toEqual(["run_command"]);
    expect(first.result.permission_denials.map((denial) => denial.tool_use_id)).toEqual(["r1", "w1", "r2"]);
    const second = await runBatch([write("w2"), read("r3")], { disallowedTools: [global] });
    expect(second.ran).toEqual([]);
  });

  it("deny wins over allow, whatever form either takes", async () => {
    const { ran, result } = await runBatch([write(), command()], {
      allowedTools: ["*"],
      disallowedTools: [/^write/],
      permissionMode: "bypassPermissions",
    });
    expect(ran).toEqual(["run_command"]);
    expect(result.permission_denials.map((denial) => denial.source)).toEqual(["disallowedTools"]);
  });
});

describe("canUseTool", () => {
  it("receives the tool name, input, signal and call id", async () => {
    const calls: unknown[] = [];
    await runBatch([command("x9")], {}, async (toolName, input, context) => {
      calls.push({
        toolName,
        input,
        signal: context.signal instanceof AbortSignal,
        toolUseId: context.toolUseId,
      });
      return { behavior: "allow" };
    });
    expect(calls).toEqual([
      { toolName: "run_command", input: { command: "make" }, signal: true, toolUseId: "x9" },
    ]);
  });

  it("allow with updatedInput runs the tool with it, after validating it against the schema", async () => {
    const { executions, history } = await runBatch([write()], {}, async () => ({
      behavior: "allow",
      updatedInput: { path: "safe/out.txt", text: "hi" },
    }));
    expect(executions).toEqual([{ tool: "write_file", input: { path: "safe/out.txt", text: "hi" } }]);
    expect(textOf(resultFor(history, "w1"))).toBe("wrote 2 characters to safe/out.txt");
  });

  it("allow with an updatedInput that fails the schema: error result, the tool not run", async () => {
    const { ran, history, result } = await runBatch([write()], {}, async () => ({
      behavior: "allow",
      updatedInput: { path: "x" },
    }));
    expect(ran).toEqual([]);
    const block = resultFor(history, "w1");
    expect(block.is_error).toBe(true);
    expect(textOf(block)).toMatch(/Invalid input for tool "write_file"/);
    expect(result.subtype).toBe("success");
  });

  it("deny: the model sees the message; the denial is listed", async () => {
    const { ran, history, result, client } = await runBatch([read(), write()], {}, async (toolName) =>
      toolName === "write_file"
        ? { behavior: "deny", message: "Writing is disabled for this user." }
        : { behavior: "allow" },
    );
    expect(ran).toEqual(["read_file"]);
    const block = resultFor(history, "w1");
    expect(block).toEqual({
      type: "tool_result",
      tool_use_id: "w1",
      content: "Permission denied: Writing is disabled for this user.",
      is_error: true,
    });
    expect(JSON.stringify(client.requests[1]!.messages)).toContain("Writing is disabled for this user.");
    expect(result.permission_denials).toEqual([
      {
        tool_name: "write_file",
        tool_use_id: "w1",
        tool_input: { path: "out.txt", text: "hi" },
        source: "canUseTool",
        message: "Writing is disabled for this user.",
      },
    ]);
  });

  it("a throwing canUseTool: error result, the tool not run, the loop goes on", async () => {
    const { ran, history, result, client } = await runBatch([write(), command()], {}, async (toolName) => {
      if (toolName === "write_file") throw new Error("permission service down");
      return { behavior: "allow" };
    });
    expect(ran).toEqual(["run_command"]);
    const block = resultFor(history, "w1");
    expect(block.is_error).toBe(true);
    expect(textOf(block)).toBe(
      'The permission check (canUseTool) for "write_file" failed: permission service down. The call was not run.',
    );
    expect(result.subtype).toBe("success");
    expect(client.callCount).toBe(2);
  });

  it("a decision that is neither allow nor deny fails closed", async () => {
    for (const decision of [undefined, null, false, true, "allow", { behavior: "maybe" }, { allow: true }]) {
      const { ran, history, result } = await runBatch(
        [write()],
        {},
        (async () => decision) as unknown as CanUseTool,
      );
      expect(ran, `decision ${JSON.stringify(decision)}`).toEqual([]);
      const block = resultFor(history, "w1");
      expect(block.is_error).toBe(true);
      expect(textOf(block)).toMatch(/canUseTool.*write_file/);
      expect(result.subtype).toBe("success");
    }
  });

  it("a deny without a message still tells the model which tool was refused", async () => {
    const { history, result } = await runBatch([write()], {}, (async () => ({
      behavior: "deny",
    })) as unknown as CanUseTool);
    const block = resultFor(history, "w1");
    expect(textOf(block)).toMatch(/^Permission denied: .*write_file/);
    expect(result.permission_denials[0]!.message).toMatch(/write_file/);
  });

  it("may answer synchronously", async () => {
    const { ran } = await runBatch([write()], {}, (() => ({
      behavior: "deny",
      message: "sync no",
    })) as CanUseTool);
    expect(ran).toEqual([]);
  });

  it("a canUseTool still waiting (ignoring its signal) when the query is aborted ends the query error_abort", async () => {
    const { tools, executions } = workshopTools();
    const client = createScriptedClient([{ content: [write()] }]);
    const controller = new AbortController();
    const agent = createAgent({
      model: "m",
      client,
      tools,
      canUseTool: () => {
        controller.abort(new Error("user closed the tab"));
        return never();
      },
    });
    const result = await agent.prompt("go", { signal: controller.signal });
    expect(result.subtype).toBe("error_abort");
    expect(executions).toEqual([]);
    const block = resultFor(await agent.getHistory(), "w1");
    expect(block.is_error).toBe(true);
  });
});

describe("permission_denials", () => {
  it("lists every denial of the query in order, with its source, and starts empty for the next query", async () => {
    const trace: Trace = [];
    const { tools } = workshopTools([], trace);
    const client = createScriptedClient([
      { content: [read("r1"), write("w1")] },
      { content: [command("x1"), toolUse("w2", "write_file", { path: "secret.txt", text: "s" })] },
      { content: "done" },
      { content: "second query" },
    ]);
    const agent = createAgent({
      model: "m",
      client,
      tools,
      disallowedTools: ["read_file"],
      hooks: {
        preToolUse: [
          {
            matcher: "write_file",
            handler: ({ input }) =>
              (input as { path: string }).path === "secret.txt"
                ? { block: true, message: "not that file" }
                : {},
          },
        ],
      },
      canUseTool: async (toolName) =>
        toolName === "run_command" ? { behavior: "deny", message: "no shell" } : { behavior: "allow" },
    });
    const result = await agent.prompt("go");
    const expected: PermissionDenial[] = [
      {
        tool_name: "read_file",
        tool_use_id: "r1",
        tool_input: { path: "notes.txt" },
        source: "disallowedTools",
        message: expect.any(String),
      },
      {
        tool_name: "run_command",
        tool_use_id: "x1",
        tool_input: { command: "make" },
        source: "canUseTool",
        message: "no shell",
      },
      {
        tool_name: "write_file",
        tool_use_id: "w2",
        tool_input: { path: "secret.txt", text: "s" },
        source: "hook",
        message: "not that file",
      },
    ];
    expect(result.permission_denials).toEqual(expected);
    expect(trace).toEqual(["execute:write_file"]);

    const next = await agent.prompt("again");
    expect(next.permission_denials).toEqual([]);
  });
});
