/**
 * Runs TypeScript child processes for the process-level store tests: the child's entry is bundled
 * from source with esbuild (shipped with tsup) into `.tmp/` inside the repository, so the child's
 * packages (pg, ioredis, better-sqlite3) resolve from the repository's node_modules, and it tests
 * the current source rather than a build that may be stale.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { bundleForNode } from "../../support/bundle";

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/** Bundles `entry` (relative to the repository) into a runnable .mjs file and returns its path. */
export async function bundleChild(entry: string): Promise<string> {
  const outputDirectory = join(repositoryRoot, ".tmp", "store-children");
  await mkdir(outputDirectory, { recursive: true });
  const outfile = join(outputDirectory, `child-${randomUUID()}.mjs`);
  await bundleForNode(join(repositoryRoot, entry), outfile);
  return outfile;
}

const running = new Set<ChildProcessWithoutNullStreams>();

/** Kills (SIGKILL) every child still running — for `afterAll`, so a failed test leaves none behind. */
export function killAllChildren(): void {
  for (const child of running) child.kill("SIGKILL");
  running.clear();
}

/** A running child with a line-by-line view of its stdout. */
export interface RunningChild {
  process: ChildProcessWithoutNullStreams;
  /** Resolves with the first stdout line (from now on, or already seen and not consumed) that matches. */
  waitForLine(matches: (line: string) => boolean): Promise<string>;
  /** Every stdout line so far. */
  lines: string[];
  /** Resolves when the child has exited, with its exit code and signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** What the child wrote to stderr. */
  stderr(): string;
}

/**
 * Starts `node <script> <JSON config>`, behind `wrapper` when given (e.g. `["prlimit", "--fsize=100000"]`
 * to cap the size of files the child may write).
 */
export function startChild(script: string, config: unknown, wrapper: string[] = []): RunningChild {
  const command = [...wrapper, process.execPath, script, JSON.stringify(config)];
  const child = spawn(command[0]!, command.slice(1), { stdio: ["pipe", "pipe", "pipe"] });
  running.add(child);
  const lines: string[] = [];
  const waiters: Array<{ matches: (line: string) => boolean; resolve: (line: string) => void }> = [];
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  createInterface({ input: child.stdout }).on("line", (line) => {
    lines.push(line);
    for (const waiter of [...waiters]) {
      if (waiter.matches(line)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) => {
    child.on("exit", (code, signal) => {
      running.delete(child);
      resolveExit({ code, signal });
    });
  });
  return {
    process: child,
    lines,
    exited,
    stderr: () => stderr,
    waitForLine(matches) {
      const seen = lines.find(matches);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolveLine, reject) => {
        waiters.push({ matches, resolve: resolveLine });
        exited.then(({ code, signal }) =>
          reject(
            new Error(
              `The child exited (code ${code}, signal ${signal}) before the expected line. stderr:\n${stderr}`,
            ),
          ),
        );
      });
    },
  };
}
