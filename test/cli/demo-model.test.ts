import { describe, expect, it } from "vitest";
import { nextDemoResponse, toolExchangesOfTask } from "../../src/cli/demo-model";
import type { ModelMessage } from "../../src/index";

describe("the demo's scripted model", () => {
  it("pairs the tool calls made since the latest prompt with their results", () => {
    const messages: ModelMessage[] = [
      { role: "user", content: "old task" },
      { role: "assistant", content: [{ type: "tool_use", id: "old", name: "list_files", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "old", content: "a.txt" }] },
      { role: "assistant", content: [{ type: "text", text: "done" }] },
      { role: "user", content: "new task" },
      {
        role: "assistant",
        content: [{ type: "tool_use", id: "n1", name: "list_files", input: { path: "." } }],
      },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "n1", content: "b.txt\nsrc/" }] },
    ];
    expect(toolExchangesOfTask(messages)).toEqual([
      { name: "list_files", input: { path: "." }, output: "b.txt\nsrc/", isError: false },
    ]);
  });

  it("starts by listing files, then reads the README it found and greps for TODOs in one batch", () => {
    const first = nextDemoResponse([], 0);
    expect(first.content).toEqual([
      { type: "text", text: "I'll start by listing the project's files." },
      { type: "tool_use", id: "toolu_demo_0_0", name: "list_files", input: { path: ".", recursive: true } },
    ]);
    const second = nextDemoResponse(
      [{ name: "list_files", input: {}, output: "docs/\ndocs/intro.md\nReadme.md\nx.ts", isError: false }],
      1,
    );
    expect(second.content).toContainEqual(
      expect.objectContaining({ type: "tool_use", name: "read_file", input: { path: "Readme.md" } }),
    );
    expect(second.content).toContainEqual(expect.objectContaining({ type: "tool_use", name: "grep" }));
    expect((second.content as Array<{ type: string; text?: string }>)[0]!.text).toMatch(
      /^There are 3 files\./,
    );
  });

  it("writes a summary built from what the tools returned", () => {
    const response = nextDemoResponse(
      [
        { name: "list_files", input: {}, output: "README.md\nlib/\nlib/a.js", isError: false },
        {
          name: "read_file",
          input: {},
          output: "     1\t# Kettle\n     2\t\n     3\tBoils water.",
          isError: false,
        },
        { name: "grep", input: {}, output: "lib/a.js:3: // TODO: descale", isError: false },
      ],
      2,
    );
    const write = (response.content as Array<{ type: string; input?: { content: string } }>).find(
      (block) => block.type === "tool_use",
    )!;
    expect(write.input!.content).toBe(
      "# Kettle — summary\n\nStatus: draft\n\nBoils water.\n\n## Files (2)\n\n- README.md\n- lib/a.js\n\n## Open TODOs (1)\n\n- descale (lib/a.js:3)\n",
    );
  });

  it("stops and says why when a tool failed", () => {
    const response = nextDemoResponse(
      [{ name: "list_files", input: {}, output: "Permission denied\nmore", isError: true }],
      1,
    );
    expect(response.content).toEqual([
      { type: "text", text: "I had to stop: list_files failed — Permission denied" },
    ]);
  });
});
