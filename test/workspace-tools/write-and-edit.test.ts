import { execFileSync } from "node:child_process";
import { closeSync, constants, openSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LIVENESS_FLOOR_MS } from "../support/promises";
import { type CallResult, createSandbox, workspaceTools } from "./helpers";

/**
 * Calls a tool on a named pipe and returns its result, or "blocked" when it has not answered after a
 * generous 20 s (it used to block forever in open()). A blocked open is then released by opening
 * the pipe read-write, which never blocks on Linux, so no worker thread stays stuck.
 */
async function callOnNamedPipe(
  call: (name: string, input: unknown) => Promise<CallResult>,
  pipe: string,
  name: string,
  input: unknown,
): Promise<CallResult | "blocked"> {
  const pending = call(name, input);
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    pending,
    new Promise<"blocked">((resolve) => {
      timer = setTimeout(() => resolve("blocked"), LIVENESS_FLOOR_MS);
    }),
  ]);
  clearTimeout(timer);
  if (outcome === "blocked") {
    closeSync(openSync(pipe, constants.O_RDWR | constants.O_NONBLOCK));
    await pending.catch(() => undefined);
  }
  return outcome;
}

describe("write_file", () => {
  it("creates parent folders and reports the bytes written", async () => {
    const sandbox = createSandbox();
    const { call } = workspaceTools({ root: sandbox.root });
    expect(await call("write_file", { path: "a/b/c/new.txt", content: "héllo\n" })).toEqual({
      text: 'Wrote 7 bytes to "a/b/c/new.txt" (a new file).',
      isError: false,
    });
    expect(sandbox.read("a/b/c/new.txt")).toBe("héllo\n");
  });

  it("overwrites an existing file", async () => {
    const sandbox = createSandbox();
    sandbox.write("config.json", '{"old": true}');
    const { call } = workspaceTools({ root: sandbox.root });
    expect(await call("write_file", { path: "config.json", content: "{}" })).toEqual({
      text: 'Wrote 2 bytes to "config.json" (replacing its previous 13 bytes).',
      isError: false,
    });
    expect(sandbox.read("config.json")).toBe("{}");
  });

  it("refuses a named pipe instead of blocking on it", async () => {
    const sandbox = createSandbox();
    const pipe = path.join(sandbox.root, "pipe");
    execFileSync("mkfifo", [pipe]);
    const { call } = workspaceTools({ root: sandbox.root });
    expect(await callOnNamedPipe(call, pipe, "write_file", { path: "pipe", content: "x" })).toEqual({
      text: '"pipe" is not a regular file (a device, socket or pipe); write_file writes regular files only.',
      isError: true,
    });
  });

  it("refuses a folder path and a path under a file", async () => {
    const sandbox = createSandbox();
    sandbox.write("folder/x.txt", "x");
    sandbox.write("plain.txt", "x");
    const { call } = workspaceTools({ root: sandbox.root });
    expect(await call("write_file", { path: "folder", content: "x" })).toEqual({
      text: '"folder" is a directory; choose a file path.',
      isError: true,
    });
    expect(await call("write_file", { path: "plain.txt/child.txt", content: "x" })).toEqual({
      text: 'Cannot write "plain.txt/child.txt": part of its folder path is a file, not a folder.',
      isError: true,
    });
    expect(await call("write_file", { path: "plain.txt/deeper/child.txt", content: "x" })).toEqual({
      text: 'Cannot write "plain.txt/deeper/child.txt": part of its folder path is a file, not a folder.',
      isError: true,
    });
  });

  it("is left out, with edit_file, when allowWrite is false; bash only with allowBash", () => {
    const sandbox = createSandbox();
    const names = (options: object) => [...workspaceTools({ root: sandbox.root, ...options }).tools.keys()];
    expect(names({})).toEqual(["read_file", "list_files", "glob", "grep", "write_file", "edit_file"]);
    expect(names({ allowWrite: false })).toEqual(["read_file", "list_files", "glob", "grep"]);
    expect(names({ allowBash: true })).toEqual([
      "read_file",
      "list_files",
      "glob",
      "grep",
      "write_file",
      "edit_file",
      "bash",
    ]);
    const { tools } = workspaceTools({ root: sandbox.root, allowBash: true });
    expect(["write_file", "edit_file", "bash"].map((name) => tools.get(name)!.readOnly)).toEqual([
      false,
      false,
      false,
    ]);
  });
});

