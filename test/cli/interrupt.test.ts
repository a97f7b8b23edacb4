import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { mockServerPerTest } from "../support/mock-server";
import { processesWithArgument, uniqueSleep } from "../support/processes";
import {
  cleanEnvironment,
  DUMMY_KEY,
  ensureBuiltCli,
  eventually,
  ownedBySandboxUser,
  runCli,
  scratchFolder,
} from "./helpers";

const env = () => cleanEnvironment({ ANTHROPIC_API_KEY: DUMMY_KEY });

describe('agent-lattice "prompt": SIGINT (Ctrl-C) during the query', () => {
  beforeAll(ensureBuiltCli, 300_000);
  const server = mockServerPerTest();

  it("one SIGINT interrupts a slow answer: the query ends interrupted and the command exits 0", async () => {
    server.enqueue({ content: "Too late.", delayMs: 60_000 });
    const run = await runCli(["--base-url", server.url, "Take your time"], {
      env: env(),
      onSpawn: (child) => {
        void eventually("the request", () => (server.requests.length === 1 ? true : undefined)).then(() =>
          child.kill("SIGINT"),
        );
      },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("⏸ interrupting… (Ctrl-C again to abort and quit)\n");
    expect(run.stderr).toMatch(/⏸ interrupted · 1 turn · /);
  });

  it("a second SIGINT, while a bash call keeps the query running, aborts it, kills the command, exits 130", async () => {
    const folder = scratchFolder();
    ownedBySandboxUser(folder.root);
    const sleep = uniqueSleep();
    server.enqueue({
      content: [
        {
          type: "tool_use",
          id: "b1",
          name: "bash",
          input: { command: `echo started > bash.pid; ${sleep.command}` },
        },
      ],
    });
    const pidFile = path.join(folder.root, "bash.pid");
    try {
      const run = await runCli(["--base-url", server.url, "--tools", "bash", "Run it"], {
        env: env(),
        cwd: folder.root,
        onSpawn: (child) => {
          let stderr = "";
          child.stderr?.on("data", (chunk: Buffer) => {
            stderr += chunk.toString();
          });
          void (async () => {
            await startedBash(pidFile);
            child.kill("SIGINT");
            await eventually("the interrupt notice", () =>
              stderr.includes("Ctrl-C again") ? true : undefined,
            );
            child.kill("SIGINT");
          })();
        },
      });
      expect(run.code).toBe(130);
      expect(run.stderr).toContain("✗ aborting…");
      expect(run.stderr).toMatch(/✗ error_abort/);
      await eventually("bash to be gone", () =>
        processesWithArgument(sleep.marker).length === 0 ? true : undefined,
      );
    } finally {
      killAll(sleep.marker);
      folder.remove();
    }
  });
});

describe('agent-lattice "prompt": SIGTERM and SIGHUP during the query', () => {
  beforeAll(ensureBuiltCli, 300_000);
  const server = mockServerPerTest();

  for (const [signal, code] of [
    ["SIGTERM", 143],
    ["SIGHUP", 129],
  ] as const) {
    it(`${signal} aborts the query, kills a running bash command's process group and exits ${code}`, async () => {
      const folder = scratchFolder();
      ownedBySandboxUser(folder.root);
      ownedBySandboxUser(folder.root);
      const sleep = uniqueSleep();
      server.enqueue({
        content: [
          {
            type: "tool_use",
            id: "b1",
            name: "bash",
            input: { command: `echo started > bash.pid; ${sleep.command}` },
          },
        ],
      });
      const pidFile = path.join(folder.root, "bash.pid");
      try {
        const run = await runCli(["--base-url", server.url, "--tools", "bash", "Run it"], {
          env: env(),
          cwd: folder.root,
          onSpawn: (child) => {
            void (async () => {
              await startedBash(pidFile);
              child.kill(signal);
            })();
          },
        });
        expect(run.signal).toBeNull();
        expect(run.code).toBe(code);
        expect(run.stderr).toContain(`agent-lattice: stopped by ${signal}\n`);
        await eventually(
          "bash to be gone",
          () => (processesWithArgument(sleep.marker).length === 0 ? true : undefined),
          10_000,
        );
      } finally {
        killAll(sleep.marker);
        folder.remove();
      }
    });
  }
});

describe("agent-lattice --session: SIGTERM during a tool call", () => {
  beforeAll(ensureBuiltCli, 300_000);
  const server = mockServerPerTest();

  it("saves the aborted turn before exiting: the session file holds the call and its result", async () => {
    const folder = scratchFolder();
    ownedBySandboxUser(folder.root);
    const sleep = uniqueSleep();
    server.enqueue({
      content: [
        {
          type: "tool_use",
          id: "b1",
          name: "bash",
          input: { command: `echo started > bash.pid; ${sleep.command}` },
        },
      ],
    });
    const pidFile = path.join(folder.root, "bash.pid");
    const sessionFile = path.join(folder.root, "session.jsonl");
    try {
      const run = await runCli(
        ["--base-url", server.url, "--tools", "bash", "--session", sessionFile, "Run it"],
        {
          env: env(),
          cwd: folder.root,
          onSpawn: (child) => {
            void (async () => {
              await startedBash(pidFile);
              child.kill("SIGTERM");
            })();
          },
        },
      );
      expect(run.code).toBe(143);
      const saved = readFileSync(sessionFile, "utf8");
      expect(saved).toContain('"tool_use_id":"b1"');
      expect(saved).toContain('"is_error":true');
    } finally {
      killAll(sleep.marker);
      folder.remove();
    }
  });
});

describe("agent-lattice --session (interactive): SIGTERM while waiting for the next prompt", () => {
  beforeAll(ensureBuiltCli, 300_000);
  const server = mockServerPerTest();

  it("closes the agent and exits 143; the finished turn is in the session file", async () => {
    const folder = scratchFolder();
    ownedBySandboxUser(folder.root);
    const sessionFile = path.join(folder.root, "chat.jsonl");
    server.enqueue({ content: "Hello, Ada." });
    try {
      const run = await runCli(["--base-url", server.url, "--session", sessionFile], {
        env: env(),
        cwd: folder.root,
        input: "My name is Ada.\n",
        keepStdinOpen: true,
        onSpawn: (child) => {
          let stderr = "";
          child.stderr?.on("data", (chunk: Buffer) => {
            stderr += chunk.toString();
          });
          void eventually("the turn to finish", () => (stderr.includes("✓") ? true : undefined)).then(() =>
            child.kill("SIGTERM"),
          );
        },
      });
      expect(run.code).toBe(143);
      expect(run.stderr).toContain("agent-lattice: stopped by SIGTERM");
      const saved = readFileSync(sessionFile, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
      expect(saved).toEqual([
        { role: "user", content: "My name is Ada." },
        expect.objectContaining({ role: "assistant" }),
      ]);
      expect(existsSync(`${sessionFile}.lock`)).toBe(false);
    } finally {
      folder.remove();
    }
  });
});

/**
 * Resolves once the bash command has written `pidFile` (`echo started > bash.pid`). Its processes
 * are found by the unique sleep duration: inside the bash sandbox, `$$` is not a pid of the host.
 */
function startedBash(pidFile: string): Promise<true> {
  return eventually("bash to start", () =>
    existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "" ? true : undefined,
  );
}

/** Kills whatever of a test's command is still running (found by its unique marker). */
function killAll(marker: string): void {
  for (const pid of processesWithArgument(marker)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
}
