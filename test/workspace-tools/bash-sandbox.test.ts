/**
 * `bashSandbox`: commands run under bubblewrap. Escape attempts from inside all fail; normal work
 * inside the root works. Needs `bwrap` (CI installs the `bubblewrap` package); Linux only.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { InvalidOptionError } from "../../src/errors";
import { createWorkspaceTools, isBashSandboxAvailable } from "../../src/workspace-tools/index";
import { LIVENESS_FLOOR_MS } from "../support/promises";
import {
  type CallResult,
  createSandbox as createPlainSandbox,
  isRunning,
  ownedBySandboxUser,
  type Sandbox,
  workspaceTools,
} from "./helpers";

/** A workspace the sandbox's user owns (as a root host sets one up: the sandbox never runs as root). */
const createSandbox = () => ownedBySandboxUser(createPlainSandbox());

const API_KEY = "sk-ant-sandbox-test-key-7f3e9a1c5b";
const PARENT_SECRET = "parent-secret-value-4d8b2e6f";
const saved = { key: process.env.ANTHROPIC_API_KEY, parent: process.env.LATTICE_SANDBOX_PARENT_SECRET };

beforeAll(() => {
  process.env.ANTHROPIC_API_KEY = API_KEY;
  process.env.LATTICE_SANDBOX_PARENT_SECRET = PARENT_SECRET;
});
afterAll(() => {
  for (const [name, value] of [
    ["ANTHROPIC_API_KEY", saved.key],
    ["LATTICE_SANDBOX_PARENT_SECRET", saved.parent],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const canaries: ChildProcess[] = [];
afterEach(() => {
  for (const child of canaries.splice(0)) child.kill("SIGKILL");
});

/** Host processes whose command line holds `marker`. */
function hostProcessesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(marker) && isRunning(Number(entry))) {
        found.push(Number(entry));
      }
    } catch {
      // gone
    }
  }
  return found;
}

/**
 * Host environment entries no sandboxed command may see: those of this process's initial
 * environment (what `/proc/<pid>/environ` shows) other than the few the sandbox sets itself.
 */
function hostOnlyEnvironment(): string[] {
  const sandboxNames = new Set([
    "PATH",
    "HOME",
    "TMPDIR",
    "SHELL",
    "USER",
    "LOGNAME",
    "LANG",
    "LANGUAGE",
    "TERM",
    "TZ",
    "PWD",
    "SHLVL",
    "_",
  ]);
  return readFileSync("/proc/self/environ", "utf8")
    .split("\0")
    .filter(
      (entry) =>
        entry.length >= 12 &&
        !sandboxNames.has(entry.slice(0, entry.indexOf("="))) &&
        !entry.startsWith("LC_"),
    );
}

/**
 * Runs first in every escape attempt: unless the command is inside bubblewrap's PID namespace (its
 * PID 1 is bwrap), it stops before trying anything, so a regression that dropped the sandbox fails
 * the test instead of writing to the host's /etc or killing its processes.
 */
const SANDBOX_GUARD =
  '[ "$(cat /proc/1/comm 2>/dev/null)" = bwrap ] && [ "$$" -lt 50 ] || { echo NOT-SANDBOXED; exit 99; }';

/** The output with every `B64:` line decoded, so a secret cannot hide behind the output redaction. */
function revealed(result: CallResult): string {
  return result.text
    .split("\n")
    .map((line) => (line.startsWith("B64:") ? Buffer.from(line.slice(4), "base64").toString("utf8") : line))
    .join("\n");
}

function sandboxedBash(
  sandbox: Sandbox,
  bashSandbox: Parameters<typeof createWorkspaceTools>[0]["bashSandbox"] = true,
) {
  const { call } = workspaceTools({ root: sandbox.root, allowBash: true, bashSandbox });
  return {
    call,
    run: (command: string, extra: object = {}, signal?: AbortSignal) =>
      call("bash", { command, ...extra }, signal),
  };
}

