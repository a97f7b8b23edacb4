/**
 * `createMemoryTool`: the commands over a folder and over a store, paths confined to /memories and
 * to the folder (a symbolic link out of it refused), size limits with clear errors, concurrent
 * writers from two agents losing no update (one process, the folder; two store instances over
 * PostgreSQL, which conflict), and the native declaration where the provider honours it.
 */

import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InvalidOptionError } from "../../src/errors";
import { createToolContext } from "../../src/index";
import { createPostgresHistoryStore } from "../../src/integrations/stores/postgres";
import { betaHeaderOf, toAnthropicRequestBody } from "../../src/model/anthropic-request";
import type { ModelRequest } from "../../src/model/client";
import type { ToolOutput } from "../../src/tools/tool";
import { createMemoryTool, type MemoryInput, type MemoryToolOptions } from "../../src/workspace-tools/index";
import { temporaryFolder } from "../support/temporary-folders";

const POSTGRES_URL = process.env.AGENT_LATTICE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

function memory(options: MemoryToolOptions) {
  const tool = createMemoryTool(options);
  let calls = 0;
  return async (input: MemoryInput): Promise<{ text: string; isError: boolean }> => {
    const output: ToolOutput = await tool.execute(
      input,
      createToolContext({
        signal: new AbortController().signal,
        toolUseId: `call_${++calls}`,
        toolName: "memory",
      }),
    );
    if (typeof output === "string") return { text: output, isError: false };
    return { text: String(output.content), isError: output.isError === true };
  };
}