describe("edit_file", () => {
  function setup(content: string) {
    const sandbox = createSandbox();
    sandbox.write("code.ts", content);
    return { sandbox, call: workspaceTools({ root: sandbox.root }).call };
  }

  it("replaces a unique string", async () => {
    const { sandbox, call } = setup("const a = 1;\nconst b = 2;\nconst c = 3;\n");
    expect(
      await call("edit_file", { path: "code.ts", old_string: "const b = 2;", new_string: "const b = 20;" }),
    ).toEqual({
      text: 'Replaced 1 occurrence in "code.ts" (line 2).',
      isError: false,
    });
    expect(sandbox.read("code.ts")).toBe("const a = 1;\nconst b = 20;\nconst c = 3;\n");
  });

  it("refuses an absent string, leaving the file unchanged", async () => {
    const { sandbox, call } = setup("const a = 1;\n");
    expect(await call("edit_file", { path: "code.ts", old_string: "const  a", new_string: "let a" })).toEqual(
      {
        text:
          'old_string was not found in "code.ts". It must match the file exactly, including whitespace, indentation ' +
          "and line endings; read the file and copy the text.",
        isError: true,
      },
    );
    expect(sandbox.read("code.ts")).toBe("const a = 1;\n");
  });

  it("refuses a string that occurs more than once, saying how many times and where", async () => {
    const { sandbox, call } = setup("x = 1;\ny = 2;\nx = 1;\nz = 3;\nx = 1;\n");
    expect(await call("edit_file", { path: "code.ts", old_string: "x = 1;", new_string: "x = 9;" })).toEqual({
      text:
        'old_string occurs 3 times in "code.ts" (lines 1, 3, 5); it must be unique. Include more surrounding text to ' +
        "single out one occurrence, or set replace_all to true.",
      isError: true,
    });
    expect(sandbox.read("code.ts")).toBe("x = 1;\ny = 2;\nx = 1;\nz = 3;\nx = 1;\n");
    expect(
      await call("edit_file", {
        path: "code.ts",
        old_string: "y = 2;\nx = 1;",
        new_string: "y = 2;\nx = 7;",
      }),
    ).toEqual({
      text: 'Replaced 1 occurrence in "code.ts" (line 2).',
      isError: false,
    });
    expect(sandbox.read("code.ts")).toBe("x = 1;\ny = 2;\nx = 7;\nz = 3;\nx = 1;\n");
  });

  it("refuses a string whose occurrences overlap: which one to replace is ambiguous", async () => {
    // "aa" in "aaa": replacing at 0 gives "ba", at 1 gives "ab".
    const { sandbox, call } = setup("x\naaa\n");
    expect(await call("edit_file", { path: "code.ts", old_string: "aa", new_string: "b" })).toEqual({
      text:
        'old_string occurs 2 times in "code.ts" (lines 2, 2), overlapping; it must be unique. Include more surrounding text to ' +
        "single out one occurrence, or set replace_all to true.",
      isError: true,
    });
    expect(sandbox.read("code.ts")).toBe("x\naaa\n");
    // replace_all replaces non-overlapping occurrences from the start, as before.
    await call("edit_file", { path: "code.ts", old_string: "aa", new_string: "b", replace_all: true });
    expect(sandbox.read("code.ts")).toBe("x\nba\n");
  });

  it("replaces every occurrence with replace_all", async () => {
    const { sandbox, call } = setup("aaa-aaa\nb\naaa\n");
    expect(
      await call("edit_file", { path: "code.ts", old_string: "aa", new_string: "b", replace_all: true }),
    ).toEqual({
      text: 'Replaced 3 occurrences in "code.ts" (lines 1, 1, 3).',
      isError: false,
    });
    expect(sandbox.read("code.ts")).toBe("ba-ba\nb\nba\n");
  });

  it("takes the replacement literally ($& and $1 are not patterns)", async () => {
    const { sandbox, call } = setup("price = 1;\n");
    await call("edit_file", { path: "code.ts", old_string: "1", new_string: "$& $1 $$" });
    expect(sandbox.read("code.ts")).toBe("price = $& $1 $$;\n");
  });

  it("refuses empty and no-op edits, binary and missing files", async () => {
    const { sandbox, call } = setup("text\n");
    sandbox.write("blob.bin", Buffer.from([0x61, 0, 0x62]));
    expect(await call("edit_file", { path: "code.ts", old_string: "", new_string: "x" })).toEqual({
      text: "old_string is empty; to create a file or replace its whole content, use write_file.",
      isError: true,
    });
    expect(await call("edit_file", { path: "code.ts", old_string: "text", new_string: "text" })).toEqual({
      text: "old_string and new_string are identical; the edit would change nothing.",
      isError: true,
    });
    expect(await call("edit_file", { path: "blob.bin", old_string: "a", new_string: "c" })).toEqual({
      text: '"blob.bin" is a binary file; edit_file edits text files only.',
      isError: true,
    });
    expect(await call("edit_file", { path: "nope.ts", old_string: "a", new_string: "c" })).toEqual({
      text: '"nope.ts" does not exist.',
      isError: true,
    });
  });

  it("refuses a named pipe and a folder instead of blocking on them", async () => {
    const { sandbox, call } = setup("text\n");
    const pipe = path.join(sandbox.root, "pipe");
    execFileSync("mkfifo", [pipe]);
    sandbox.write("folder/x.txt", "x");
    expect(
      await callOnNamedPipe(call, pipe, "edit_file", { path: "pipe", old_string: "a", new_string: "b" }),
    ).toEqual({
      text: '"pipe" is not a regular file (a device, socket or pipe); edit_file edits regular files only.',
      isError: true,
    });
    expect(await call("edit_file", { path: "folder", old_string: "a", new_string: "b" })).toEqual({
      text: '"folder" is a directory, not a file.',
      isError: true,
    });
  });

  it("refuses a file that is not valid UTF-8 and leaves its bytes untouched", async () => {
    const { sandbox, call } = setup("text\n");
    // "café\nTODO\n" in Latin-1: é is the single byte 0xE9, which is not UTF-8.
    const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0x54, 0x4f, 0x44, 0x4f, 0x0a]);
    const file = sandbox.write("latin1.txt", latin1);
    expect(await call("edit_file", { path: "latin1.txt", old_string: "TODO", new_string: "DONE" })).toEqual({
      text:
        '"latin1.txt" is not valid UTF-8 text (another encoding, such as Latin-1?); edit_file edits UTF-8 files ' +
        "only, since rewriting it would corrupt the characters it did not edit.",
      isError: true,
    });
    expect(readFileSync(file).equals(latin1)).toBe(true);
  });

  it("keeps a UTF-8 byte order mark and multi-byte characters", async () => {
    const { sandbox, call } = setup("\uFEFFcafé TODO ☕\n");
    const result = await call("edit_file", { path: "code.ts", old_string: "TODO", new_string: "DONE" });
    expect(result.isError).toBe(false);
    expect(sandbox.read("code.ts")).toBe("\uFEFFcafé DONE ☕\n");
  });

  it("hints at CRLF line endings when a multi-line string is not found", async () => {
    const { call } = setup("one\r\ntwo\r\n");
    const result = await call("edit_file", { path: "code.ts", old_string: "one\ntwo", new_string: "1\n2" });
    expect(result.isError).toBe(true);
    expect(result.text).toContain("Note: the file uses CRLF (\\r\\n) line endings.");
  });

  it("reports at most 20 line numbers", async () => {
    const { call } = setup("x\n".repeat(25));
    const result = await call("edit_file", { path: "code.ts", old_string: "x", new_string: "y" });
    expect(result.text).toContain("occurs 25 times");
    expect(result.text).toContain(
      "lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 and 5 more",
    );
  });
});
