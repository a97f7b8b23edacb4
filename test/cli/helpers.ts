/**
 * Helpers of the CLI tests: build the real binary when it is stale, spawn it, drive it through a
 * real pseudo-terminal (tmux), and make scratch folders.
 */
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export const ROOT = path.resolve(__dirname, "../..");
/** The command as the package's "bin" names it (built by the second tsup config into dist/cli/). */
export const CLI = path.join(ROOT, "dist/cli/main.js");
/** A dummy key: the tests check it never appears in any output. */
export const DUMMY_KEY = "sk-ant-test-0123456789abcdef";
/** How long a spawned run may take before the test gives up on it (a hang, not a speed check). */
const RUN_DEADLINE_MS = 60_000;

/** Newest modification time of the files under `folder`. */
function newestModification(folder: string): number {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** The command bundles everything it uses from src/, so any change there makes it stale. */
function isCliFresh(): boolean {
  const built = statSync(CLI, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  return (
    built >=
    Math.max(newestModification(path.join(ROOT, "src")), statSync(path.join(ROOT, "package.json")).mtimeMs)
  );
}

function sleepSync(milliseconds: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, milliseconds);
}

/**
 * Builds `dist/cli/main.js` when it is missing or older than `src/**` (or package.json, whose version
 * it prints). Only the CLI entry is built (ESM, no declarations, no clean), so the rest of `dist/` —
 * which other work uses — is untouched.
 * A lock folder keeps parallel test files from building at once.
 */
export function ensureBuiltCli(): void {
  if (isCliFresh()) return;
  // One lock per checkout: other worktrees build their own dist/ and must not wait for this one.
  const checkout = createHash("sha256").update(ROOT).digest("hex").slice(0, 12);
  const lock = path.join(tmpdir(), `agent-lattice-cli-build-${checkout}.lock`);
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 300_000) rmSync(lock, { recursive: true, force: true });
      else sleepSync(200);
    }
  }
  try {
    if (isCliFresh()) return;
    execFileSync(
      "npx",
      [
        "tsup",
        "--no-config",
        "--entry.main",
        "src/cli/main.ts",
        "--format",
        "esm",
        "--platform",
        "node",
        "--target",
        "node20",
        "--out-dir",
        "dist/cli",
        "--silent",
      ],
      { cwd: ROOT, stdio: "pipe" },
    );
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** An environment without the caller's provider variables or colour settings. */
export function cleanEnvironment(extra: Record<string, string> = {}): Record<string, string> {
  const base: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin" };
  if (process.env.HOME) base.HOME = process.env.HOME;
  if (process.env.TMPDIR) base.TMPDIR = process.env.TMPDIR;
  return { ...base, ...extra };
}

/** What a finished run printed and how it exited. */
export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Options of {@link runCli}. */
export interface RunOptions {
  env?: Record<string, string>;
  cwd?: string;
  /** Written to stdin, which is then closed (unless `keepStdinOpen`). */
  input?: string;
  /** Leave stdin open after `input`: an interactive session then waits for its next line. */
  keepStdinOpen?: boolean;
  /** Called once the process runs, e.g. to send it signals. */
  onSpawn?: (child: ReturnType<typeof spawn>) => void;
}

/** Spawns `node dist/cli/main.js …args` with pipes (so stdout and stderr are not terminals). */
export function runCli(args: string[], options: RunOptions = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd ?? ROOT,
      env: options.env ?? cleanEnvironment(),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const deadline = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new Error(
          `the CLI did not finish within ${RUN_DEADLINE_MS} ms\nstdout: ${stdout}\nstderr: ${stderr}`,
        ),
      );
    }, RUN_DEADLINE_MS);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(deadline);
      resolve({ code, signal, stdout, stderr });
    });
    if (options.keepStdinOpen) child.stdin.write(options.input ?? "");
    else child.stdin.end(options.input ?? "");
    options.onSpawn?.(child);
  });
}

/** A fresh scratch folder, removed by the returned cleanup. */
export function scratchFolder(files: Record<string, string> = {}): { root: string; remove(): void } {
  const root = mkdtempSync(path.join(tmpdir(), "agent-lattice-cli-test-"));
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), content);
  }
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/**
 * As root, the bash sandbox runs as the workspace's owner and never as root (a root-owned
 * workspace is read-only to commands): hand `root` to an unprivileged uid so commands can write
 * there, as a user's own project would be. Nothing to do when the tests do not run as root.
 */
export function ownedBySandboxUser(root: string): void {
  if (process.getuid?.() !== 0) return;
  execFileSync("chown", ["-R", "64101:64101", root]);
}