describe("the memory commands over a folder", () => {
  it("create, view, str_replace, insert, rename and delete, kept as files in the folder", async () => {
    const root = temporaryFolder("memory-");
    const run = memory({ root });
    expect((await run({ command: "view", path: "/memories" })).text).toBe("/memories is empty.");
    await run({
      command: "create",
      path: "/memories/project/notes.md",
      file_text: "- uses pnpm\n- tests in test/",
    });
    expect(readFileSync(join(root, "project/notes.md"), "utf8")).toBe("- uses pnpm\n- tests in test/");
    expect((await run({ command: "view", path: "/memories" })).text).toBe(
      "Files in /memories (bytes, path):\n28\t/memories/project/notes.md",
    );
    await run({
      command: "str_replace",
      path: "/memories/project/notes.md",
      old_str: "pnpm",
      new_str: "npm",
    });
    await run({
      command: "insert",
      path: "/memories/project/notes.md",
      insert_line: 0,
      insert_text: "# Project",
    });
    expect(
      (await run({ command: "view", path: "/memories/project/notes.md", view_range: [1, 2] })).text,
    ).toBe("     1\t# Project\n     2\t- uses npm");
    await run({ command: "rename", old_path: "/memories/project", new_path: "/memories/app" });
    expect(readFileSync(join(root, "app/notes.md"), "utf8")).toContain("# Project");
    expect((await run({ command: "delete", path: "/memories/app" })).text).toBe(
      "Deleted /memories/app (1 files).",
    );
    expect((await run({ command: "view", path: "/memories" })).text).toBe("/memories is empty.");
  });

  it("answers mistakes with error results the model can act on", async () => {
    const run = memory({ root: temporaryFolder("memory-") });
    await run({ command: "create", path: "/memories/a.md", file_text: "x x" });
    const cases: Array<[MemoryInput, RegExp]> = [
      [{ command: "view", path: "/etc/passwd" }, /outside \/memories/],
      [
        { command: "create", path: "/memories/../secret", file_text: "" },
        /has an empty, "\." or "\.\." part/,
      ],
      [{ command: "view", path: "/memories/none.md" }, /\/memories\/none\.md does not exist/],
      [{ command: "str_replace", path: "/memories/a.md", old_str: "x", new_str: "y" }, /occurs 2 times/],
      [{ command: "str_replace", path: "/memories/a.md", old_str: "z", new_str: "y" }, /does not occur/],
      [{ command: "insert", path: "/memories/a.md", insert_line: 9, insert_text: "y" }, /from 0 to 1/],
      [{ command: "create", path: "/memories/a.md/b.md", file_text: "" }, /is a file, so it cannot hold/],
      [{ command: "delete", path: "/memories" }, /cannot be deleted/],
    ];
    for (const [input, message] of cases) {
      const answer = await run(input);
      expect(answer.isError, JSON.stringify(input)).toBe(true);
      expect(answer.text).toMatch(message);
    }
  });

  it("bounds each file and the whole tree, refusing the change whole", async () => {
    const root = temporaryFolder("memory-");
    const run = memory({ root, maxFileBytes: 100, maxTreeBytes: 150 });
    const big = await run({ command: "create", path: "/memories/big.md", file_text: "a".repeat(101) });
    expect(big).toEqual({
      isError: true,
      text: "/memories/big.md would be 101 bytes, over the limit of 100 bytes per memory file: keep memories short, or split them.",
    });
    await run({ command: "create", path: "/memories/one.md", file_text: "a".repeat(100) });
    const over = await run({ command: "create", path: "/memories/two.md", file_text: "b".repeat(60) });
    expect(over.isError).toBe(true);
    expect(over.text).toMatch(/would hold 160 bytes, over the limit of 150 bytes/);
    expect((await run({ command: "view", path: "/memories" })).text).not.toContain("two.md");
  });

  it("never reads or writes through a symbolic link out of the folder", async () => {
    const root = temporaryFolder("memory-");
    const outside = temporaryFolder("memory-outside-");
    writeFileSync(join(outside, "secret.txt"), "do not read");
    symlinkSync(outside, join(root, "escape"));
    const run = memory({ root });
    const written = await run({ command: "create", path: "/memories/escape/new.md", file_text: "x" });
    expect(written.isError).toBe(true);
    expect(written.text).toMatch(/goes through a symbolic link .* outside/);
    expect(() => readFileSync(join(outside, "new.md"))).toThrow(); // …and nothing was written outside
  });

  it("refuses options that are neither form, and bad limits", () => {
    expect(() => createMemoryTool({} as never)).toThrow(InvalidOptionError);
    expect(() => createMemoryTool({ root: "/tmp", store: {} } as never)).toThrow(
      /either \{ root: folder \} or \{ store/,
    );
    expect(() => createMemoryTool({ store: {} } as never)).toThrow(/must be a history store/);
    expect(() => createMemoryTool({ root: "/tmp", maxFileBytes: 0 })).toThrow(
      /`maxFileBytes` must be a positive integer/,
    );
    expect(() => createMemoryTool({ root: "/no/such/folder/here" })).toThrow(InvalidOptionError);
  });
});

describe("concurrent writers", () => {
  it("two agents' tools over one folder lose no update", async () => {
    const root = temporaryFolder("memory-");
    const first = memory({ root });
    const second = memory({ root });
    await first({ command: "create", path: "/memories/log.md", file_text: "log" });
    await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        (index % 2 ? first : second)({
          command: "insert",
          path: "/memories/log.md",
          insert_line: 1,
          insert_text: `entry ${index}`,
        }),
      ),
    );
    const lines = readFileSync(join(root, "log.md"), "utf8").split("\n");
    expect(lines).toHaveLength(41);
    for (let index = 0; index < 40; index++) expect(lines).toContain(`entry ${index}`);
  });

  it("two store instances over PostgreSQL (as two processes would) lose no update", async () => {
    const conversationId = `memory-${process.pid}-${Date.now()}`;
    const open = () =>
      createPostgresHistoryStore({
        connectionString: POSTGRES_URL,
        schema: "memory_tool_test",
        conversationId,
      });
    const stores = [open(), open()];
    try {
      const [first, second] = stores.map((store) => memory({ store }));
      await first!({ command: "create", path: "/memories/log.md", file_text: "log" });
      await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          (index % 2 ? first! : second!)({
            command: "insert",
            path: "/memories/log.md",
            insert_line: 1,
            insert_text: `entry ${index}`,
          }),
        ),
      );
      const view = (await memory({ store: stores[0]! })({ command: "view", path: "/memories/log.md" })).text;
      for (let index = 0; index < 20; index++) expect(view).toContain(`entry ${index}`);
      expect(view.split("\n")).toHaveLength(21);
    } finally {
      await stores[0]!.replace([]);
      await Promise.all(stores.map((store) => store.close()));
    }
  });
});

describe("the declaration", () => {
  const request = (tools: ModelRequest["tools"]): ModelRequest => ({
    model: "claude-sonnet-4-6",
    messages: [{ role: "user", content: "hi" }],
    maxTokens: 10,
    signal: new AbortController().signal,
    tools,
  });
  const tool = createMemoryTool({ root: "/tmp" });
  const definition = { name: tool.name, input_schema: tool.inputSchema, native_type: tool.nativeType };

  it("is the native memory_20250818 tool where the provider honours it, with the beta", () => {
    const body = toAnthropicRequestBody(request([definition]), { nativeTools: true });
    expect(body.tools).toEqual([{ type: "memory_20250818", name: "memory" }]);
    expect(betaHeaderOf(request([definition]), true)).toBe("context-management-2025-06-27");
  });

  it("is a plain tool with the same commands elsewhere", () => {
    const body = toAnthropicRequestBody(request([definition]));
    expect(body.tools).toEqual([{ name: "memory", input_schema: tool.inputSchema }]);
    expect(JSON.stringify(body.tools)).toContain("str_replace");
    expect(betaHeaderOf(request([definition]))).toBeUndefined();
  });
});
