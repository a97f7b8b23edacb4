/**
 * The rules of the `--mock` model (src/cli/mock-model.ts, mock-intents.ts): which tool it uses
 * for a prompt, given the tools offered, and what it does once a tool has answered. The whole
 * command is tried on a real terminal in mock-writes.test.ts and terminal-first-hour.test.ts.
 */
import { describe, expect, it } from "vitest";
import { nextMockResponse } from "../../src/cli/mock-model";
import type { ContentBlock, ModelMessage } from "../../src/index";

const ALL = ["read_file", "list_files", "glob", "grep", "write_file", "edit_file", "bash"];

function callFor(prompt: string, tools = ALL, earlier: ModelMessage[] = []) {
  const content = nextMockResponse([...earlier, { role: "user", content: prompt }], tools).content;
  const call = Array.isArray(content) ? content.find((block) => block.type === "tool_use") : undefined;
  return call && { name: call.name, input: call.input };
}

function afterTool(prompt: string, call: { name: string; input: unknown }, result: string, isError = false) {
  const messages: ModelMessage[] = [
    { role: "user", content: prompt },
    { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", ...call } as ContentBlock] },
    {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "toolu_1", content: result, is_error: isError }],
    },
  ];
  return nextMockResponse(messages, ALL).content;
}

describe("the --mock model", () => {
  it("writes a file the prompt names, with the text it gives, or NOTES.md", () => {
    expect(callFor("Write a file hello.txt that says hello")).toEqual({
      name: "write_file",
      input: { path: "hello.txt", content: "hello\n" },
    });
    expect(callFor('Create notes/plan.md with the text "step one"')).toEqual({
      name: "write_file",
      input: { path: "notes/plan.md", content: "step one\n" },
    });
    expect(callFor("Write the release notes.")).toEqual({
      name: "write_file",
      input: {
        path: "NOTES.md",
        content: "Written by the mock model (offline) for: Write the release notes.\n",
      },
    });
  });

  it("with only bash, writes through bash; with neither, does not pretend", () => {
    expect(callFor("Write hello.txt saying hi there", ["bash"])).toEqual({
      name: "bash",
      input: { command: "printf '%s' 'hi there\n' > hello.txt" },
    });
    expect(callFor("Write hello.txt saying hi", ["read_file"])).toEqual({
      name: "read_file",
      input: { path: "hello.txt" },
    });
  });

  it("changes words in a file with edit_file; a change without words reads first, then adds a line", () => {
    expect(callFor("Change hello to goodbye in hello.txt")).toEqual({
      name: "edit_file",
      input: { path: "hello.txt", old_string: "hello", new_string: "goodbye" },
    });
    expect(callFor("In src/a.ts, replace 'foo()' with 'bar()'.")).toEqual({
      name: "edit_file",
      input: { path: "src/a.ts", old_string: "foo()", new_string: "bar()" },
    });
    const read = callFor("Update hello.txt");
    expect(read).toEqual({ name: "read_file", input: { path: "hello.txt" } });
    const edit = afterTool("Update hello.txt", read!, "     1\thello\n     2\tworld\n");
    expect(edit).toContainEqual(
      expect.objectContaining({
        type: "tool_use",
        name: "edit_file",
        input: {
          path: "hello.txt",
          old_string: "world",
          new_string: "world\nWritten by the mock model (offline) for: Update hello.txt",
        },
      }),
    );
  });

  it("answers from the result after a write, a read that was only a read, or a refusal", () => {
    const written = afterTool(
      "Write a file a.txt that says a",
      { name: "write_file", input: { path: "a.txt", content: "a\n" } },
      'Wrote 2 bytes to "a.txt"',
    );
    expect(written).toMatch(/^\[mock model, offline\] .*Here is what the tool returned:\nWrote 2 bytes/);
    const read = afterTool("What is in a.txt?", { name: "read_file", input: { path: "a.txt" } }, "     1\ta");
    expect(typeof read).toBe("string");
    const denied = afterTool(
      "Update a.txt",
      { name: "read_file", input: { path: "a.txt" } },
      "Denied by the user",
      true,
    );
    expect(denied).toMatch(/The tool failed:\nDenied by the user/);
  });

  it("runs a command it is given with bash, only when bash is offered", () => {
    expect(callFor("Run `ls -la` please")).toEqual({ name: "bash", input: { command: "ls -la" } });
    expect(callFor("run echo hi")).toEqual({ name: "bash", input: { command: "echo hi" } });
    expect(callFor("run echo hi", ["read_file", "list_files"])).toEqual({
      name: "list_files",
      input: { path: "." },
    });
  });

  it("reads a named file, greps a quoted word, else lists the folder", () => {
    expect(callFor("What is in hello.txt?")).toEqual({ name: "read_file", input: { path: "hello.txt" } });
    expect(callFor("Where is 'needle'?")).toEqual({ name: "grep", input: { pattern: "needle" } });
    expect(callFor("What is here?")).toEqual({ name: "list_files", input: { path: "." } });
    expect(nextMockResponse([{ role: "user", content: "Hi" }], []).content).toMatch(/no tools were offered/);
  });

  it("names each call by its place in the conversation, so a resumed run never repeats an id", () => {
    const first = nextMockResponse([{ role: "user", content: "Write a.txt" }], ALL).content;
    const later = nextMockResponse(
      [
        { role: "user", content: "x" },
        { role: "assistant", content: [{ type: "text", text: "y" }] },
        { role: "user", content: "Write a.txt" },
      ],
      ALL,
    ).content;
    const idOf = (content: unknown) => (content as Array<{ id?: string }>).find((block) => block.id)?.id;
    expect(idOf(first)).not.toBe(idOf(later));
  });
});
