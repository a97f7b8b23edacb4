/**
 * File checkpoints of the workspace tools: `write_file` and `edit_file` record a file's prior
 * content under the call's checkpoint (once per file per checkpoint, content-addressed, bounded),
 * and a restore — by a fresh set of tools, as another process would — puts the files back,
 * confined: a link swapped in is never followed.
 */

import { existsSync, lstatSync, readdirSync, readFileSync, rmSync, symlinkSync, unlinkSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createToolContext } from "../../src/index";
import type { Tool } from "../../src/tools/tool";
import {
  CHECKPOINT_FOLDER,
  createWorkspaceTools,
  type WorkspaceToolsOptions,
} from "../../src/workspace-tools/index";
import { createSandbox } from "./helpers";
import { createRaceSandbox, snapshotFolder, startSwapper } from "./race-helpers";

const CP1 = `cp_${"1".repeat(32)}`;
const CP2 = `cp_${"2".repeat(32)}`;

/** The workspace tools of a root, with a call that runs under a checkpoint as the loop would. */
function toolsOf(options: WorkspaceToolsOptions) {
  const tools = new Map(createWorkspaceTools(options).map((tool) => [tool.name, tool]));
  const call = async (name: string, input: unknown, checkpointId?: string) => {
    const tool = tools.get(name) as Tool;
    const parsed = await tool.parseInput(input);
    if (!parsed.ok) throw new Error(parsed.message);
    const signal = new AbortController().signal;
    const output = await tool.execute(
      parsed.value,
      createToolContext({
        signal,
        toolUseId: "toolu_x",
        toolName: name,
        checkpointId,
      }),
    );
    return typeof output === "string" ? output : JSON.stringify(output);
  };
  const checkpoints = tools.get("write_file")!.fileCheckpoints!;
  return { tools, call, checkpoints };
}

function blobCount(root: string): number {
  const blobs = path.join(root, CHECKPOINT_FOLDER, "blobs");
  return existsSync(blobs) ? readdirSync(blobs).filter((name) => !name.startsWith(".")).length : 0;
}

describe("recording prior content", () => {
  it("records each changed file once per checkpoint, content-addressed; created files as absent", async () => {
    const sandbox = createSandbox();
    sandbox.write("a.txt", "alpha\n");
    sandbox.write("b.txt", "alpha\n"); // the same content: one blob
    const { call, checkpoints } = toolsOf({ root: sandbox.root });
    expect(await checkpoints.files(CP1)).toEqual({ changed: [], notKept: [] });
    await call("write_file", { path: "a.txt", content: "one\n" }, CP1);
    await call("write_file", { path: "a.txt", content: "two\n" }, CP1); // recorded already: kept as "alpha"
    await call("edit_file", { path: "b.txt", old_string: "alpha", new_string: "beta" }, CP1);
    await call("write_file", { path: "new/c.txt", content: "created\n" }, CP1);
    await call("edit_file", { path: "a.txt", old_string: "two", new_string: "three" }, CP2);
    expect(await checkpoints.files(CP1)).toEqual({ changed: ["a.txt", "b.txt", "new/c.txt"], notKept: [] });
    expect(await checkpoints.files(CP2)).toEqual({ changed: ["a.txt"], notKept: [] });
    expect(blobCount(sandbox.root)).toBe(2); // "alpha\n" once, "two\n" once

    // A fresh set of tools over the same root (as in another process) restores from the folder.
    const other = toolsOf({ root: sandbox.root });
    rmSync(path.join(sandbox.root, "b.txt")); // deleted since (by bash, say): restored
    const report = await other.checkpoints.restore([CP1, CP2]);
    expect(report).toEqual({ restored: ["a.txt", "b.txt"], removed: ["new/c.txt"], notKept: [], failed: [] });
    expect(sandbox.read("a.txt")).toBe("alpha\n");
    expect(sandbox.read("b.txt")).toBe("alpha\n");
    expect(existsSync(path.join(sandbox.root, "new/c.txt"))).toBe(false);

    // Restoring only the later checkpoint puts back what was before it.
    await call("write_file", { path: "a.txt", content: "two\n" }, CP2);
    expect((await other.checkpoints.restore([CP2])).restored).toEqual(["a.txt"]);
    expect(sandbox.read("a.txt")).toBe("two\n");
  });

  it("writes nothing when no file changes: read-only calls, failed edits, calls outside a query", async () => {
    const sandbox = createSandbox();
    sandbox.write("a.txt", "alpha\n");
    const { call } = toolsOf({ root: sandbox.root });
    await call("read_file", { path: "a.txt" }, CP1);
    await call("edit_file", { path: "a.txt", old_string: "missing", new_string: "x" }, CP1);
    await call("write_file", { path: "a.txt", content: "outside a query\n" }); // no checkpoint
    expect(existsSync(path.join(sandbox.root, ".agent-lattice"))).toBe(false);
  });

  it("is off with fileCheckpoints: false, and walks (glob, grep) skip the folder", async () => {
    const sandbox = createSandbox();
    const off = toolsOf({ root: sandbox.root, fileCheckpoints: false });
    expect(off.tools.get("write_file")!.fileCheckpoints).toBeUndefined();
    await off.call("write_file", { path: "a.txt", content: "x\n" }, CP1);
    expect(existsSync(path.join(sandbox.root, ".agent-lattice"))).toBe(false);
    const on = toolsOf({ root: sandbox.root });
    await on.call("write_file", { path: "a.txt", content: "y\n" }, CP1);
    expect(existsSync(path.join(sandbox.root, CHECKPOINT_FOLDER))).toBe(true);
    // Walks skip it like .git (list_files of the root still names it, as it names .git).
    expect(await on.call("glob", { pattern: "**/*" })).not.toContain(".agent-lattice");
  });

  it("lists files over the size limits as not kept, and leaves them alone on restore", async () => {
    const sandbox = createSandbox();
    sandbox.write("big.txt", "x".repeat(100));
    sandbox.write("small.txt", "s".repeat(10));
    sandbox.write("next.txt", "n".repeat(10));
    const { call, checkpoints } = toolsOf({
      root: sandbox.root,
      fileCheckpoints: { maxFileBytes: 50, maxCheckpointBytes: 15 },
    });
    await call("write_file", { path: "big.txt", content: "changed" }, CP1); // over the per-file limit
    await call("write_file", { path: "small.txt", content: "changed" }, CP1); // kept: 10 bytes
    await call("write_file", { path: "next.txt", content: "changed" }, CP1); // 20 > 15 for the checkpoint
    expect(await checkpoints.files(CP1)).toEqual({
      changed: ["small.txt"],
      notKept: ["big.txt", "next.txt"],
    });
    const report = await checkpoints.restore([CP1]);
    expect(report).toEqual({
      restored: ["small.txt"],
      removed: [],
      notKept: ["big.txt", "next.txt"],
      failed: [],
    });
    expect(sandbox.read("big.txt")).toBe("changed");
    expect(() => createWorkspaceTools({ root: sandbox.root, fileCheckpoints: { maxFileBytes: 0 } })).toThrow(
      /maxFileBytes/,
    );
  });
});

