/**
 * `--mock` writes: the walk-throughs of docs/en/cli.md ("Try it offline") on a real terminal (tmux),
 * with no key and no network — an approval asked and answered, a change approved, `/rewind`
 * putting the files back; a one-shot run that pauses for approval (exit 3) and the printed resume
 * command that carries it out.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { cleanEnvironment, ensureBuiltCli, scratchFolder, TmuxCli } from "./helpers";

describe("agent-lattice --mock writes, on a real terminal", () => {
  let terminal: TmuxCli | undefined;
  let folder: { root: string; remove(): void } | undefined;
  beforeAll(ensureBuiltCli, 300_000);
  afterEach(() => {
    terminal?.close();
    terminal = undefined;
    folder?.remove();
    folder = undefined;
  });

  const answer = (terminal: TmuxCli, key: string) => {
    terminal.type(key);
    terminal.press("Enter");
  };

  it("asks before writing and changing a file, and /rewind puts the files back", async () => {
    folder = scratchFolder();
    const hello = path.join(folder.root, "hello.txt");
    const args = ["--mock", "--tools", "read,write", "--ask-before-writes", "--session", "chat.jsonl"];
    terminal = TmuxCli.start(args, cleanEnvironment(), folder.root);
    await terminal.waitForScreen(/Ctrl-D exits\n› $/m);

    answer(terminal, "Write a file hello.txt that says hello");
    await terminal.waitForScreen(
      /Allow write_file \{"path":"hello.txt","content":"hello\\n"\} \[toolu_mock_\d+\]\? /,
    );
    answer(terminal, "y");
    await terminal.waitForScreen(/✓ write_file\(hello\.txt\)[\s\S]*✓ done[^\n]*\n› $/m);
    expect(readFileSync(hello, "utf8")).toBe("hello\n");

    answer(terminal, "Change hello to goodbye in hello.txt");
    await terminal.waitForScreen(
      /Allow edit_file \{"path":"hello.txt","old_string":"hello","new_string":"goodbye"\} \[toolu_mock_\d+\]\? /,
    );
    answer(terminal, "y");
    await terminal.waitForScreen(/✓ edit_file\(hello\.txt\)[\s\S]*✓ done[^\n]*\n› $/m);
    expect(readFileSync(hello, "utf8")).toBe("goodbye\n");

    answer(terminal, "/rewind");
    const listed = await terminal.waitForScreen(/\/rewind <number or id> goes back/);
    expect(listed).toMatch(
      / {2}1\. cp_\w+ .* {2}Write a file hello\.txt that says hello {2}\[files: hello\.txt\]/,
    );
    expect(listed).toMatch(
      / {2}2\. cp_\w+ .* {2}Change hello to goodbye in hello\.txt {2}\[files: hello\.txt\]/,
    );
    answer(terminal, "/rewind 2");
    await terminal.waitForScreen(
      /⟲ rewound to before "Change hello to goodbye in hello.txt"[\s\S]*files restored: hello\.txt/,
    );
    expect(readFileSync(hello, "utf8")).toBe("hello\n");
    answer(terminal, "/rewind 1");
    await terminal.waitForScreen(/files removed: hello\.txt/);
    expect(existsSync(hello)).toBe(false);
    terminal.press("C-d");
    expect(await terminal.waitForExit()).toBe(0);
  }, 180_000);

  it("a one-shot run pauses for approval (exit 3); the printed resume command writes the file", async () => {
    folder = scratchFolder();
    const args = ["--mock", "--tools", "write", "--ask-before-writes", "--session", "job.jsonl"];
    terminal = TmuxCli.start([...args, "Write the release notes."], cleanEnvironment(), folder.root);
    expect(await terminal.waitForExit()).toBe(3);
    const screen = terminal.screen();
    expect(screen).toMatch(/write_file \{"path":"NOTES.md","content":"Written by the mock model/);
    const resume = /resume: agent-lattice (.*--approve (toolu_mock_\d+))/.exec(screen);
    expect(resume?.[1]).toContain("--mock");
    expect(existsSync(path.join(folder.root, "NOTES.md"))).toBe(false);
    terminal.close();

    // The printed command, as a user pastes it (its words are plain, no quoting needed).
    terminal = TmuxCli.start(resume![1]!.trim().split(/\s+/), cleanEnvironment(), folder.root);
    expect(await terminal.waitForExit()).toBe(0);
    expect(terminal.screen()).toMatch(/↺ resuming job\.jsonl \(3 messages\)[\s\S]*✓ write_file\(NOTES\.md\)/);
    expect(readFileSync(path.join(folder.root, "NOTES.md"), "utf8")).toBe(
      "Written by the mock model (offline) for: Write the release notes.\n",
    );
  }, 120_000);
});
