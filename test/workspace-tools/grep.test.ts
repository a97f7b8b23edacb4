import { describe, expect, it } from "vitest";
import { createSandbox, workspaceTools } from "./helpers";

function project() {
  const sandbox = createSandbox();
  sandbox.write("src/math.ts", "export function add(a, b) {\n  return a + b; // TODO: overflow\n}\n");
  sandbox.write("src/text.ts", "export function Shout(text) {\n  return text.toUpperCase();\n}\n");
  sandbox.write("docs/guide.md", "# Guide\nCall add() to add numbers.\ntodo: write more\n");
  sandbox.write("node_modules/lib/index.js", "function add() {}\n");
  return sandbox;
}

describe("grep", () => {
  it("runs the regular expression off the event loop: a catastrophically backtracking pattern is stopped by the call's signal", async () => {
    const sandbox = createSandbox();
    // (a+)+$ against 27 a's and a "!" backtracks for many seconds (about 20 s on the main thread before).
    sandbox.write("data.txt", `${"a".repeat(27)}!\n`);
    const { call } = workspaceTools({ root: sandbox.root });
    const controller = new AbortController();
    // The abort comes from a timer, which fires only while the event loop is free: a pattern
    // matched on the main thread would finish first and the call would resolve, not reject. No
    // wall-clock assertion (it fails on a busy machine, where 300 ms can become seconds).
    setTimeout(() => controller.abort(new Error("the tool's deadline")), 300);
    await expect(call("grep", { pattern: "(a+)+$" }, controller.signal)).rejects.toThrow(
      "the tool's deadline",
    );
  });

  it("prints path:line: text for each matching line", async () => {
    const sandbox = project();
    const { call } = workspaceTools({ root: sandbox.root });
    expect(await call("grep", { pattern: "function \\w+" })).toEqual({
      text: [
        "src/math.ts:1: export function add(a, b) {",
        "src/text.ts:1: export function Shout(text) {",
      ].join("\n"),
      isError: false,
    });
  });

  it("matches case-insensitively when asked", async () => {
    const sandbox = project();
    const { call } = workspaceTools({ root: sandbox.root });
    expect((await call("grep", { pattern: "todo" })).text).toBe("docs/guide.md:3: todo: write more");
    expect((await call("grep", { pattern: "todo", case_insensitive: true })).text).toBe(
      ["docs/guide.md:3: todo: write more", "src/math.ts:2:   return a + b; // TODO: overflow"].join("\n"),
    );
  });

  it("filters files by a name glob or a path glob, and by path", async () => {
    const sandbox = project();
    const { call } = workspaceTools({ root: sandbox.root });
    expect((await call("grep", { pattern: "add", glob: "*.md" })).text).toBe(
      "docs/guide.md:2: Call add() to add numbers.",
    );
    expect((await call("grep", { pattern: "add", glob: "src/*.ts" })).text).toBe(
      "src/math.ts:1: export function add(a, b) {",
    );
    expect((await call("grep", { pattern: "add", glob: "*.{md,ts}", path: "src" })).text).toBe(
      "src/math.ts:1: export function add(a, b) {",
    );
    expect((await call("grep", { pattern: "add", path: "docs/guide.md" })).text).toBe(
      "docs/guide.md:2: Call add() to add numbers.",
    );
  });

  it("skips node_modules unless asked", async () => {
    const sandbox = project();
    const { call } = workspaceTools({ root: sandbox.root });
    expect((await call("grep", { pattern: "function add" })).text).toBe(
      "src/math.ts:1: export function add(a, b) {",
    );
    expect((await call("grep", { pattern: "function add", include_ignored: true })).text).toBe(
      "node_modules/lib/index.js:1: function add() {}\nsrc/math.ts:1: export function add(a, b) {",
    );
  });

  it("stops at the match cap with a notice", async () => {
    const sandbox = createSandbox();
    sandbox.write("many.txt", Array.from({ length: 10 }, (_, index) => `hit ${index + 1}`).join("\n"));
    const { call } = workspaceTools({ root: sandbox.root, maxMatches: 3 });
    expect((await call("grep", { pattern: "hit" })).text).toBe(
      [
        "many.txt:1: hit 1",
        "many.txt:2: hit 2",
        "many.txt:3: hit 3",
        "[Stopped at 3 matches; there are more. Narrow the pattern, path or glob.]",
      ].join("\n"),
    );
    const exact = await workspaceTools({ root: sandbox.root, maxMatches: 10 }).call("grep", {
      pattern: "hit",
    });
    expect(exact.text).not.toContain("Stopped");
  });

  it("skips binary and huge files and says so", async () => {
    const sandbox = createSandbox();
    sandbox.write("a.txt", "needle\n");
    sandbox.write("blob.bin", Buffer.concat([Buffer.from("needle\n"), Buffer.from([0, 1, 2])]));
    sandbox.write("huge.log", `needle\n${"x".repeat(2_000)}\n`);
    sandbox.write("other.bin", Buffer.from([0, 0x6e]));
    const { call } = workspaceTools({ root: sandbox.root, maxGrepFileBytes: 1_000 });
    expect((await call("grep", { pattern: "needle" })).text).toBe(
      "a.txt:1: needle\n[Skipped 2 binary files and 1 file over 1000 bytes.]",
    );
  });

  it("cuts long matching lines", async () => {
    const sandbox = createSandbox();
    sandbox.write("min.js", `${"a".repeat(300)}needle${"b".repeat(300)}\n`);
    const { call } = workspaceTools({ root: sandbox.root, maxLineChars: 50 });
    expect((await call("grep", { pattern: "needle" })).text).toBe(
      `min.js:1: ${"a".repeat(50)}… [line truncated: 606 characters]`,
    );
  });

  it("reports no matches, bad expressions and bad globs", async () => {
    const sandbox = project();
    const { call } = workspaceTools({ root: sandbox.root });
    expect(await call("grep", { pattern: "absent" })).toEqual({
      text: 'No matches for /absent/ in ".".',
      isError: false,
    });
    const invalid = await call("grep", { pattern: "(unclosed" });
    expect(invalid.isError).toBe(true);
    expect(invalid.text).toMatch(/^Invalid regular expression: .*Unterminated group/);
    expect(await call("grep", { pattern: "x", glob: "/abs/*" })).toEqual({
      text: 'Glob pattern "/abs/*" is absolute; patterns are relative to the searched folder.',
      isError: true,
    });
    expect(await call("grep", { pattern: "x", path: "missing" })).toEqual({
      text: '"missing" does not exist.',
      isError: true,
    });
  });

  it("stops when the call is aborted", async () => {
    const sandbox = project();
    const { call } = workspaceTools({ root: sandbox.root });
    const controller = new AbortController();
    controller.abort(new Error("stop now"));
    await expect(call("grep", { pattern: "add" }, controller.signal)).rejects.toThrow("stop now");
  });
});