/** Polls `probe` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 30_000,
): Promise<T> {
  const giveUpAt = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > giveUpAt) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Text of the last user message of a recorded request body. */
export function lastUserText(body: { messages: Array<{ role: string; content: unknown }> }): string {
  const last = [...body.messages].reverse().find((message) => message.role === "user");
  if (!last) return "";
  if (typeof last.content === "string") return last.content;
  return (last.content as Array<{ type: string; text?: string }>)
    .map((block) => (block.type === "text" ? (block.text ?? "") : ""))
    .join("");
}

/** Quotes a word for `sh`. */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

let tmuxSessions = 0;

/** The CLI running in a tmux pane: a real pseudo-terminal that keys are typed into. */
export class TmuxCli {
  private readonly socket = `agent-lattice-cli-test-${process.pid}-${++tmuxSessions}`;
  private readonly exitFile: string;

  private constructor(exitFile: string) {
    this.exitFile = exitFile;
  }

  /** Starts `node dist/cli/main.js …args` in a detached 120×40 tmux session, with exactly `env`. */
  static start(args: string[], env: Record<string, string>, cwd = ROOT): TmuxCli {
    const exitFile = path.join(mkdtempSync(path.join(tmpdir(), "agent-lattice-tmux-")), "exit-code");
    const session = new TmuxCli(exitFile);
    const assignments = Object.entries({ TERM: "screen", ...env }).map(([key, value]) =>
      shellQuote(`${key}=${value}`),
    );
    const command = [
      `cd ${shellQuote(cwd)} &&`,
      `env -i ${assignments.join(" ")} ${shellQuote(process.execPath)} ${shellQuote(CLI)} ${args.map(shellQuote).join(" ")};`,
      `echo $? > ${shellQuote(exitFile)}; sleep 600`,
    ].join(" ");
    session.tmux(["new-session", "-d", "-s", "cli", "-x", "120", "-y", "40", command]);
    return session;
  }

  private tmux(args: string[]): string {
    return execFileSync("tmux", ["-L", this.socket, "-f", "/dev/null", ...args], { encoding: "utf8" });
  }

  /** Types literal text (no Enter). */
  type(text: string): void {
    this.tmux(["send-keys", "-t", "cli", "-l", text]);
  }

  /** Presses keys by tmux name: `Enter`, `C-c`, `C-d`. */
  press(...keys: string[]): void {
    this.tmux(["send-keys", "-t", "cli", ...keys]);
  }

  /** The visible screen as text; with `escapes`, colour and attribute sequences included. */
  screen(escapes = false): string {
    return this.tmux(["capture-pane", "-p", "-J", ...(escapes ? ["-e"] : []), "-t", "cli", "-S", "-200"]);
  }

  /** Waits until the screen matches `pattern` and returns the screen. */
  waitForScreen(pattern: RegExp, timeoutMs = 30_000): Promise<string> {
    return eventually(
      `${pattern} on the screen`,
      () => {
        const screen = this.screen();
        return pattern.test(screen) ? screen : undefined;
      },
      timeoutMs,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n--- screen ---\n${this.screen()}`);
    });
  }

  /** Waits for the CLI to exit and returns its exit code. */
  waitForExit(timeoutMs = 30_000): Promise<number> {
    return eventually(
      "the CLI to exit",
      () => {
        const text = existsSync(this.exitFile) ? readFileSync(this.exitFile, "utf8").trim() : "";
        return text === "" ? undefined : Number(text);
      },
      timeoutMs,
    );
  }

  /** Ends the tmux server of this session (and the CLI if it still runs). */
  close(): void {
    try {
      this.tmux(["kill-server"]);
    } catch {
      // already gone
    }
    rmSync(path.dirname(this.exitFile), { recursive: true, force: true });
  }
}

/**
 * A request body as the model reads it, without the prompt-cache markers the built-in client adds
 * (caching is on by default): `cache_control` fields dropped, and a lone text block — which is how
 * a marked string prompt or system prompt travels — read back as its text.
 */
export function withoutCacheMarkers<T>(value: T): T {
  return unmark(value) as T;
}

function unmark(value: unknown): unknown {
  if (Array.isArray(value)) {
    const only = value[0] as { type?: unknown; text?: unknown; cache_control?: unknown } | undefined;
    const markedText = value.length === 1 && only?.type === "text" && only.cache_control !== undefined;
    if (markedText && Object.keys(only).length === 3) return only.text;
    return value.map(unmark);
  }
  if (typeof value !== "object" || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) if (key !== "cache_control") copy[key] = unmark(field);
  return copy;
}
