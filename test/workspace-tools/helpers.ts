import { execFileSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach } from "vitest";
import { createToolContext } from "../../src/index";
import type { Tool } from "../../src/tools/tool";
import { createWorkspaceTools, type WorkspaceToolsOptions } from "../../src/workspace-tools/index";
import { isRunning } from "../support/processes";
import { LIVENESS_FLOOR_MS } from "../support/promises";

/** A fresh temporary folder per test: `root` is the workspace, `outside` a sibling the tools must not reach. */
export interface Sandbox {
  base: string;
  root: string;
  outside: string;
  /** Writes a file under the root, creating parents. */
  write(relativePath: string, content: string | Buffer): string;
  read(relativePath: string): string;
}

const sandboxes: string[] = [];

afterEach(() => {
  for (const base of sandboxes.splice(0)) rmSync(base, { recursive: true, force: true });
});

/** Creates a sandbox removed after the test. */
export function createSandbox(): Sandbox {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), "lattice-tools-")));
  sandboxes.push(base);
  const root = path.join(base, "root");
  const outside = path.join(base, "outside");
  mkdirSync(root);
  mkdirSync(outside);
  writeFileSync(path.join(outside, "secret.txt"), "TOP SECRET outside the root\n");
  return {
    base,
    root,
    outside,
    write(relativePath, content) {
      const file = path.join(root, relativePath);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, content);
      return file;
    },
    read: (relativePath) => readFileSync(path.join(root, relativePath), "utf8"),
  };
}

/** The host user a root test process gives its sandboxes' roots to (the sandbox then runs as it). */
export const SANDBOX_OWNER = { uid: 64_101, gid: 64_101 };

/**
 * When this process is root: the sandbox's root (and whatever `write` adds) owned by
 * {@link SANDBOX_OWNER} and the folders above it searchable, as a root host must set a workspace
 * up for `bashSandbox` (whose commands then run as that user, not as root). Otherwise unchanged.
 */
export function ownedBySandboxUser(sandbox: Sandbox, owner = SANDBOX_OWNER): Sandbox {
  if (process.getuid?.() !== 0) return sandbox;
  chmodSync(sandbox.base, 0o755);
  const chown = () => execFileSync("chown", ["-R", `${owner.uid}:${owner.gid}`, sandbox.root]);
  chown();
  return {
    ...sandbox,
    write(relativePath, content) {
      const file = sandbox.write(relativePath, content);
      chown();
      return file;
    },
  };
}

/** What a tool call returned, flattened to text. */
export interface CallResult {
  text: string;
  isError: boolean;
}

/** The workspace tools of a root, by name, with a helper that validates input and runs a call. */
export function workspaceTools(options: WorkspaceToolsOptions) {
  const tools = new Map(createWorkspaceTools(options).map((tool) => [tool.name, tool]));
  return {
    tools,
    async call(
      name: string,
      input: unknown,
      signal: AbortSignal = new AbortController().signal,
    ): Promise<CallResult> {
      const tool = tools.get(name);
      if (!tool) throw new Error(`No tool ${name}`);
      return callTool(tool, input, signal);
    },
  };
}

/** Validates the input like the loop does, then runs the tool. */
export async function callTool(tool: Tool, input: unknown, signal: AbortSignal): Promise<CallResult> {
  const parsed = await tool.parseInput(input);
  if (!parsed.ok) throw new Error(`Invalid input for ${tool.name}: ${parsed.message}`);
  const output = await tool.execute(
    parsed.value,
    createToolContext({ signal, toolUseId: "toolu_test", toolName: tool.name }),
  );
  if (typeof output === "string") return { text: output, isError: false };
  const text =
    typeof output.content === "string"
      ? output.content
      : output.content.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("");
  return { text, isError: output.isError ?? false };
}

export { isRunning };

/** Polls until none of `pids` runs any more (a liveness bound, not a speed assertion); returns the survivors. */
export async function survivorsOf(pids: number[]): Promise<number[]> {
  const giveUpAt = Date.now() + LIVENESS_FLOOR_MS;
  while (Date.now() < giveUpAt) {
    if (!pids.some(isRunning)) return [];
    await sleep(20);
  }
  return pids.filter(isRunning);
}

/** Reads the pids a command wrote, one per line, once `count` are there. */
export async function waitForPids(file: string, count: number): Promise<number[]> {
  const giveUpAt = Date.now() + LIVENESS_FLOOR_MS;
  while (Date.now() < giveUpAt) {
    if (existsSync(file)) {
      const pids = readFileSync(file, "utf8").split("\n").filter(Boolean).map(Number);
      if (pids.length >= count) return pids;
    }
    await sleep(20);
  }
  throw new Error(`the command did not write ${count} pids to ${file}`);
}
