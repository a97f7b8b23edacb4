/**
 * The path resolver's errors are worded like the others: no raw errno text (`EINVAL: invalid
 * argument, readlink '<root>/d'`) reaches a tool result, also while an entry is swapped between a
 * symbolic link and a file under the resolver.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resolveWorkspaceSettings } from "../../src/workspace-tools/options";
import { resolveRealPath } from "../../src/workspace-tools/real-path";
import { describeFileSystemError } from "../../src/workspace-tools/tool-result";
import { createWorkspace } from "../../src/workspace-tools/workspace";
import { createSandbox } from "./helpers";

const swappers: Array<ReturnType<typeof spawn>> = [];
afterEach(() => {
  for (const swapper of swappers.splice(0)) swapper.kill("SIGKILL");
});

describe("path resolver errors", () => {
  it.each([
    ["EINVAL", "cannot be used: it changed while it was being read"],
    ["ELOOP", "cannot be resolved: it runs into a symbolic link loop"],
    ["EIO", "the device reported an input/output error"],
    ["ESOMETHINGNEW", "cannot be used: the file system refused (ESOMETHINGNEW)"],
  ])("%s is worded, naming the path as the model knows it, never the raw message", (code, words) => {
    const sandbox = createSandbox();
    const workspace = createWorkspace(resolveWorkspaceSettings({ root: sandbox.root }));
    const physical = path.join(sandbox.root, "d");
    const error = Object.assign(new Error(`${code}: invalid argument, readlink '${physical}'`), {
      code,
      path: physical,
    });
    const text = describeFileSystemError(workspace, error)!;
    expect(text).toBe(`"d" ${text.slice(4)}`);
    expect(text).toContain(words);
    expect(text).not.toContain(sandbox.root);
    expect(text).not.toContain("invalid argument, readlink");
  });

  it("an entry swapped between a dangling link and a file is resolved, never an errno", async () => {
    const sandbox = createSandbox();
    const swapper = spawn(
      "bash",
      ["-c", "while :; do ln -sfn nowhere d.link && mv -T d.link d; echo x > d.file && mv -T d.file d; done"],
      { cwd: sandbox.root, stdio: "ignore" },
    );
    swappers.push(swapper);
    const target = path.join(sandbox.root, "d");
    const expected = new Set([target, path.join(sandbox.root, "nowhere")]);
    const failures: unknown[] = [];
    for (let call = 0; call < 3_000; call++) {
      const resolved = await resolveRealPath(target).catch((error: unknown) => {
        failures.push(error);
        return undefined;
      });
      if (resolved !== undefined) expect(expected.has(resolved)).toBe(true);
    }
    expect(failures).toEqual([]);
  });
});
