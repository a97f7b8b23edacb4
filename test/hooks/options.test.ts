/**
 * Hook and permission options are checked once, when the agent is created: a mistake there would
 * otherwise fail, or be skipped, silently on every call.
 */
import { describe, expect, it } from "vitest";
import { type AgentOptions, createAgent, InvalidOptionError } from "../../src/index";
import { createScriptedClient } from "../../src/testing";

function create(options: Partial<AgentOptions>) {
  return () => createAgent({ model: "m", client: createScriptedClient([]), ...options });
}

describe("hook options", () => {
  it("accepts every event with handlers, matchers and timeouts", () => {
    expect(
      create({
        hooks: {
          preToolUse: [
            { matcher: "a", handler: () => {} },
            { matcher: /b/, timeoutMs: 1, handler: () => {} },
          ],
          postToolUse: [{ matcher: "*", handler: () => {} }],
          // Events without a tool ignore their matcher: it is not checked.
          userPromptSubmit: [{ matcher: "any|thing", handler: () => {} }],
          preCompact: [{ handler: () => {} }],
          stop: undefined,
          onModelRequest: [{ timeoutMs: 2_147_483_647, handler: () => {} }],
        },
      }),
    ).not.toThrow();
  });

  it.each([
    ["an unknown event", { PreToolUse: [{ handler: () => {} }] }, /hooks\.PreToolUse is not a hook event/],
    ["an event that is not an array", { stop: { handler: () => {} } }, /hooks\.stop must be an array/],
    ["a hook without handler", { preToolUse: [{ matcher: "x" }] }, /hooks\.preToolUse\[0\] needs a handler/],
    ["a matcher of the wrong type", { postToolUse: [{ matcher: 3, handler: () => {} }] }, /matcher must be/],
    [
      "timeoutMs 0",
      { stop: [{ timeoutMs: 0, handler: () => {} }] },
      /hooks\.stop\[0\]\.timeoutMs must be a positive integer/,
    ],
    [
      "timeoutMs Infinity",
      { stop: [{ timeoutMs: Number.POSITIVE_INFINITY, handler: () => {} }] },
      /timeoutMs/,
    ],
    [
      "timeoutMs past a timer's range",
      { stop: [{ timeoutMs: 2_147_483_648, handler: () => {} }] },
      /timeoutMs/,
    ],
    ["timeoutMs not an integer", { stop: [{ timeoutMs: 1.5, handler: () => {} }] }, /timeoutMs/],
    // Tool names hold only letters, digits, _ and -: these strings could never match, so the hook
    // (an audit, a guard) would silently never run.
    [
      "a string matcher written as a regular expression",
      { preToolUse: [{ matcher: "Edit|Write", handler: () => {} }] },
      /hooks\.preToolUse\[0\]\.matcher "Edit\|Write" can never match a tool name.*RegExp/,
    ],
    [
      "a string matcher with a wildcard",
      { postToolUse: [{ matcher: "mcp__github__*", handler: () => {} }] },
      /hooks\.postToolUse\[0\]\.matcher "mcp__github__\*" can never match/,
    ],
    ["an empty string matcher", { preToolUse: [{ matcher: "", handler: () => {} }] }, /can never match/],
  ])("rejects %s", (_label, hooks, message) => {
    const attempt = create({ hooks: hooks as AgentOptions["hooks"] });
    expect(attempt).toThrow(InvalidOptionError);
    expect(attempt).toThrow(message);
  });
});

describe("permission options", () => {
  it("accepts the three modes and lists of names, patterns and RegExps", () => {
    for (const permissionMode of ["default", "plan", "bypassPermissions"] as const) {
      expect(
        create({ permissionMode, allowedTools: ["a", "b_*", "*", "*_file", /c/], disallowedTools: ["x-1"] }),
      ).not.toThrow();
    }
  });

  it.each([
    [
      "a misspelt mode",
      { permissionMode: "Plan" },
      /permissionMode must be one of "default", "plan", "bypassPermissions"/,
    ],
    ["a list that is not an array", { allowedTools: "read_file" }, /allowedTools must be an array/],
    ["a list entry of the wrong type", { disallowedTools: ["a", 7] }, /disallowedTools must be an array/],
    [
      "an entry written as a regular expression, which would silently deny nothing",
      { disallowedTools: ["bash|write_file"] },
      /disallowedTools entry "bash\|write_file" can never match a tool name.*RegExp/,
    ],
    [
      "an entry with a dot",
      { allowedTools: ["mcp.github.*"] },
      /allowedTools entry "mcp\.github\.\*" can never match/,
    ],
    ["an empty entry", { allowedTools: [""] }, /allowedTools entry "" can never match/],
    [
      "a canUseTool that is not a function",
      { canUseTool: { behavior: "allow" } },
      /canUseTool must be a function/,
    ],
  ])("rejects %s", (_label, options, message) => {
    const attempt = create(options as Partial<AgentOptions>);
    expect(attempt).toThrow(InvalidOptionError);
    expect(attempt).toThrow(message);
  });
});