describe.skipIf(process.platform !== "linux")("bash in a bubblewrap sandbox", () => {
  it("is available on this machine (CI installs bubblewrap)", () => {
    expect(isBashSandboxAvailable()).toBe(true);
  });

  describe("escape attempts from inside all fail", () => {
    const hostTmpName = `lattice-planted-${process.pid}-${Date.now()}`;
    const cases: Array<
      [string, (sandbox: Sandbox, canaryPid: number) => string, (sandbox: Sandbox, output: string) => void]
    > = [
      ["read /etc/shadow", () => "cat /etc/shadow && echo ESCAPED", () => {}],
      [
        "read the host's /etc/passwd",
        () => "cat /etc/passwd | base64 -w0 | sed 's/^/B64:/'",
        (_, output) => {
          expect(output).not.toMatch(/^(daemon|bin|sys|nobody):/m);
        },
      ],
      ["list /root", () => "ls -a /root && echo ESCAPED", () => {}],
      ["list the host's $HOME", () => `ls -a ${homedir()} && echo ESCAPED`, () => {}],
      ["list /home", () => "ls -a /home/* && echo ESCAPED", () => {}],
      ["read /proc/1/environ", () => "base64 -w0 /proc/1/environ | sed 's/^/B64:/'", () => {}],
      ["read /proc/$PPID/environ", () => "base64 -w0 /proc/$PPID/environ | sed 's/^/B64:/'", () => {}],
      [
        "read every /proc/*/environ",
        () => "for f in /proc/[0-9]*/environ; do base64 -w0 $f | sed 's/^/B64:/'; echo; done",
        () => {},
      ],
      [
        "read the host process's environ by its host pid",
        () =>
          `base64 -w0 /proc/${process.pid}/environ | sed 's/^/B64:/'; base64 -w0 /proc/${process.ppid}/environ | sed 's/^/B64:/'`,
        () => {},
      ],
      [
        "print its own environment (the key, the parent's variables)",
        () => "env | base64 -w0 | sed 's/^/B64:/'",
        () => {},
      ],
      [
        "see host processes",
        () => "ls /proc | grep -cE '^[0-9]+$' | sed 's/^/COUNT:/'",
        (_, output) => {
          expect(Number(/COUNT:(\d+)/.exec(output)?.[1])).toBeLessThan(10);
        },
      ],
      [
        // Host pids only: were the sandbox ever missing, `kill -1` would take the machine down.
        "kill the parent, its parent and a host process",
        (_, canaryPid) => `kill -9 ${process.pid} ${process.ppid} ${canaryPid} && echo ESCAPED`,
        () => {},
      ],
      [
        "write outside the root",
        (sandbox) => `echo planted > ${sandbox.outside}/planted.txt && echo ESCAPED`,
        (sandbox) => {
          expect(existsSync(path.join(sandbox.outside, "planted.txt"))).toBe(false);
        },
      ],
      [
        "write next to the root",
        (sandbox) =>
          `echo planted > ${sandbox.base}/planted.txt; mkdir -p ${sandbox.outside} && echo planted > ${sandbox.outside}/planted.txt`,
        (sandbox) => {
          expect(readdirSync(sandbox.base).sort()).toEqual(["outside", "root"]);
          expect(readdirSync(sandbox.outside)).toEqual(["secret.txt"]);
        },
      ],
      [
        "write the host's /tmp",
        () => `echo planted > /tmp/${hostTmpName}; ls /tmp/${hostTmpName}`,
        () => {
          expect(existsSync(path.join(tmpdir(), hostTmpName))).toBe(false);
          expect(existsSync(path.join("/tmp", hostTmpName))).toBe(false);
        },
      ],
      [
        "write /usr and /etc",
        () =>
          `touch /usr/${hostTmpName} && echo ESCAPED; echo x >> /etc/passwd && echo ESCAPED; touch /etc/${hostTmpName}`,
        () => {
          expect(existsSync(`/usr/${hostTmpName}`)).toBe(false);
          expect(existsSync(`/etc/${hostTmpName}`)).toBe(false);
        },
      ],
      [
        "reach Redis on the host's 127.0.0.1:6379",
        () =>
          "exec 3<>/dev/tcp/127.0.0.1/6379 && printf 'PING\\r\\n' >&3 && timeout 2 head -c 7 <&3 && echo ESCAPED",
        (_, output) => {
          expect(output).not.toContain("PONG");
        },
      ],
      [
        "reach PostgreSQL on the host's 127.0.0.1:5432",
        () => "exec 3<>/dev/tcp/127.0.0.1/5432 && echo ESCAPED",
        () => {},
      ],
      [
        "connect from node",
        () =>
          `node -e "require('net').connect(6379,'127.0.0.1').on('connect',()=>{console.log('ESCAPED');process.exit()}).on('error',(e)=>console.log(e.code))"`,
        () => {},
      ],
      [
        "reach the internet",
        () => "exec 3<>/dev/tcp/1.1.1.1/53 && echo ESCAPED; getent hosts registry.npmjs.org && echo ESCAPED",
        () => {},
      ],
      [
        "mount a file system",
        () => "mount -t tmpfs none /tmp && echo ESCAPED; mount --bind / /tmp && echo ESCAPED",
        () => {},
      ],
      [
        "create a user namespace to regain privileges",
        () => "unshare -U -r true && echo ESCAPED; unshare -m true && echo ESCAPED",
        () => {},
      ],
      [
        "chroot, or write kernel settings",
        () => "chroot / true && echo ESCAPED; echo 1 > /proc/sys/kernel/sysrq && echo ESCAPED",
        () => {},
      ],
      [
        "see /sys, devices and sockets of the host",
        () =>
          "ls /sys/class && echo ESCAPED; [ -e /dev/mem ] && echo ESCAPED; ls /run /var/run && echo ESCAPED",
        () => {},
      ],
      ["list the host's projects", () => "ls /work && echo ESCAPED; ls /opt && echo ESCAPED", () => {}],
      [
        "plant a link to /etc/shadow in the root and read it",
        () => "ln -s /etc/shadow leak && cat leak && echo ESCAPED",
        () => {},
      ],
    ];

    it.each(cases)("%s", async (_name, command, check) => {
      const sandbox = createSandbox();
      const canary = spawn("sleep", ["30"], { stdio: "ignore" });
      canaries.push(canary);
      const { run } = sandboxedBash(sandbox);
      const result = await run(`${SANDBOX_GUARD}\n${command(sandbox, canary.pid!)}`);
      const output = revealed(result);
      expect(output).not.toContain("NOT-SANDBOXED");
      expect(output).not.toContain("ESCAPED");
      expect(output).not.toContain(API_KEY);
      expect(output).not.toContain(PARENT_SECRET);
      for (const entry of hostOnlyEnvironment()) expect(output).not.toContain(entry);
      check(sandbox, output);
      expect(isRunning(canary.pid!)).toBe(true);
    });

    it("a link planted by a command is refused by the file tools", async () => {
      const sandbox = createSandbox();
      const { run, call } = sandboxedBash(sandbox);
      await run(`ln -s ${sandbox.outside}/secret.txt leak`);
      const read = await call("read_file", { path: "leak" });
      expect(read.isError).toBe(true);
      expect(read.text).not.toContain("TOP SECRET");
    });
  });

  describe("normal work inside the root", () => {
    it("runs in the root, and what it writes there stays", async () => {
      const sandbox = createSandbox();
      const { run } = sandboxedBash(sandbox);
      expect(await run("pwd; echo kept > kept.txt; echo gone > /tmp/gone.txt; cat /tmp/gone.txt")).toEqual({
        text: `${sandbox.root}\ngone\n[Exit code: 0]`,
        isError: false,
      });
      expect(sandbox.read("kept.txt")).toBe("kept\n");
    });

    it("builds with node, greps, and runs sh scripts", async () => {
      const sandbox = createSandbox();
      sandbox.write("src/a.js", "export const a = 1; // TODO one\n");
      sandbox.write("src/b.js", "export const b = 2; // TODO two\n");
      sandbox.write(
        "build.js",
        "const fs = require('fs'); fs.mkdirSync('dist', { recursive: true });\n" +
          "const out = fs.readdirSync('src').sort().map((f) => fs.readFileSync('src/' + f, 'utf8')).join('');\n" +
          "fs.writeFileSync('dist/bundle.js', out); console.log('built', out.length, 'bytes');\n",
      );
      sandbox.write("check.sh", '#!/bin/sh\nset -e\ntest -s dist/bundle.js\necho "script ok: $1"\n');
      const { run } = sandboxedBash(sandbox);
      const result = await run(
        "node build.js && grep -rn TODO src | sort && chmod +x check.sh && ./check.sh one && sh check.sh two",
      );
      expect(result).toEqual({
        text: "built 64 bytes\nsrc/a.js:1:export const a = 1; // TODO one\nsrc/b.js:1:export const b = 2; // TODO two\nscript ok: one\nscript ok: two\n[Exit code: 0]",
        isError: false,
      });
      expect(sandbox.read("dist/bundle.js")).toContain("TODO two");
    });

    it("uses git: init, add, commit, log", async () => {
      const sandbox = createSandbox();
      sandbox.write("README.md", "# hello\n");
      const { run } = sandboxedBash(sandbox);
      const result = await run(
        "git init -q && git add README.md && git -c user.name=Agent -c user.email=agent@example.com commit -q -m 'first commit' && git log --format=%s && whoami >/dev/null && echo user-ok",
      );
      expect(result).toEqual({ text: "first commit\nuser-ok\n[Exit code: 0]", isError: false });
      expect(existsSync(path.join(sandbox.root, ".git/HEAD"))).toBe(true);
    });

    it("stops background processes when the command ends, and kills a command past its deadline", async () => {
      const sandbox = createSandbox();
      const { run } = sandboxedBash(sandbox);
      const marker = `${30 + (process.pid % 1000) / 1000}`;
      expect(await run(`sleep ${marker}1 & echo started`)).toEqual({
        text: "started\n[Exit code: 0]",
        isError: false,
      });
      expect(hostProcessesWith(`sleep\0${marker}1`)).toEqual([]);
      const timedOut = await run(`sleep ${marker}2 & sleep ${marker}3; echo never`, { timeout_ms: 500 });
      expect(timedOut).toEqual({
        text: "(no output)\n[Timed out after 500 ms; the command and its child processes were killed.]",
        isError: true,
      });
      expect(hostProcessesWith(`sleep\0${marker}2`)).toEqual([]);
      expect(hostProcessesWith(`sleep\0${marker}3`)).toEqual([]);
    });

    it("is aborted with the call's signal, leaving nothing behind", async () => {
      const sandbox = createSandbox();
      const { run } = sandboxedBash(sandbox);
      const marker = `${40 + (process.pid % 1000) / 1000}`;
      const controller = new AbortController();
      const pending = run(`echo started; sleep ${marker}`, {}, controller.signal);
      // Aborted only once the command runs (started under load, bwrap can take seconds to get there).
      const giveUpAt = Date.now() + LIVENESS_FLOOR_MS;
      while (hostProcessesWith(`sleep\0${marker}`).length === 0) {
        if (Date.now() > giveUpAt) throw new Error("the sandboxed sleep never started");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      controller.abort();
      expect(await pending).toEqual({
        text: "started\n[Aborted; the command and its child processes were killed.]",
        isError: true,
      });
      expect(hostProcessesWith(`sleep\0${marker}`)).toEqual([]);
    });

    it("binds readOnlyPaths read-only, and reaches the network only with network: true", async () => {
      const sandbox = createSandbox();
      const { run } = sandboxedBash(sandbox, { readOnlyPaths: [sandbox.outside], network: true });
      const result = await run(
        `cat ${sandbox.outside}/secret.txt; echo x > ${sandbox.outside}/new.txt || echo refused; ` +
          "exec 3<>/dev/tcp/127.0.0.1/6379 && printf 'PING\\r\\n' >&3 && timeout 2 head -c 7 <&3",
      );
      expect(result.text).toContain("TOP SECRET outside the root");
      expect(result.text).toContain("Read-only file system");
      expect(result.text).toContain("refused");
      expect(result.text).toContain("+PONG");
      expect(existsSync(path.join(sandbox.outside, "new.txt"))).toBe(false);
    });
  });

  describe("options", () => {
    it("without bwrap on the PATH, bashSandbox fails at creation naming the package", () => {
      const sandbox = createSandbox();
      const empty = mkdtempSync(path.join(tmpdir(), "lattice-no-bwrap-"));
      const savedPath = process.env.PATH;
      process.env.PATH = empty;
      try {
        expect(() =>
          createWorkspaceTools({ root: sandbox.root, allowBash: true, bashSandbox: true }),
        ).toThrow(InvalidOptionError);
        expect(() => createWorkspaceTools({ root: sandbox.root, allowBash: true, bashSandbox: {} })).toThrow(
          /bashSandbox needs bubblewrap \(the `bwrap` command\).*apt-get install bubblewrap/,
        );
      } finally {
        process.env.PATH = savedPath;
        rmSync(empty, { recursive: true, force: true });
      }
    });

    it.each([
      [
        { bashSandbox: "yes" },
        "bashSandbox must be true, false or { network?, readOnlyPaths?, user?, limits? }",
      ],
      [{ bashSandbox: { network: "no" } }, "bashSandbox.network must be a boolean"],
      [
        { bashSandbox: { readOnlyPaths: "/usr" } },
        "bashSandbox.readOnlyPaths must be an array of absolute paths",
      ],
      [
        { bashSandbox: { readOnlyPaths: ["relative/path"] } },
        'holds "relative/path", which is not an absolute path',
      ],
      [{ bashSandbox: { readOnlyPaths: ["/no/such/path"] } }, "holds /no/such/path, which does not exist"],
    ])("refuses %j", (options, message) => {
      const sandbox = createSandbox();
      expect(() =>
        createWorkspaceTools({ root: sandbox.root, allowBash: true, ...(options as object) }),
      ).toThrow(message);
    });

    it("says in the tool description that commands are sandboxed", () => {
      const sandbox = createSandbox();
      const bash = createWorkspaceTools({ root: sandbox.root, allowBash: true, bashSandbox: true }).find(
        (tool) => tool.name === "bash",
      )!;
      expect(bash.description).toContain("Commands run in a sandbox");
      expect(bash.description).toContain("there is no network");
    });
  });
});
