import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { MockAnthropicServer } from "../../src/testing/index";
import { mockServerPerTest } from "../support/mock-server";
import { processesWithArgument, uniqueSleep } from "../support/processes";
import {
  cleanEnvironment,
  DUMMY_KEY,
  ensureBuiltCli,
  eventually,
  lastUserText,
  ownedBySandboxUser,
  runCli,
  scratchFolder,
  TmuxCli,
} from "./helpers";

/** Answers "slow" after a minute (long enough to be interrupted), anything else at once. */
function echoModel(server: MockAnthropicServer): void {
  server.setHandler((body) => {
    const text = lastUserText(body);
    if (text === "slow") return { content: "This answer comes far too late.", delayMs: 60_000 };
    if (text === "fail") return { fault: "status", status: 400 };
    return { content: `You said: ${text}` };
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("agent-lattice without a prompt: an interactive session in a real terminal (tmux)", () => {
  let terminal: TmuxCli | undefined;
  beforeAll(ensureBuiltCli, 300_000);
  const server = mockServerPerTest(echoModel);
  afterEach(() => {
    terminal?.close(); // before the server closes: hooks registered later run first
    terminal = undefined;
  });

  it("answers a prompt, interrupts a slow answer on Ctrl-C, answers again, and exits 0 on Ctrl-D", async () => {
    terminal = TmuxCli.start(["--base-url", server.url], { ANTHROPIC_API_KEY: DUMMY_KEY });
    await terminal.waitForScreen(/Ctrl-C interrupts · Ctrl-D exits\n› $/m);

    terminal.type("hello there");
    terminal.press("Enter");
    await terminal.waitForScreen(/^You said: hello there\n✓ done · 1 turn · /m);

    terminal.type("slow");
    terminal.press("Enter");
    await eventually("the slow request", () => (server.requests.length === 2 ? true : undefined));
    terminal.press("C-c");
    const interrupted = await terminal.waitForScreen(/⏸ interrupted · 1 turn · .*\n› $/m);
    expect(interrupted).toContain("⏸ interrupting… (Ctrl-C again to abort and quit)");
    expect(interrupted).not.toContain("far too late");

    terminal.type("third");
    terminal.press("Enter");
    await terminal.waitForScreen(/^You said: third\n✓ done/m);
    const history = server.requests[2]!.body.messages.map(
      (message: { role: string; content: unknown }) =>
        `${message.role}:${lastUserText({ messages: [message] })}`,
    );
    expect(history[0]).toBe("user:hello there");
    expect(history.at(-1)).toBe("user:third");

    terminal.press("C-d");
    expect(await terminal.waitForExit()).toBe(0);
    expect(terminal.screen()).not.toContain(DUMMY_KEY);
  });

  it("/compact on a terminal: Ctrl-C stops the summary request and the conversation stays as it was", async () => {
    server.setHandler((body) => {
      if (JSON.stringify(body.messages).includes("<conversation>"))
        return { content: "A summary that comes far too late.", delayMs: 60_000 };
      return { content: `You said: ${lastUserText(body)}` };
    });
    terminal = TmuxCli.start(["--base-url", server.url], { ANTHROPIC_API_KEY: DUMMY_KEY });
    await terminal.waitForScreen(/\/help for commands · Ctrl-C interrupts · Ctrl-D exits\n› $/m);
    for (const word of ["one", "two", "three", "four"]) {
      terminal.type(word);
      terminal.press("Enter");
      await terminal.waitForScreen(new RegExp(`^You said: ${word}\n✓ done`, "m"));
    }
    terminal.type("/compact");
    terminal.press("Enter");
    await eventually("the summary request", () => (server.requests.length === 5 ? true : undefined));
    terminal.press("C-c");
    await terminal.waitForScreen(/⏸ compaction interrupted: the conversation is unchanged\n› $/m);

    terminal.type("five");
    terminal.press("Enter");
    await terminal.waitForScreen(/^You said: five\n✓ done/m);
    expect(server.requests.at(-1)!.body.messages).toHaveLength(9);
    terminal.type("/help");
    terminal.press("Enter");
    await terminal.waitForScreen(/\/exit, \/quit +end the session/);
    terminal.press("C-d");
    expect(await terminal.waitForExit()).toBe(0);
    expect(server.requests).toHaveLength(6);
  });

  it("colours its status lines on a terminal, and not with NO_COLOR", async () => {
    terminal = TmuxCli.start(["--base-url", server.url, "colours"], { ANTHROPIC_API_KEY: DUMMY_KEY });
    expect(await terminal.waitForExit()).toBe(0);
    expect(terminal.screen(true)).toContain("\u001b[32m✓ done");
    terminal.close();

    terminal = TmuxCli.start(["--base-url", server.url, "plain"], {
      ANTHROPIC_API_KEY: DUMMY_KEY,
      NO_COLOR: "1",
    });
    expect(await terminal.waitForExit()).toBe(0);
    const screen = terminal.screen(true);
    expect(screen).toContain("You said: plain");
    expect(screen).toContain("✓ done");
    expect(screen).not.toContain("\u001b");
  });

  it("Ctrl-C at the idle prompt ends the session with exit 0", async () => {
    terminal = TmuxCli.start(["--base-url", server.url], { ANTHROPIC_API_KEY: DUMMY_KEY });
    await terminal.waitForScreen(/^› $/m);
    terminal.press("C-c");
    expect(await terminal.waitForExit()).toBe(0);
    expect(server.requests).toHaveLength(0);
  });

  it("a second Ctrl-C during a running bash call aborts the query, kills the command, and quits with 130", async () => {
    const folder = scratchFolder();
    // Found by its unique duration: inside the bash sandbox, `$$` and `$!` are not pids of the host.
    const sleep = uniqueSleep();
    server.setHandler((_body, index) => ({
      content: [
        {
          type: "tool_use",
          id: `b${index}`,
          name: "bash",
          input: { command: `${sleep.command} & echo started > bash.pid; wait` },
        },
      ],
    }));
    try {
      // With a PATH, so bash runs in the sandbox (as root: as the folder's owner, never as root).
      ownedBySandboxUser(folder.root);
      terminal = TmuxCli.start(
        ["--base-url", server.url, "--tools", "bash"],
        { ANTHROPIC_API_KEY: DUMMY_KEY, PATH: process.env.PATH ?? "/usr/bin:/bin" },
        folder.root,
      );
      await terminal.waitForScreen(/^› $/m);
      terminal.type("run it");
      terminal.press("Enter");
      const target = path.join(folder.root, "bash.pid");
      await eventually("bash.pid", () =>
        existsSync(target) && readFileSync(target, "utf8").trim() !== "" ? true : undefined,
      );
      // bash and its sleep (and the sandbox around them) all carry the unique duration.
      const commandPids = await eventually("the sleep to start", () => {
        const pids = processesWithArgument(sleep.marker);
        return pids.length >= 2 ? pids : undefined;
      });

      terminal.press("C-c");
      await terminal.waitForScreen(/Ctrl-C again to abort and quit/);
      // An interrupt lets the running tool batch finish: the command is still running.
      expect(commandPids.every(isAlive)).toBe(true);

      terminal.press("C-c");
      expect(await terminal.waitForExit()).toBe(130);
      expect(terminal.screen()).toContain("✗ aborting…");
      await eventually("the bash process group to be gone", () =>
        processesWithArgument(sleep.marker).length === 0 ? true : undefined,
      );
    } finally {
      folder.remove();
    }
  });
});

describe("agent-lattice without a prompt, input piped", () => {
  beforeAll(ensureBuiltCli, 300_000);
  const server = mockServerPerTest(echoModel);

  it("runs each line as a prompt of one conversation, in order, and exits 0", async () => {
    const run = await runCli(["--base-url", server.url], {
      env: cleanEnvironment({ ANTHROPIC_API_KEY: DUMMY_KEY }),
      input: "first\n\nsecond\n",
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("You said: first\nYou said: second\n");
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.body.messages).toHaveLength(3);
    expect(run.stdout + run.stderr).not.toContain("\u001b");
  });

  it("exits 1 when one of the piped prompts failed, after running the rest", async () => {
    const run = await runCli(["--base-url", server.url], {
      env: cleanEnvironment({ ANTHROPIC_API_KEY: DUMMY_KEY }),
      input: "fail\nafter\n",
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/✗ error_during_execution/);
    expect(run.stdout).toBe("You said: after\n");
  });
});
