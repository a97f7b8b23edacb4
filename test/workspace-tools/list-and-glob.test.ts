import { describe, expect, it } from "vitest";
import { createSandbox, workspaceTools } from "./helpers";

function project() {
  const sandbox = createSandbox();
  for (const file of [
    "README.md",
    "package.json",
    ".env.example",
    "src/index.ts",
    "src/util/strings.ts",
    "src/util/strings.test.ts",
    "src/view.tsx",
    "test/index.test.ts",
    "node_modules/zod/index.d.ts",
    "node_modules/zod/package.json",
    ".git/HEAD",
  ]) {
    sandbox.write(file, `// ${file}\n`);
  }
  return sandbox;
}

describe("list_files", () => {
  it("lists one folder, sorted, folders marked with /", async () => {
    const sandbox = project();
    const { call } = workspaceTools({ root: sandbox.root });
    expect(await call("list_files", {})).toEqual({
      text: [".env.example", ".git/", "README.md", "node_modules/", "package.json", "src/", "test/"].join(
        "\n",
      ),
      isError: false,
    });
    expect((await call("list_files", { path: "src/util" })).text).toBe(
      "src/util/strings.test.ts\nsrc/util/strings.ts",
    );
  });

  it("lists recursively without entering node_modules and .git unless asked", async () => {
    const sandbox = project();
    const { call } = workspaceTools({ root: sandbox.root });
    expect((await call("list_files", { recursive: true })).text).toBe(
      [
        ".env.example",
        ".git/ (not entered; set include_ignored to list it)",
        "README.md",
        "node_modules/ (not entered; set include_ignored to list it)",
        "package.json",
        "src/",
        "src/index.ts",
        "src/util/",
        "src/util/strings.test.ts",
        "src/util/strings.ts",
        "src/view.tsx",
        "test/",
        "test/index.test.ts",
      ].join("\n"),
    );
    const all = (await call("list_files", { recursive: true, include_ignored: true })).text.split("\n");
    expect(all).toContain(".git/HEAD");
    expect(all).toContain("node_modules/zod/index.d.ts");
    expect((await call("list_files", { path: "node_modules", recursive: true })).text).toBe(
      "node_modules/zod/\nnode_modules/zod/index.d.ts\nnode_modules/zod/package.json",
    );
  });

  it("stops at the entry cap with a notice", async () => {
    const sandbox = project();
    const { call } = workspaceTools({ root: sandbox.root, maxEntries: 3 });
    expect(await call("list_files", {})).toEqual({
      text: [
        ".env.example",
        ".git/",
        "README.md",
        "[Listing stopped at 3 entries; there are more. List a sub-folder or use glob to narrow it.]",
      ].join("\n"),
      isError: false,
    });
  });

  it("caps the output characters with a notice", async () => {
    const sandbox = createSandbox();
    for (let index = 0; index < 50; index++) sandbox.write(`file-${String(index).padStart(3, "0")}.txt`, "");
    const { call } = workspaceTools({ root: sandbox.root, maxOutputChars: 200 });
    const result = await call("list_files", {});
    const lines = result.text.split("\n");
    expect(lines.pop()).toMatch(
      /^\[Output truncated: \d+ of 649 characters omitted\. List a sub-folder to see the rest\.\]$/,
    );
    expect(lines.join("\n").length).toBeLessThanOrEqual(200);
    expect(lines[0]).toBe("file-000.txt");
  });

  it("says when a folder is empty, and refuses files", async () => {
    const sandbox = project();
    sandbox.write("empty/.keep", "");
    const { call } = workspaceTools({ root: sandbox.root });
    expect((await call("list_files", { path: "empty" })).text).toBe("empty/.keep");
    const folder = createSandbox();
    expect(await workspaceTools({ root: folder.root }).call("list_files", {})).toEqual({
      text: '"." is empty.',
      isError: false,
    });
    expect(await call("list_files", { path: "README.md" })).toEqual({
      text: '"README.md" is a file, not a folder; use read_file to read it.',
      isError: true,
    });
    expect(await call("list_files", { path: "nope" })).toEqual({
      text: '"nope" does not exist.',
      isError: true,
    });
  });
});

describe("glob", () => {
  it("matches at any depth with **, sorted", async () => {
    const sandbox = project();
    const { call } = workspaceTools({ root: sandbox.root });
    expect((await call("glob", { pattern: "**/*.ts" })).text).toBe(
      ["src/index.ts", "src/util/strings.test.ts", "src/util/strings.ts", "test/index.test.ts"].join("\n"),
    );
    expect((await call("glob", { pattern: "**/*.test.ts" })).text).toBe(
      "src/util/strings.test.ts\ntest/index.test.ts",
    );
  });

  it("matches only the top folder without **, and dotfiles too", async () => {
    const sandbox = project();
    const { call } = workspaceTools({ root: sandbox.root });
    expect((await call("glob", { pattern: "*" })).text).toBe(
      [".env.example", "README.md", "package.json"].join("\n"),
    );
    expect((await call("glob", { pattern: "src/*.{ts,tsx}" })).text).toBe("src/index.ts\nsrc/view.tsx");
  });

  it("searches under path, with the pattern relative to it", async () => {
    const sandbox = project();
    const { call } = workspaceTools({ root: sandbox.root });
    expect((await call("glob", { pattern: "*.ts", path: "src/util" })).text).toBe(
      "src/util/strings.test.ts\nsrc/util/strings.ts",
    );
    expect((await call("glob", { pattern: "**/strings.ts", path: "src" })).text).toBe("src/util/strings.ts");
  });

  it("skips node_modules and .git unless asked or named by the pattern", async () => {
    const sandbox = project();
    const { call } = workspaceTools({ root: sandbox.root });
    expect((await call("glob", { pattern: "**/*.json" })).text).toBe("package.json");
    expect((await call("glob", { pattern: "**/*.json", include_ignored: true })).text).toBe(
      "node_modules/zod/package.json\npackage.json",
    );
    expect((await call("glob", { pattern: "node_modules/zod/*.d.ts" })).text).toBe(
      "node_modules/zod/index.d.ts",
    );
    expect((await call("glob", { pattern: ".git/*" })).text).toBe(".git/HEAD");
  });

  it("stops at the entry cap with a notice", async () => {
    const sandbox = project();
    const { call } = workspaceTools({ root: sandbox.root, maxEntries: 2 });
    expect((await call("glob", { pattern: "**/*.ts" })).text).toBe(
      "src/index.ts\nsrc/util/strings.test.ts\n[Stopped at 2 files; there are more. Narrow the pattern or the path.]",
    );
  });

  it("says when nothing matches, and explains bad patterns", async () => {
    const sandbox = project();
    const { call } = workspaceTools({ root: sandbox.root });
    expect(await call("glob", { pattern: "**/*.rs" })).toEqual({
      text: 'No files match "**/*.rs" in ".".',
      isError: false,
    });
    expect(await call("glob", { pattern: "../**" })).toEqual({
      text: 'Glob pattern "../**" contains ".."; choose the folder to search with path instead.',
      isError: true,
    });
    expect(await call("glob", { pattern: "*", path: "README.md" })).toEqual({
      text: '"README.md" is a file, not a folder; pass a folder as path.',
      isError: true,
    });
  });

  it("list_files and glob are read-only", () => {
    const sandbox = createSandbox();
    const { tools } = workspaceTools({ root: sandbox.root });
    expect(tools.get("list_files")!.readOnly).toBe(true);
    expect(tools.get("glob")!.readOnly).toBe(true);
  });
});
