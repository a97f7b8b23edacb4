/**
 * The verified opens, made deterministic: the path is resolved while a folder is real, then the
 * folder is swapped for a link to outside (as a racing process would do), then it is opened.
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createConfined, openConfined, openConfinedDirectory } from "../../src/workspace-tools/confined-open";
import { resolveWorkspaceSettings } from "../../src/workspace-tools/options";
import { createWorkspace, relativeInside, WorkspacePathError } from "../../src/workspace-tools/workspace";
import { createSandbox, workspaceTools } from "./helpers";

function setup() {
  const sandbox = createSandbox();
  sandbox.write("swapped/secret.txt", "inside\n");
  const workspace = createWorkspace(resolveWorkspaceSettings({ root: sandbox.root }));
  /** Puts a link to outside where the folder `swapped` was (the folder is kept aside). */
  const swap = () => {
    renameSync(path.join(sandbox.root, "swapped"), path.join(sandbox.root, "aside"));
    symlinkSync(sandbox.outside, path.join(sandbox.root, "swapped"));
  };
  return { sandbox, workspace, swap };
}

const changed =
  /^Path "swapped\/[^"]*" changed while it was being opened and led outside the workspace root /;

describe.skipIf(process.platform !== "linux")("verified opens after a swap (Linux: /proc/self/fd)", () => {
  it("openConfined refuses a file reached through a link swapped in after the check", async () => {
    const { workspace, swap } = setup();
    const file = await workspace.resolve("swapped/secret.txt");
    swap();
    for (const access of ["read", "read-write"] as const) {
      const opening = openConfined(workspace, file, access, "swapped/secret.txt");
      await expect(opening).rejects.toThrow(WorkspacePathError);
      await expect(opening).rejects.toThrow(changed);
    }
  });

  it("createConfined creates nothing outside: neither the file nor its missing folders", async () => {
    const { sandbox, workspace, swap } = setup();
    const direct = await workspace.resolve("swapped/new.txt");
    const deep = await workspace.resolve("swapped/made/deeper/new.txt");
    swap();
    await expect(createConfined(workspace, direct, "swapped/new.txt")).rejects.toThrow(changed);
    await expect(createConfined(workspace, deep, "swapped/made/deeper/new.txt")).rejects.toThrow(changed);
    expect(readdirSync(sandbox.outside)).toEqual(["secret.txt"]);
  });

  it("openConfinedDirectory refuses a folder swapped for a link", async () => {
    const { workspace, swap } = setup();
    const folder = await workspace.resolve("swapped");
    swap();
    await expect(openConfinedDirectory(workspace, folder.absolute, "swapped/")).rejects.toThrow(
      WorkspacePathError,
    );
  });

  it("a real folder put back in its place is used again", async () => {
    const { sandbox, workspace, swap } = setup();
    const file = await workspace.resolve("swapped/secret.txt");
    swap();
    await expect(openConfined(workspace, file, "read", "swapped/secret.txt")).rejects.toThrow(changed);
    const link = path.join(sandbox.root, "swapped");
    renameSync(link, path.join(sandbox.base, "old-link"));
    renameSync(path.join(sandbox.root, "aside"), link);
    const opened = await openConfined(workspace, file, "read", "swapped/secret.txt");
    try {
      expect(opened.physical).toBe(path.join(sandbox.root, "swapped/secret.txt"));
      expect((await opened.handle.readFile()).toString()).toBe("inside\n");
    } finally {
      await opened.handle.close();
    }
  });

  it("creates missing folders one at a time inside the root", async () => {
    const { sandbox, workspace } = setup();
    const file = await workspace.resolve("a/b/c/new.txt");
    const created = await createConfined(workspace, file, "a/b/c/new.txt");
    expect(created.status).toBe("opened");
    if (created.status === "opened") await created.entry.handle.close();
    expect(existsSync(path.join(sandbox.root, "a/b/c/new.txt"))).toBe(true);
  });
});

describe("random paths never reach outside the root (property)", () => {
  const segment = fc.constantFrom(
    "..",
    ".",
    "",
    "sub",
    "file.txt",
    "inside-link",
    "outside-link",
    "outside-file-link",
    "loop",
    "missing",
    "sub/..",
    "%2e%2e",
    "...",
    "sub\\..\\..",
  );
  const requested = fc
    .tuple(
      fc.constantFrom("", "/", "ROOT/", "OUTSIDE/", "BASE/"),
      fc.array(segment, { minLength: 1, maxLength: 7 }),
    )
    .map(([prefix, parts]) => ({ prefix, parts }));

  function workspaceWithLinks() {
    const sandbox = createSandbox();
    sandbox.write("file.txt", "inside the root\n");
    sandbox.write("sub/file.txt", "inside the root\n");
    mkdirSync(path.join(sandbox.root, "sub/sub"), { recursive: true });
    writeFileSync(path.join(sandbox.outside, "file.txt"), "TOP SECRET outside the root\n");
    symlinkSync("sub", path.join(sandbox.root, "inside-link"));
    symlinkSync(sandbox.outside, path.join(sandbox.root, "outside-link"));
    symlinkSync(path.join(sandbox.outside, "file.txt"), path.join(sandbox.root, "outside-file-link"));
    symlinkSync("loop", path.join(sandbox.root, "loop"));
    const expand = ({ prefix, parts }: { prefix: string; parts: string[] }) =>
      prefix.replace("ROOT", sandbox.root).replace("OUTSIDE", sandbox.outside).replace("BASE", sandbox.base) +
      parts.join("/");
    return { sandbox, expand };
  }

  it("workspace.resolve either refuses a path or resolves it inside the root", async () => {
    const { sandbox, expand } = workspaceWithLinks();
    const workspace = createWorkspace(resolveWorkspaceSettings({ root: sandbox.root }));
    await fc.assert(
      fc.asyncProperty(requested, async (input) => {
        const asked = expand(input);
        try {
          const resolved = await workspace.resolve(asked);
          expect(relativeInside(sandbox.root, resolved.absolute), asked).toBeDefined();
        } catch (error) {
          expect(error, asked).toBeInstanceOf(WorkspacePathError);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("no file tool reads, lists or writes outside for any such path", async () => {
    const { sandbox, expand } = workspaceWithLinks();
    const { call } = workspaceTools({ root: sandbox.root });
    const outsideBefore = readdirSync(sandbox.outside).sort();
    await fc.assert(
      fc.asyncProperty(
        requested,
        fc.constantFrom("read_file", "list_files", "grep", "write_file", "edit_file", "glob"),
        async (input, tool) => {
          const asked = expand(input);
          const inputs: Record<string, unknown> = {
            read_file: { path: asked },
            list_files: { path: asked, recursive: true },
            grep: { pattern: "SECRET|inside", path: asked },
            glob: { pattern: "**", path: asked },
            write_file: { path: asked, content: "written\n" },
            edit_file: { path: asked, old_string: "TOP SECRET", new_string: "EDITED" },
          };
          const result = await call(tool, inputs[tool]);
          expect(result.text, `${tool} ${asked}`).not.toContain("TOP SECRET");
        },
      ),
      { numRuns: 300 },
    );
    expect(readdirSync(sandbox.outside).sort()).toEqual(outsideBefore);
    expect(readFileSync(path.join(sandbox.outside, "file.txt"), "utf8")).toBe(
      "TOP SECRET outside the root\n",
    );
  });
});
