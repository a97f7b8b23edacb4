import { existsSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createSandbox, workspaceTools } from "./helpers";

function setup() {
  const sandbox = createSandbox();
  sandbox.write("inside.txt", "inside\n");
  const { call } = workspaceTools({ root: sandbox.root });
  return { sandbox, call };
}

describe("paths climbing out with ..", () => {
  it.each([
    ["read_file", { path: "../outside/secret.txt" }],
    ["read_file", { path: "sub/../../outside/secret.txt" }],
    ["list_files", { path: ".." }],
    ["glob", { pattern: "*", path: "../outside" }],
    ["grep", { pattern: "SECRET", path: "../outside" }],
    ["write_file", { path: "../outside/new.txt", content: "x" }],
    ["edit_file", { path: "../outside/secret.txt", old_string: "TOP", new_string: "NOT" }],
  ])("%s refuses %j", async (name, input) => {
    const { sandbox, call } = setup();
    const result = await call(name, input);
    expect(result.isError).toBe(true);
    expect(result.text).toContain('climbs out (through "..") of the workspace root');
    expect(result.text).toContain(sandbox.root);
    expect(result.text).not.toContain("TOP SECRET");
    expect(existsSync(path.join(sandbox.outside, "new.txt"))).toBe(false);
    expect(readFileSync(path.join(sandbox.outside, "secret.txt"), "utf8")).toContain("TOP SECRET");
  });

  it("allows .. that stays inside the root", async () => {
    const { sandbox, call } = setup();
    sandbox.write("a/b.txt", "bee\n");
    const result = await call("read_file", { path: "a/../a/./b.txt" });
    expect(result).toEqual({ text: "     1\tbee", isError: false });
  });
});

describe("absolute paths", () => {
  it.each([
    ["read_file", (outside: string) => ({ path: path.join(outside, "secret.txt") })],
    ["read_file", () => ({ path: "/etc/passwd" })],
    ["list_files", () => ({ path: "/" })],
    ["write_file", (outside: string) => ({ path: path.join(outside, "new.txt"), content: "x" })],
    ["grep", (outside: string) => ({ pattern: "SECRET", path: outside })],
  ])("%s refuses an absolute path outside the root", async (name, makeInput) => {
    const { sandbox, call } = setup();
    const result = await call(name, makeInput(sandbox.outside));
    expect(result.isError).toBe(true);
    expect(result.text).toContain("is an absolute path outside the workspace root");
    expect(existsSync(path.join(sandbox.outside, "new.txt"))).toBe(false);
  });

  it("accepts an absolute path inside the root, through the root as given or as resolved", async () => {
    const { sandbox } = setup();
    const linkedRoot = path.join(sandbox.base, "root-link");
    symlinkSync(sandbox.root, linkedRoot);
    const { call } = workspaceTools({ root: linkedRoot });
    expect(await call("read_file", { path: path.join(linkedRoot, "inside.txt") })).toEqual({
      text: "     1\tinside",
      isError: false,
    });
    expect(await call("read_file", { path: path.join(sandbox.root, "inside.txt") })).toEqual({
      text: "     1\tinside",
      isError: false,
    });
  });

  it("refuses a path with a NUL byte", async () => {
    const { call } = setup();
    const result = await call("read_file", { path: "inside.txt\0.png" });
    expect(result).toEqual({ text: "A path cannot contain NUL bytes.", isError: true });
  });
});

