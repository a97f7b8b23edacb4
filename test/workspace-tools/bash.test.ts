import { rmSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { WorkspaceToolsOptions } from "../../src/workspace-tools/index";
import { createSandbox, isRunning, survivorsOf, waitForPids, workspaceTools } from "./helpers";

const leftoverPids: number[] = [];
afterEach(() => {
  for (const pid of leftoverPids.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
});

function bashTools(options: Partial<WorkspaceToolsOptions> = {}) {
  const sandbox = createSandbox();
  const { call } = workspaceTools({ root: sandbox.root, allowBash: true, ...options });
  return { sandbox, run: (input: object, signal?: AbortSignal) => call("bash", input, signal) };
}

/** Two background sleeps and the shell itself, all writing their pids to `pids`. */
const SPAWN_CHILDREN =
  "sleep 1000 & echo $! > pids; sleep 1000 & echo $! >> pids; echo $$ >> pids; echo ready; wait";

describe("bash", () => {
  it("runs in the root and prints stdout, stderr and the exit code", async () => {
    const { sandbox, run } = bashTools();
    expect(await run({ command: "pwd; echo out; echo err >&2" })).toEqual({
      text: `${sandbox.root}\nout\nerr\n[Exit code: 0]`,
      isError: false,
    });
  });

  it("makes a non-zero exit an error result carrying the code", async () => {
    const { run } = bashTools();
    expect(await run({ command: "echo failing; exit 3" })).toEqual({
      text: "failing\n[Exit code: 3]",
      isError: true,
    });
  });

  it("says when there is no output, and gives commands an empty stdin", async () => {
    const { run } = bashTools();
    expect(await run({ command: "cat" })).toEqual({ text: "(no output)\n[Exit code: 0]", isError: false });
  });

  it("reports a shell killed by a signal", async () => {
    const { run } = bashTools();
    expect(await run({ command: "kill -KILL $$" })).toEqual({
      text: "(no output)\n[Killed by signal SIGKILL.]",
      isError: true,
    });
  });

  it("keeps the tail of long output with a notice", async () => {
    const { run } = bashTools({ maxOutputChars: 100 });
    const result = await run({ command: "for i in $(seq 1 2000); do echo line-$i; done" });
    const lines = result.text.split("\n");
    expect(lines[0]).toMatch(
      /^\[Output truncated: the first \d+ characters were dropped; showing the last 100\.\]$/,
    );
    expect(lines.slice(-2)).toEqual(["line-2000", "[Exit code: 0]"]);
    expect(lines.slice(1, -1).join("\n").length).toBeLessThanOrEqual(100);
  });

  it("kills the whole process group on timeout, leaving no process behind", async () => {
    const { sandbox, run } = bashTools({ bashKillGraceMs: 500 });
    // A limit the command's start (a shell, two sleeps, "ready") cannot reach on a busy machine.
    const result = await run({ command: SPAWN_CHILDREN, timeout_ms: 5_000 });
    const pids = await waitForPids(path.join(sandbox.root, "pids"), 3);
    leftoverPids.push(...pids);
    expect(result).toEqual({
      text: "ready\n[Timed out after 5000 ms; the command and its child processes were killed.]",
      isError: true,
    });
    expect(await survivorsOf(pids)).toEqual([]);
  });

  it("kills the whole process group when the call is aborted", async () => {
    const { sandbox, run } = bashTools();
    const controller = new AbortController();
    const pending = run({ command: SPAWN_CHILDREN }, controller.signal);
    const pids = await waitForPids(path.join(sandbox.root, "pids"), 3);
    leftoverPids.push(...pids);
    expect(pids.every(isRunning)).toBe(true);
    controller.abort();
    expect(await pending).toEqual({
      text: "ready\n[Aborted; the command and its child processes were killed.]",
      isError: true,
    });
    expect(await survivorsOf(pids)).toEqual([]);
  });

  it("escalates to SIGKILL when the processes ignore SIGTERM", async () => {
    const { sandbox, run } = bashTools({ bashKillGraceMs: 200 });
    const controller = new AbortController();
    const pending = run({ command: `trap '' TERM; ${SPAWN_CHILDREN}` }, controller.signal);
    const pids = await waitForPids(path.join(sandbox.root, "pids"), 3);
    leftoverPids.push(...pids);
    controller.abort();
    expect((await pending).text).toContain("[Aborted; the command and its child processes were killed.]");
    expect(await survivorsOf(pids)).toEqual([]);
  });

  it("stops background processes the command leaves behind, holding its output or not", async () => {
    const { sandbox, run } = bashTools({ bashKillGraceMs: 200 });
    const result = await run({
      command: "sleep 1000 > /dev/null 2>&1 & echo $! > pids; sleep 1000 & echo $! >> pids; echo started",
    });
    const pids = await waitForPids(path.join(sandbox.root, "pids"), 2);
    leftoverPids.push(...pids);
    expect(result).toEqual({
      text: "started\n[Exit code: 0]\n[Background processes the command left running were stopped.]",
      isError: false,
    });
    expect(await survivorsOf(pids)).toEqual([]);
  });

  it("stops waiting for output held open by a process that left the group", async () => {
    const { sandbox, run } = bashTools({ bashKillGraceMs: 100 });
    // Wait until the child has its own process group, so it has surely left the command's.
    const result = await run({
      command:
        'setsid sleep 1000 & pid=$!; until [ "$(cut -d" " -f5 /proc/$pid/stat)" = "$pid" ]; do sleep 0.01; done; ' +
        "echo $pid > pids; echo bye",
    });
    leftoverPids.push(...(await waitForPids(path.join(sandbox.root, "pids"), 1)));
    expect(result).toEqual({
      text: "bye\n[Exit code: 0]\n[A process that left the command's process group still holds its output open; it was not stopped.]",
      isError: false,
    });
  });

  it("never runs longer than the configured limit", async () => {
    const { run } = bashTools({ bashTimeoutMs: 300, bashKillGraceMs: 100 });
    expect((await run({ command: "sleep 1000", timeout_ms: 600_000 })).text).toBe(
      "(no output)\n[Timed out after 300 ms; the command and its child processes were killed.]",
    );
  });

  it("hides the provider API key from commands", async () => {
    const saved = process.env.ANTHROPIC_API_KEY;
    process.env.ANTHROPIC_API_KEY = "sk-ant-test-secret";
    try {
      const { run } = bashTools();
      expect((await run({ command: "printenv ANTHROPIC_API_KEY || echo hidden" })).text).toBe(
        "hidden\n[Exit code: 0]",
      );
    } finally {
      if (saved === undefined) delete process.env.ANTHROPIC_API_KEY;
      else process.env.ANTHROPIC_API_KEY = saved;
    }
    const { run } = bashTools({ bashEnv: { PATH: process.env.PATH, GREETING: "hello" } });
    expect((await run({ command: 'echo "$GREETING"' })).text).toBe("hello\n[Exit code: 0]");
  });

  it("hides ANTHROPIC_BASE_URL too, and redacts the hidden values from output however a command found them", async () => {
    const saved = { key: process.env.ANTHROPIC_API_KEY, url: process.env.ANTHROPIC_BASE_URL };
    process.env.ANTHROPIC_API_KEY = "lattice-hidden-key-7788";
    process.env.ANTHROPIC_BASE_URL = "https://user:proxy-pass-4455@proxy.example/";
    try {
      const { run } = bashTools();
      expect((await run({ command: "printenv ANTHROPIC_BASE_URL || echo hidden" })).text).toBe(
        "hidden\n[Exit code: 0]",
      );
      // E.g. read back from /proc/$PPID/environ, which keeps the environment the process started with.
      const echoed = (await run({ command: "echo lattice-hidden-key-7788 proxy-pass-4455" })).text;
      expect(echoed).not.toContain("lattice-hidden-key-7788");
      expect(echoed).not.toContain("proxy-pass-4455");
    } finally {
      for (const [name, value] of [
        ["ANTHROPIC_API_KEY", saved.key],
        ["ANTHROPIC_BASE_URL", saved.url],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it("explains why a command could not start", async () => {
    const missingBash = bashTools({ bashEnv: { PATH: "/nonexistent" } });
    expect(await missingBash.run({ command: "echo hi" })).toEqual({
      text: "The command could not be started: bash was not found on the PATH.",
      isError: true,
    });
    const aborted = bashTools();
    const controller = new AbortController();
    controller.abort();
    expect(await aborted.run({ command: "echo hi" }, controller.signal)).toEqual({
      text: "The command could not be started: the call was aborted before the command started.",
      isError: true,
    });
    const nul = bashTools();
    expect(await nul.run({ command: "echo a\u0000b" })).toEqual({
      text: "The command could not be started: it contains a NUL byte, which a command line cannot hold.",
      isError: true,
    });
    const nulInEnvironment = bashTools({ bashEnv: { PATH: process.env.PATH, BAD: "a\u0000b" } });
    expect(await nulInEnvironment.run({ command: "echo hi" })).toMatchObject({
      text: expect.stringMatching(/^The command could not be started: .*null bytes/),
      isError: true,
    });
    const removed = bashTools();
    rmSync(removed.sandbox.root, { recursive: true });
    expect(await removed.run({ command: "echo hi" })).toEqual({
      text: `The workspace root ${removed.sandbox.root} no longer exists; the command cannot run.`,
      isError: true,
    });
  });
});
