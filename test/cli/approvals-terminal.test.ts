/**
 * The approval prompt on a real terminal (tmux): an interactive session with --ask-before-writes
 * asks y/n for each paused call with its input shown redacted, asks again on an answer it does not
 * understand, runs an approved call, hands a denial's reason to the model, Ctrl-D at the question
 * leaves the pause stored (a later `--approve` resumes it), and nothing on the screen holds the key.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { mockServerPerTest } from "../support/mock-server";
import {
  cleanEnvironment,
  DUMMY_KEY,
  ensureBuiltCli,
  eventually,
  runCli,
  scratchFolder,
  TmuxCli,
} from "./helpers";

const writeCall = (id: string, file: string, content: string) => ({
  content: [{ type: "tool_use" as const, id, name: "write_file", input: { path: file, content } }],
});

/** The tool_result blocks of the last request the mock server received. */
function lastResults(server: { requests: Array<{ body: { messages: Array<{ content: unknown }> } }> }) {
  const last = server.requests.at(-1)!.body.messages.at(-1)!;
  return (last.content as Array<{ type: string; content?: unknown; is_error?: boolean }>)
    .filter((block) => block.type === "tool_result")
    .map(({ content, is_error }) => ({ content, is_error }));
}

describe("agent-lattice asks for approval on a real terminal (tmux)", () => {
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

  it("asks y/n with the input shown redacted, re-asks on nonsense, runs on y and passes n's reason on", async () => {
    folder = scratchFolder();
    server.enqueue(
      writeCall("w1", "a.txt", `key ${DUMMY_KEY}`),
      { content: "Wrote a.txt." },
      writeCall("w2", "b.txt", "B"),
      { content: "Left b.txt alone." },
    );
    terminal = TmuxCli.start(
      ["--base-url", server.url, "--tools", "write", "--ask-before-writes"],
      { ANTHROPIC_API_KEY: DUMMY_KEY },
      folder.root,
    );
    await terminal.waitForScreen(/Ctrl-D exits\n› $/m);
    terminal.type("Write a.txt.");
    terminal.press("Enter");
    const asked = await terminal.waitForScreen(
      /Allow write_file \{"path":"a.txt","content":"key \S+"\} \[w1\]\? \[y\/n, or n <reason>\] $/m,
    );
    expect(asked).not.toContain(DUMMY_KEY);
    expect(existsSync(path.join(folder.root, "a.txt"))).toBe(false);

    terminal.type("perhaps");
    terminal.press("Enter");
    await eventually("the question asked a second time", () => {
      const screen = terminal!.screen();
      return (screen.match(/Allow write_file .*\[w1\]\?/g) ?? []).length === 2 ? true : undefined;
    });
    terminal.type("y");
    terminal.press("Enter");
    await terminal.waitForScreen(/^Wrote a\.txt\.\n✓ done/m);
    // The stored (redacted) input ran: the key never reaches a file, the screen or the model.
    expect(readFileSync(path.join(folder.root, "a.txt"), "utf8")).toBe("key [redacted]");

    terminal.type("Now b.txt.");
    terminal.press("Enter");
    await terminal.waitForScreen(/Allow write_file \{"path":"b.txt","content":"B"\} \[w2\]\? /m);
    terminal.type("n not on a Friday");
    terminal.press("Enter");
    await terminal.waitForScreen(/^Left b\.txt alone\.\n✓ done/m);
    expect(existsSync(path.join(folder.root, "b.txt"))).toBe(false);
    expect(lastResults(server)).toEqual([{ content: "Permission denied: not on a Friday", is_error: true }]);

    terminal.press("C-d");
    expect(await terminal.waitForExit()).toBe(0);
    expect(terminal.screen()).not.toContain(DUMMY_KEY);
  });

  it("Ctrl-D at the question leaves the pause in the session; a later run with --approve resumes it", async () => {
    folder = scratchFolder();
    const session = path.join(folder.root, "chat.jsonl");
    server.enqueue(writeCall("w1", "c.txt", "C"), { content: "Wrote c.txt." });
    const base = ["--base-url", server.url, "--tools", "write", "--ask-before-writes", "--session", session];
    terminal = TmuxCli.start(base, { ANTHROPIC_API_KEY: DUMMY_KEY }, folder.root);
    await terminal.waitForScreen(/Ctrl-D exits\n› $/m);
    terminal.type("Write c.txt.");
    terminal.press("Enter");
    await terminal.waitForScreen(/Allow write_file .*\[w1\]\? \[y\/n, or n <reason>\] $/m);
    terminal.press("C-d");
    // On a terminal the session ends with 0 as always (piped input would give 3); the pause stays.
    expect(await terminal.waitForExit()).toBe(0);
    expect(existsSync(path.join(folder.root, "c.txt"))).toBe(false);
    expect(server.requests).toHaveLength(1);

    const resumed = await runCli([...base, "--approve", "w1"], {
      env: cleanEnvironment({ ANTHROPIC_API_KEY: DUMMY_KEY }),
      cwd: folder.root,
    });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain("Wrote c.txt.");
    expect(readFileSync(path.join(folder.root, "c.txt"), "utf8")).toBe("C");
  });
});
