import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createSandbox, workspaceTools } from "./helpers";

function numbered(from: number, lines: string[]): string {
  return lines.map((line, index) => `${String(from + index).padStart(6)}\t${line}`).join("\n");
}

describe("read_file", () => {
  it("returns the file with line numbers", async () => {
    const sandbox = createSandbox();
    sandbox.write("notes.txt", "first\nsecond\n\nfourth");
    const { call } = workspaceTools({ root: sandbox.root });
    expect(await call("read_file", { path: "notes.txt" })).toEqual({
      text: numbered(1, ["first", "second", "", "fourth"]),
      isError: false,
    });
  });

  it("reads a line range and says where the file continues", async () => {
    const sandbox = createSandbox();
    sandbox.write("lines.txt", Array.from({ length: 10 }, (_, index) => `line ${index + 1}`).join("\n"));
    const { call } = workspaceTools({ root: sandbox.root });
    expect(await call("read_file", { path: "lines.txt", offset: 3, limit: 2 })).toEqual({
      text: `${numbered(3, ["line 3", "line 4"])}\n[Showing lines 3-4; the file continues after line 4. Use offset=5 to read on.]`,
      isError: false,
    });
    expect(await call("read_file", { path: "lines.txt", offset: 9, limit: 5 })).toEqual({
      text: numbered(9, ["line 9", "line 10"]),
      isError: false,
    });
    expect(await call("read_file", { path: "lines.txt", offset: 10, limit: 1 })).toEqual({
      text: numbered(10, ["line 10"]),
      isError: false,
    });
  });

  it("caps the bytes returned with a notice telling how to read on", async () => {
    const sandbox = createSandbox();
    const lines = Array.from(
      { length: 1000 },
      (_, index) => `row ${String(index + 1).padStart(4, "0")} ${"x".repeat(40)}`,
    );
    sandbox.write("big.txt", `${lines.join("\n")}\n`);
    const { call } = workspaceTools({ root: sandbox.root, maxReadBytes: 1_000 });
    const first = await call("read_file", { path: "big.txt" });
    expect(first.isError).toBe(false);
    const shown = first.text.split("\n");
    const notice = shown.pop()!;
    expect(notice).toMatch(
      /^\[Output truncated at the 1000-byte cap: showing lines 1-(\d+) of a 50000-byte file\. Use offset=(\d+) to read on\.\]$/,
    );
    const lastShown = Number(/lines 1-(\d+)/.exec(notice)![1]);
    expect(shown).toEqual(
      lines.slice(0, lastShown).map((line, index) => `${String(index + 1).padStart(6)}\t${line}`),
    );
    expect(Buffer.byteLength(shown.join("\n"))).toBeLessThanOrEqual(1_000);
    const next = await call("read_file", { path: "big.txt", offset: lastShown + 1, limit: 1 });
    expect(next.text.split("\n")[0]).toBe(`${String(lastShown + 1).padStart(6)}\t${lines[lastShown]}`);
  });

  it("cuts very long lines with a marker", async () => {
    const sandbox = createSandbox();
    sandbox.write("minified.js", `${"a".repeat(5_000)}\nshort\n`);
    const { call } = workspaceTools({ root: sandbox.root, maxLineChars: 100 });
    expect((await call("read_file", { path: "minified.js" })).text).toBe(
      numbered(1, [`${"a".repeat(100)}… [line truncated: 5000 characters]`, "short"]),
    );
  });

  it("handles CRLF line endings and multi-byte characters across chunk boundaries", async () => {
    const sandbox = createSandbox();
    const long = "é".repeat(40_000);
    sandbox.write("windows.txt", `one\r\n${long}\r\nthree\r\n`);
    const { call } = workspaceTools({ root: sandbox.root, maxReadBytes: 1_000_000, maxLineChars: 100_000 });
    expect((await call("read_file", { path: "windows.txt" })).text).toBe(numbered(1, ["one", long, "three"]));
  });

  it("says an empty file is empty", async () => {
    const sandbox = createSandbox();
    sandbox.write("empty.txt", "");
    const { call } = workspaceTools({ root: sandbox.root });
    expect(await call("read_file", { path: "empty.txt" })).toEqual({
      text: '"empty.txt" is empty.',
      isError: false,
    });
  });

  it("reports an offset past the end", async () => {
    const sandbox = createSandbox();
    sandbox.write("three.txt", "a\nb\nc\n");
    const { call } = workspaceTools({ root: sandbox.root });
    expect(await call("read_file", { path: "three.txt", offset: 7 })).toEqual({
      text: '"three.txt" has 3 lines; offset 7 is past its end.',
      isError: true,
    });
  });

  it("refuses binary files", async () => {
    const sandbox = createSandbox();
    sandbox.write(
      "image.png",
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]),
    );
    const { call } = workspaceTools({ root: sandbox.root });
    expect(await call("read_file", { path: "image.png" })).toEqual({
      text: '"image.png" is a binary file (12 bytes); read_file reads text files only.',
      isError: true,
    });
  });

  it("refuses folders, missing files and named pipes", async () => {
    const sandbox = createSandbox();
    sandbox.write("folder/file.txt", "x");
    execFileSync("mkfifo", [path.join(sandbox.root, "pipe")]);
    const { call } = workspaceTools({ root: sandbox.root });
    expect(await call("read_file", { path: "folder" })).toEqual({
      text: '"folder" is a directory; use list_files to see its contents.',
      isError: true,
    });
    expect(await call("read_file", { path: "missing.txt" })).toEqual({
      text: '"missing.txt" does not exist.',
      isError: true,
    });
    expect(await call("read_file", { path: "pipe" })).toEqual({
      text: '"pipe" is not a regular file (a device, socket or pipe); it cannot be read.',
      isError: true,
    });
  });

  it("is flagged read-only and validates its input", async () => {
    const sandbox = createSandbox();
    const { tools } = workspaceTools({ root: sandbox.root });
    const tool = tools.get("read_file")!;
    expect(tool.readOnly).toBe(true);
    expect(tool.inputSchema).toMatchObject({ type: "object", required: ["path"] });
    expect(await tool.parseInput({ path: "a", offset: 0 })).toMatchObject({ ok: false });
  });
});