describe("symbolic links leading out", () => {
  it("refuses reading, editing and writing a file through a link to a file outside", async () => {
    const { sandbox, call } = setup();
    symlinkSync(path.join(sandbox.outside, "secret.txt"), path.join(sandbox.root, "secret-link"));
    for (const [name, input] of [
      ["read_file", { path: "secret-link" }],
      ["edit_file", { path: "secret-link", old_string: "TOP", new_string: "NOT" }],
      ["write_file", { path: "secret-link", content: "overwritten" }],
      ["grep", { pattern: "SECRET", path: "secret-link" }],
    ] as const) {
      const result = await call(name, input);
      expect(result.isError, name).toBe(true);
      expect(result.text).toContain(
        `Path "secret-link" goes through a symbolic link to ${path.join(sandbox.outside, "secret.txt")}`,
      );
      expect(result.text).toContain("outside the workspace root");
    }
    expect(readFileSync(path.join(sandbox.outside, "secret.txt"), "utf8")).toBe(
      "TOP SECRET outside the root\n",
    );
  });

  it("refuses listing, reading and writing through a link to a folder outside", async () => {
    const { sandbox, call } = setup();
    symlinkSync(sandbox.outside, path.join(sandbox.root, "escape"));
    for (const [name, input] of [
      ["list_files", { path: "escape" }],
      ["read_file", { path: "escape/secret.txt" }],
      ["glob", { pattern: "**/*", path: "escape" }],
      ["write_file", { path: "escape/planted.txt", content: "x" }],
      ["write_file", { path: "escape/deeper/planted.txt", content: "x" }],
    ] as const) {
      const result = await call(name, input);
      expect(result.isError, name).toBe(true);
      expect(result.text).toContain("goes through a symbolic link to");
    }
    expect(existsSync(path.join(sandbox.outside, "planted.txt"))).toBe(false);
    expect(existsSync(path.join(sandbox.outside, "deeper"))).toBe(false);
  });

  it("refuses writing through a dangling link that points outside", async () => {
    const { sandbox, call } = setup();
    symlinkSync(path.join(sandbox.outside, "not-yet.txt"), path.join(sandbox.root, "dangling"));
    symlinkSync(path.join(sandbox.outside, "no-folder"), path.join(sandbox.root, "dangling-folder"));
    const direct = await call("write_file", { path: "dangling", content: "x" });
    const below = await call("write_file", { path: "dangling-folder/file.txt", content: "x" });
    expect(direct.isError).toBe(true);
    expect(direct.text).toContain(
      `goes through a symbolic link to ${path.join(sandbox.outside, "not-yet.txt")}`,
    );
    expect(below.isError).toBe(true);
    expect(existsSync(path.join(sandbox.outside, "not-yet.txt"))).toBe(false);
    expect(existsSync(path.join(sandbox.outside, "no-folder"))).toBe(false);
  });

  it("refuses a link hidden deeper in the path, with a relative target", async () => {
    const { sandbox, call } = setup();
    mkdirSync(path.join(sandbox.root, "a/b"), { recursive: true });
    symlinkSync("../../../outside", path.join(sandbox.root, "a/b/up"));
    const result = await call("read_file", { path: "a/b/up/secret.txt" });
    expect(result.isError).toBe(true);
    expect(result.text).toContain(`to ${path.join(sandbox.outside, "secret.txt")}`);
  });

  it("follows links that stay inside the root", async () => {
    const { sandbox, call } = setup();
    sandbox.write("real/data.txt", "data\n");
    symlinkSync("real", path.join(sandbox.root, "alias"));
    symlinkSync("real/future.txt", path.join(sandbox.root, "future-link"));
    expect(await call("read_file", { path: "alias/data.txt" })).toEqual({
      text: "     1\tdata",
      isError: false,
    });
    const written = await call("write_file", { path: "future-link", content: "later" });
    expect(written).toEqual({ text: 'Wrote 5 bytes to "real/future.txt" (a new file).', isError: false });
    expect(sandbox.read("real/future.txt")).toBe("later");
  });

  it("walking tools neither follow nor search links to outside", async () => {
    const { sandbox, call } = setup();
    symlinkSync(sandbox.outside, path.join(sandbox.root, "escape"));
    symlinkSync(path.join(sandbox.outside, "secret.txt"), path.join(sandbox.root, "secret-link"));
    const grep = await call("grep", { pattern: "SECRET" });
    expect(grep).toEqual({ text: 'No matches for /SECRET/ in ".".', isError: false });
    const glob = await call("glob", { pattern: "**/*" });
    expect(glob.text).toBe("inside.txt");
    const list = await call("list_files", { recursive: true });
    expect(list.text).toBe(
      [
        "escape -> (a link to outside the workspace)",
        "inside.txt",
        "secret-link -> (a link to outside the workspace)",
      ].join("\n"),
    );
  });
});

describe("symbolic link loops", () => {
  it.each([
    ["read_file", { path: "loop-a" }],
    ["read_file", { path: "loop-a/file.txt" }],
    ["write_file", { path: "loop-a", content: "x" }],
    ["write_file", { path: "loop-a/deeper/file.txt", content: "x" }],
    ["list_files", { path: "loop-a" }],
    ["edit_file", { path: "self", old_string: "a", new_string: "b" }],
  ])("%s refuses %j clearly", async (name, input) => {
    const { sandbox, call } = setup();
    symlinkSync("loop-b", path.join(sandbox.root, "loop-a"));
    symlinkSync("loop-a", path.join(sandbox.root, "loop-b"));
    symlinkSync("self", path.join(sandbox.root, "self"));
    const result = await call(name, input);
    expect(result.isError).toBe(true);
    expect(result.text).toBe(
      `Path "${(input as { path: string }).path}" cannot be resolved: it runs into a symbolic link loop.`,
    );
  });

  it("walking tools list loops as broken links and go on", async () => {
    const { sandbox, call } = setup();
    symlinkSync("loop-b", path.join(sandbox.root, "loop-a"));
    symlinkSync("loop-a", path.join(sandbox.root, "loop-b"));
    expect((await call("list_files", {})).text).toBe(
      ["inside.txt", "loop-a -> (a broken link)", "loop-b -> (a broken link)"].join("\n"),
    );
    expect((await call("grep", { pattern: "inside" })).text).toBe("inside.txt:1: inside");
  });
});
