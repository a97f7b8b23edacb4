/**
 * `bashSandbox` never runs as host root: as root, `bwrap` runs as an unprivileged host user, kernel
 * settings are read-only, setuid files are owned by that user on nosuid mounts, and the resource
 * limits stop a fork storm, a memory hog, a CPU spinner and a huge file — while normal work goes
 * on. The escape attempts run as root (this machine and CI) and as an unprivileged user. Linux only.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { InvalidOptionError } from "../../src/errors";
import { type BashSandboxOptions, createWorkspaceTools } from "../../src/workspace-tools/index";
import { isRunning } from "../support/processes";
import { createSandbox, ownedBySandboxUser, SANDBOX_OWNER, type Sandbox, workspaceTools } from "./helpers";
import { type EscapeReport, runEscapeAttempts } from "./sandbox-escapes";

const AS_ROOT = process.getuid?.() === 0;

/** Host processes whose command line holds `marker`. */
function hostProcessesWith(marker: string): number[] {
  return readdirSync("/proc")
    .filter((entry) => {
      if (!/^\d+$/.test(entry)) return false;
      try {
        return readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(marker) && isRunning(Number(entry));
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function eventually<T>(probe: () => T | undefined): Promise<T> {
  for (let attempt = 0; attempt < 1_500; attempt++) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("the condition did not come true");
}

/** Every escape failed, and what the sandbox made is owned by `hostUid`, never root. */
function expectContained(report: EscapeReport, hostUid: number): void {
  expect(report.text).not.toContain("ESCAPED");
  expect(report.text).toContain("MADE-SUID"); // the attempts did run
  expect(report.suid?.uid).toBe(hostUid);
  expect(report.suid?.uid).not.toBe(0);
  expect(report.text).toMatch(/^ROOT-MOUNT:\S*\bnosuid\b/m);
  expect(report.text).toContain("NoNewPrivs:1");
  expect(report.text).toContain("CAPS:CapEff:0000000000000000");
}

function sandboxedBash(sandbox: Sandbox, bashSandbox: boolean | BashSandboxOptions = true) {
  const { call } = workspaceTools({ root: sandbox.root, allowBash: true, bashSandbox });
  return (command: string, signal?: AbortSignal) => call("bash", { command }, signal);
}

describe.skipIf(process.platform !== "linux")("the bash sandbox and host privileges", () => {
  it.skipIf(!AS_ROOT)(
    "as root: every escape fails and the sandbox's files belong to the workspace's owner",
    async () => {
      const corePattern = readFileSync("/proc/sys/kernel/core_pattern", "utf8");
      const sandbox = ownedBySandboxUser(createSandbox());
      expectContained(await runEscapeAttempts(sandbox.root), SANDBOX_OWNER.uid);
      expect(readFileSync("/proc/sys/kernel/core_pattern", "utf8")).toBe(corePattern);
    },
  );

  it.skipIf(!AS_ROOT)(
    "as root: the host sees the command's process as the unprivileged user (uid_map maps no 0)",
    async () => {
      const sandbox = ownedBySandboxUser(createSandbox());
      const run = sandboxedBash(sandbox);
      const marker = `${50 + (process.pid % 1000) / 1000}`;
      const controller = new AbortController();
      const pending = run(`exec sleep ${marker}`, controller.signal);
      const [pid] = await eventually(() => {
        const found = hostProcessesWith(`sleep\0${marker}`);
        return found.length > 0 ? found : undefined;
      });
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      const uidMap = readFileSync(`/proc/${pid}/uid_map`, "utf8").trim().split(/\s+/).map(Number);
      controller.abort();
      await pending;
      expect(/^Uid:\s+(.*)$/m.exec(status)?.[1]?.split(/\s+/).map(Number)).toEqual(
        Array(4).fill(SANDBOX_OWNER.uid),
      );
      expect(/^Gid:\s+(.*)$/m.exec(status)?.[1]?.split(/\s+/).map(Number)).toEqual(
        Array(4).fill(SANDBOX_OWNER.gid),
      );
      expect(/^Groups:[ \t]*(.*)$/m.exec(status)?.[1]?.trim()).toBe("");
      // Read from the host: inside id, host id, count — the host id is the unprivileged user.
      expect(uidMap).toEqual([SANDBOX_OWNER.uid, SANDBOX_OWNER.uid, 1]);
    },
  );

  it.skipIf(!AS_ROOT)(
    "as root, in a workspace root owns: runs as nobody, and says the root is read-only to commands",
    async () => {
      const sandbox = createSandbox();
      execFileSync("chmod", ["755", sandbox.base]);
      const bash = createWorkspaceTools({ root: sandbox.root, allowBash: true, bashSandbox: true }).find(
        (tool) => tool.name === "bash",
      )!;
      expect(bash.description).toContain("the workspace root is read-only to commands");
      const result = await sandboxedBash(sandbox)("id -u; touch made.txt");
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(/^65534\n.*Permission denied/s);
      expect(readdirSync(sandbox.root)).toEqual([]);
    },
  );

  it.skipIf(!AS_ROOT)("as root: bashSandbox.user chooses the host user", async () => {
    const owner = { uid: 64_102, gid: 64_103 };
    const sandbox = ownedBySandboxUser(createSandbox(), owner);
    const result = await sandboxedBash(sandbox, { user: owner })("id -u; id -g; touch made.txt");
    expect(result.text).toBe(`${owner.uid}\n${owner.gid}\n[Exit code: 0]`);
    expect(statSync(path.join(sandbox.root, "made.txt"))).toMatchObject(owner);
  });

  it("as an unprivileged user (setpriv to 65534 when this process is root): every escape fails", async () => {
    if (!AS_ROOT) {
      const sandbox = createSandbox();
      expectContained(await runEscapeAttempts(sandbox.root), process.getuid!());
      return;
    }
    const script = path.join(import.meta.dirname, "sandbox-escapes-unprivileged.ts");
    const output = execFileSync(
      "setpriv",
      ["--reuid=65534", "--regid=65534", "--clear-groups", "--", process.execPath, "--import", "tsx", script],
      {
        cwd: path.resolve(import.meta.dirname, "../.."),
        env: { PATH: process.env.PATH, HOME: "/tmp" },
        encoding: "utf8",
        timeout: 60_000,
      },
    );
    const { uid, report } = JSON.parse(output.trim().split("\n").at(-1)!) as {
      uid: number;
      report: EscapeReport;
    };
    expect(uid).toBe(65534);
    expectContained(report, 65534);
  }, 90_000);

  it.each([
    [
      { user: { uid: 0, gid: 0 } },
      "bashSandbox.user must be { uid, gid }, whole numbers other than 0 (root)",
    ],
    [{ user: { uid: 1000 } }, "bashSandbox.user must be { uid, gid }"],
    [{ limits: { processes: 0 } }, "bashSandbox.limits.processes must be a positive whole number"],
    [{ limits: { memoryMiB: 1.5 } }, "bashSandbox.limits.memoryMiB must be a positive whole number"],
    [{ limits: { threads: 4 } }, 'bashSandbox.limits has no setting "threads"'],
    [{ limits: 5 }, "bashSandbox.limits must be an object"],
  ])("refuses %j", (bashSandbox, message) => {
    const sandbox = createSandbox();
    const create = () =>
      createWorkspaceTools({
        root: sandbox.root,
        allowBash: true,
        bashSandbox: bashSandbox as BashSandboxOptions,
      });
    expect(create).toThrow(InvalidOptionError);
    expect(create).toThrow(message);
  });
});

describe.skipIf(process.platform !== "linux")("the bash sandbox's resource limits", () => {
  it("a fork storm stops at the process limit, and nothing of it is left running", async () => {
    const sandbox = ownedBySandboxUser(createSandbox());
    const marker = `${60 + (process.pid % 1000) / 1000}`;
    sandbox.write(
      "storm.js",
      "const { spawn } = require('child_process'); let started = 0, refused = 0, settled = 0;\n" +
        "const done = () => { if (++settled === 100) { console.log('started', started, 'refused', refused); process.exit(0); } };\n" +
        `for (let i = 0; i < 100; i++) { const c = spawn('sleep', ['${marker}'], { stdio: 'ignore' });\n` +
        "  c.on('spawn', () => { started++; done(); }); c.on('error', () => { refused++; done(); }); }\n",
    );
    const result = await sandboxedBash(sandbox, { limits: { processes: 32 } })("node storm.js");
    const [started, refused] = /started (\d+) refused (\d+)/.exec(result.text)!.slice(1).map(Number) as [
      number,
      number,
    ];
    expect(started).toBeLessThan(32);
    expect(started).toBeGreaterThan(0);
    expect(refused).toBe(100 - started);
    // The PID namespace's teardown kills them; wait for it (a liveness bound, not a speed check).
    await eventually(() => (hostProcessesWith(`sleep\0${marker}`).length === 0 ? true : undefined));
  });

  it("a memory hog is stopped, with a tool error naming the limit", async () => {
    const sandbox = ownedBySandboxUser(createSandbox());
    const result = await sandboxedBash(sandbox, { limits: { memoryMiB: 1024 } })(
      "node -e 'const kept = []; for (;;) kept.push(Buffer.alloc(64 * 1024 * 1024, 1))'",
    );
    expect(result.isError).toBe(true);
    expect(result.text).toContain(
      "[A process ran out of memory: the sandbox allows 1024 MiB of address space per process (bashSandbox.limits.memoryMiB).]",
    );
  });

  it("a CPU spinner is stopped at the CPU time limit", async () => {
    const sandbox = ownedBySandboxUser(createSandbox());
    const result = await sandboxedBash(sandbox, { limits: { cpuSeconds: 1 } })("while :; do :; done");
    expect(result.isError).toBe(true);
    expect(result.text).toContain(
      "[Stopped by the sandbox's CPU time limit: 1 s per process (bashSandbox.limits.cpuSeconds).]",
    );
  });

  it("a file cannot grow past the file size limit", async () => {
    const sandbox = ownedBySandboxUser(createSandbox());
    const result = await sandboxedBash(sandbox, { limits: { fileSizeMiB: 1 } })(
      "head -c 3000000 /dev/zero > big.bin",
    );
    expect(result.isError).toBe(true);
    expect(result.text).toContain(
      "[Stopped by the sandbox's file size limit: 1 MiB per file (bashSandbox.limits.fileSizeMiB).]",
    );
    expect(statSync(path.join(sandbox.root, "big.bin")).size).toBeLessThanOrEqual(1024 * 1024);
  });

  it("normal work (node, git, grep, a small build) runs under tight limits", async () => {
    const sandbox = ownedBySandboxUser(createSandbox());
    sandbox.write("src/a.txt", "alpha TODO\n");
    sandbox.write(
      "build.js",
      "require('fs').writeFileSync('out.txt', require('fs').readFileSync('src/a.txt', 'utf8').toUpperCase());\n",
    );
    const result = await sandboxedBash(sandbox, {
      limits: { processes: 64, memoryMiB: 2048, cpuSeconds: 30 },
    })(
      "node build.js && cat out.txt && grep -c TODO src/a.txt && git init -q && git add -A && " +
        "git -c user.name=A -c user.email=a@example.com commit -qm build && git log --format=%s",
    );
    expect(result).toEqual({ text: "ALPHA TODO\n1\nbuild\n[Exit code: 0]", isError: false });
  });
});
