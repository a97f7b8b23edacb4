/**
 * Matcher forms of tool hooks: none, `*`, an exact name, a RegExp (a global one too, used again and
 * again), and matchers on events that have no tool.
 */
import { describe, expect, it } from "vitest";
import { matchesTool } from "../../src/hooks/run-hooks";
import {
  createAgent,
  type HookMatcher,
  InvalidOptionError,
  type PreToolUseInput,
  type PreToolUseOutput,
} from "../../src/index";
import { createScriptedClient } from "../../src/testing";
import { workshopTools } from "./support";

/** Runs one turn calling every workshop tool once, then a final answer; returns who saw which call. */
async function toolsSeenBy(matcher: string | RegExp | undefined): Promise<string[]> {
  const seen: string[] = [];
  const hook: HookMatcher<PreToolUseInput, PreToolUseOutput> = {
    handler: ({ toolName }) => {
      seen.push(toolName);
    },
  };
  if (matcher !== undefined) hook.matcher = matcher;
  const { tools } = workshopTools();
  const client = createScriptedClient([
    {
      content: [
        { type: "tool_use", id: "c1", name: "read_file", input: { path: "a" } },
        { type: "tool_use", id: "c2", name: "write_file", input: { path: "b", text: "x" } },
        { type: "tool_use", id: "c3", name: "run_command", input: { command: "ls" } },
        { type: "tool_use", id: "c4", name: "read_file", input: { path: "c" } },
      ],
    },
    { content: "done" },
  ]);
  const agent = createAgent({ model: "m", client, tools, hooks: { preToolUse: [hook] } });
  const result = await agent.prompt("go");
  expect(result.subtype).toBe("success");
  return seen;
}

describe("tool hook matchers", () => {
  it("runs a hook without matcher for every tool", async () => {
    expect(await toolsSeenBy(undefined)).toEqual(["read_file", "write_file", "run_command", "read_file"]);
  });

  it('runs a hook with matcher "*" for every tool', async () => {
    expect(await toolsSeenBy("*")).toEqual(["read_file", "write_file", "run_command", "read_file"]);
  });

  it("treats a string matcher as an exact tool name, not a substring or a pattern", async () => {
    expect(await toolsSeenBy("write_file")).toEqual(["write_file"]);
    expect(await toolsSeenBy("write")).toEqual([]);
    // A pattern written as a string could never match: it is refused when the agent is created.
    await expect(toolsSeenBy("read_.*")).rejects.toThrow(InvalidOptionError);
  });

  it("tests a RegExp matcher against the tool name", async () => {
    expect(await toolsSeenBy(/_file$/)).toEqual(["read_file", "write_file", "read_file"]);
    expect(await toolsSeenBy(/^run_/)).toEqual(["run_command"]);
  });

  it("matches with a global RegExp on every call, however often it is used", async () => {
    const global = /file/g;
    expect(await toolsSeenBy(global)).toEqual(["read_file", "write_file", "read_file"]);
    // The same object again: a stale lastIndex must not make it miss.
    expect(await toolsSeenBy(global)).toEqual(["read_file", "write_file", "read_file"]);
    const sticky = /read_file/y;
    expect(await toolsSeenBy(sticky)).toEqual(["read_file", "read_file"]);
  });

  it("matchesTool resets lastIndex before each test", () => {
    const global = /a/g;
    expect(matchesTool(global, "a")).toBe(true);
    expect(global.lastIndex).toBe(1);
    expect(matchesTool(global, "a")).toBe(true);
    expect(matchesTool(global, "b")).toBe(false);
  });
});

describe("matchers on events without a tool", () => {
  it("ignores the matcher of userPromptSubmit, stop, preCompact and onModelRequest hooks", async () => {
    const ran: string[] = [];
    const client = createScriptedClient([{ content: "answer" }]);
    const agent = createAgent({
      model: "m",
      client,
      hooks: {
        userPromptSubmit: [{ matcher: "run_command", handler: () => void ran.push("userPromptSubmit") }],
        onModelRequest: [{ matcher: /nothing/, handler: () => void ran.push("onModelRequest") }],
        stop: [{ matcher: "read_file", handler: () => void ran.push("stop") }],
      },
    });
    const result = await agent.prompt("hello");
    expect(result.subtype).toBe("success");
    expect(ran).toEqual(["userPromptSubmit", "onModelRequest", "stop"]);
  });
});