describe("restoring, confined", () => {
  it("a link swapped in at a file's name is replaced, never followed; a folder swapped for a link is refused", async () => {
    const sandbox = createSandbox();
    sandbox.write("doc.txt", "prior\n");
    sandbox.write("sub/inner.txt", "prior inner\n");
    const { call, checkpoints } = toolsOf({ root: sandbox.root });
    await call("write_file", { path: "doc.txt", content: "changed\n" }, CP1);
    await call("write_file", { path: "sub/inner.txt", content: "changed\n" }, CP1);
    await call("write_file", { path: "created.txt", content: "new\n" }, CP1);
    const secret = path.join(sandbox.outside, "secret.txt");
    const before = snapshotFolder(sandbox.outside);
    unlinkSync(path.join(sandbox.root, "doc.txt"));
    symlinkSync(secret, path.join(sandbox.root, "doc.txt"));
    unlinkSync(path.join(sandbox.root, "created.txt"));
    symlinkSync(secret, path.join(sandbox.root, "created.txt"));
    rmSync(path.join(sandbox.root, "sub"), { recursive: true });
    symlinkSync(sandbox.outside, path.join(sandbox.root, "sub"));

    const report = await checkpoints.restore([CP1]);
    expect(report.restored).toEqual(["doc.txt"]);
    expect(report.removed).toEqual(["created.txt"]);
    expect(report.failed.map((failure) => failure.path)).toEqual(["sub/inner.txt"]);
    expect(lstatSync(path.join(sandbox.root, "doc.txt")).isFile()).toBe(true);
    expect(sandbox.read("doc.txt")).toBe("prior\n");
    expect(existsSync(path.join(sandbox.root, "created.txt"))).toBe(false);
    expect(readFileSync(secret, "utf8")).toBe("TOP SECRET outside the root\n");
    expect(snapshotFolder(sandbox.outside)).toBe(before);
  });

  it("while folders are swapped for links to outside in a tight loop, no restore writes outside (400 restores)", {
    timeout: 240_000,
  }, async () => {
    const { sandbox, folders } = createRaceSandbox(8);
    const { call, checkpoints } = toolsOf({ root: sandbox.root });
    for (let index = 0; index < folders.length; index++) {
      await call("write_file", { path: `f${index}/notes.md`, content: "state=B\n" }, CP1);
      await call("write_file", { path: `f${index}/made.txt`, content: "made\n" }, CP1);
    }
    const outsideNotes = path.join(sandbox.outside, "notes.md");
    const before = snapshotFolder(sandbox.outside);
    const swapper = await startSwapper(sandbox.outside, folders);
    let restored = 0;
    try {
      for (let round = 0; round < 400 / folders.length; round++) {
        const report = await checkpoints.restore([CP1]);
        restored += report.restored.length;
        expect(readFileSync(outsideNotes, "utf8")).toBe("state=A\n");
      }
    } finally {
      expect(await swapper.stop()).toBeGreaterThan(0);
    }
    expect(snapshotFolder(sandbox.outside)).toBe(before);
    expect(restored).toBeGreaterThan(0);
  });
});
