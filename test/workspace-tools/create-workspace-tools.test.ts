import path from "node:path";
import { describe, expect, it } from "vitest";
import { InvalidOptionError } from "../../src/errors";
import { createToolContext } from "../../src/index";
import { createWorkspaceTools, WORKSPACE_TOOL_NAMES } from "../../src/workspace-tools/index";
import { createSandbox } from "./helpers";

describe("createWorkspaceTools", () => {
  it("refuses a missing, absent or non-folder root", () => {
    const sandbox = createSandbox();
    const file = sandbox.write("file.txt", "x");
    expect(() => createWorkspaceTools({} as never)).toThrow(InvalidOptionError);
    expect(() => createWorkspaceTools({ root: "" })).toThrow("createWorkspaceTools needs a root folder");
    expect(() => createWorkspaceTools({ root: path.join(sandbox.root, "absent") })).toThrow(
      `root ${path.join(sandbox.root, "absent")} does not exist or cannot be resolved`,
    );
    expect(() => createWorkspaceTools({ root: file })).toThrow(`root ${file} is not a directory`);
  });

  it.each([
    ["maxReadBytes", 0],
    ["maxOutputChars", -1],
    ["bashTimeoutMs", 1.5],
    ["maxEntries", Number.NaN],
  ])("refuses %s = %s", (name, value) => {
    const sandbox = createSandbox();
    expect(() => createWorkspaceTools({ root: sandbox.root, [name]: value })).toThrow(
      `createWorkspaceTools: ${name} must be a positive integer, got ${value}.`,
    );
  });

  it.each([
    ["bashTimeoutMs", 3_000_000_000],
    ["bashKillGraceMs", 2_147_483_648],
  ])("refuses %s = %s: above 2^31-1 ms a timer fires at once", (name, value) => {
    const sandbox = createSandbox();
    expect(() => createWorkspaceTools({ root: sandbox.root, [name]: value })).toThrow(
      `createWorkspaceTools: ${name} must be at most 2147483647 ms (about 24.8 days, the longest a timer can wait), got ${value}.`,
    );
    expect(() => createWorkspaceTools({ root: sandbox.root, [name]: 2_147_483_647 })).not.toThrow();
  });

  it("returns every tool with a described JSON Schema input, in the documented order", () => {
    const sandbox = createSandbox();
    const tools = createWorkspaceTools({ root: sandbox.root, allowBash: true });
    expect(tools.map((tool) => tool.name)).toEqual([...WORKSPACE_TOOL_NAMES]);
    expect(tools.filter((tool) => tool.readOnly).map((tool) => tool.name)).toEqual([
      "read_file",
      "list_files",
      "glob",
      "grep",
    ]);
    for (const tool of tools) {
      expect(tool.description, tool.name).toBeTruthy();
      expect(tool.inputSchema).toMatchObject({ type: "object" });
      expect(tool.inputSchema).not.toHaveProperty("$schema");
      for (const property of Object.values(
        tool.inputSchema.properties as Record<string, { description?: string }>,
      )) {
        expect(property.description, tool.name).toBeTruthy();
      }
    }
  });

  it("works with a relative root, resolved against the current folder", async () => {
    const sandbox = createSandbox();
    sandbox.write("hello.txt", "hi\n");
    const relative = path.relative(process.cwd(), sandbox.root);
    const read = createWorkspaceTools({ root: relative }).find((tool) => tool.name === "read_file")!;
    const output = await read.execute(
      { path: "hello.txt" },
      createToolContext({
        signal: new AbortController().signal,
        toolUseId: "toolu_1",
        toolName: "read_file",
      }),
    );
    expect(output).toBe("     1\thi");
  });
});
