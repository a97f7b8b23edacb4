/**
 * The first hour on a real terminal (tmux, a socket per session): Ctrl-C at the y/n approval
 * question leaves the call pending and says so, and the next start shows it and asks again; a line
 * ending with `\` continues on the next and both go as one message; `--mock "prompt"` answers any
 * prompt offline with the bundled mock model, using the tools given.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { mockServerPerTest } from "../support/mock-server";
import { cleanEnvironment, DUMMY_KEY, ensureBuiltCli, lastUserText, scratchFolder, TmuxCli } from "./helpers";

const writeCall = {
  content: [
    {
      type: "tool_use" as const,
      id: "toolu_n1",
      name: "write_file",
      input: { path: "note.txt", content: "hi" },
    },
  ],
};

describe("agent-lattice on a real terminal: approvals across restarts, multi-line input, --mock", () => {
  let terminal: TmuxCli | undefined;
  let folder: { root: string; remove(): void } | undefined;
  beforeAll(ensureBuiltCli, 300_000);
  const server = mockServerPerTest();
  afterEach(() => {
    terminal?.close();
    terminal = undefined;
    folder?.remove();
    folder = undefined;
  });

  it("Ctrl-C at the approval question leaves the call pending and says so; the next start asks again", async () => {
    folder = scratchFolder();
    const session = path.join(folder.root, "chat.jsonl");
    const args = ["--base-url", server.url, "--tools", "write", "--ask-before-writes", "--session", session];
    server.enqueue(writeCall, { content: "Saved note.txt." });
    terminal = TmuxCli.start(args, { ANTHROPIC_API_KEY: DUMMY_KEY }, folder.root);
    await terminal.waitForScreen(/Ctrl-D exits\n› $/m);
    terminal.type("Save a note.");
    terminal.press("Enter");
    await terminal.waitForScreen(/Allow write_file \{"path":"note.txt","content":"hi"\} \[toolu_n1\]\? /);
    terminal.press("C-c");
    await terminal.waitForScreen(
      /⏸ not answered: 1 tool call still pending in .*chat\.jsonl; the next start asks again/,
    );
    expect(await terminal.waitForExit()).toBe(0);
    // The session ends there: no fresh › prompt after the notice.
    expect(terminal.screen()).toMatch(/the next start asks again\n+$/);
    expect(existsSync(path.join(folder.root, "note.txt"))).toBe(false);
    expect(server.requests).toHaveLength(1);
    terminal.close();

    terminal = TmuxCli.start(args, { ANTHROPIC_API_KEY: DUMMY_KEY }, folder.root);
    await terminal.waitForScreen(/⏸ 1 tool call from before still waiting for approval:/);
    await terminal.waitForScreen(/Allow write_file \{"path":"note.txt","content":"hi"\} \[toolu_n1\]\? /);
    terminal.type("y");
    terminal.press("Enter");
    await terminal.waitForScreen(/✓ write_file\(note\.txt\)/);
    await terminal.waitForScreen(/Saved note\.txt\.[\s\S]*› $/m);
    expect(readFileSync(path.join(folder.root, "note.txt"), "utf8")).toBe("hi");
    terminal.press("C-d");
    expect(await terminal.waitForExit()).toBe(0);
  });

  it("a line ending with \\ continues on the next: the lines go to the model as one message", async () => {
    server.enqueue({ content: "Got both lines." });
    terminal = TmuxCli.start(["--base-url", server.url], { ANTHROPIC_API_KEY: DUMMY_KEY });
    await terminal.waitForScreen(/Ctrl-D exits\n› $/m);
    terminal.type("first line \\");
    terminal.press("Enter");
    await terminal.waitForScreen(/^… $/m);
    terminal.type("second line");
    terminal.press("Enter");
    await terminal.waitForScreen(/Got both lines\./);
    expect(server.requests).toHaveLength(1);
    expect(lastUserText(server.requests[0]!.body)).toBe("first line \nsecond line");
    terminal.press("C-d");
    expect(await terminal.waitForExit()).toBe(0);
  });

  it('--mock "prompt" answers offline with the mock model, using the tools given', async () => {
    folder = scratchFolder({ "hello.txt": "Hello from the folder.\n" });
    // No API key, no base URL: --mock needs neither.
    terminal = TmuxCli.start(
      ["--mock", "--tools", "read", "What is in hello.txt?"],
      cleanEnvironment(),
      folder.root,
    );
    expect(await terminal.waitForExit()).toBe(0);
    const screen = terminal.screen();
    expect(screen).toContain("Offline: the bundled mock model answers (--mock)");
    expect(screen).toMatch(/✓ read_file\(hello\.txt\)/);
    expect(screen).toContain('[mock model, offline] You asked: "What is in hello.txt?"');
    expect(screen).toContain("Hello from the folder.");
  });
});
