/**
 * Checkpoints in the CLI, on a real terminal (tmux): `/rewind` lists the checkpoints and goes back
 * to before one, `/fork` copies the conversation before one into a new session file, and
 * `--rewind <n>` with `--session` rewinds before the prompt runs.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { MockAnthropicServer } from "../../src/testing/index";
import { mockServerPerTest } from "../support/mock-server";
import {
  cleanEnvironment,
  DUMMY_KEY,
  ensureBuiltCli,
  lastUserText,
  runCli,
  scratchFolder,
  TmuxCli,
} from "./helpers";

function echoModel(server: MockAnthropicServer): void {
  server.setHandler((body) => ({ content: `You said: ${lastUserText(body)}` }));
}

/** The user texts of a request the server received. */
function userTexts(server: MockAnthropicServer, index: number): string[] {
  return server.requests[index]!.body.messages.filter(
    (message: { role: string }) => message.role === "user",
  ).map((message: { role: string; content: unknown }) => lastUserText({ messages: [message] }));
}

describe("checkpoints in the CLI", () => {
  let terminal: TmuxCli | undefined;
  let scratch: ReturnType<typeof scratchFolder> | undefined;
  beforeAll(ensureBuiltCli, 300_000);
  const server = mockServerPerTest(echoModel);
  afterEach(() => {
    terminal?.close();
    terminal = undefined;
    scratch?.remove();
  });

  it("/rewind lists and goes back; /fork writes a new session file; --rewind rewinds before the prompt", async () => {
    scratch = scratchFolder();
    const session = path.join(scratch.root, "chat.jsonl");
    terminal = TmuxCli.start(
      ["--base-url", server.url, "--session", session],
      { ANTHROPIC_API_KEY: DUMMY_KEY },
      scratch.root,
    );
    await terminal.waitForScreen(/Ctrl-D exits\n› $/m);
    for (const word of ["one", "two", "three"]) {
      terminal.type(word);
      terminal.press("Enter");
      await terminal.waitForScreen(new RegExp(`^You said: ${word}\n✓ done`, "m"));
    }

    terminal.type("/rewind");
    terminal.press("Enter");
    const listed = await terminal.waitForScreen(/\/rewind <number or id> goes back/);
    expect(listed).toMatch(
      / {2}1\. cp_[0-9a-f]{32} [\d-]+ [\d:]+ {2}one\n {2}2\. cp_[0-9a-f]{32} .* {2}two\n {2}3\. .* {2}three/,
    );

    terminal.type("/rewind 2");
    terminal.press("Enter");
    await terminal.waitForScreen(/⟲ rewound to before "two": 4 messages removed/);
    terminal.type("four");
    terminal.press("Enter");
    await terminal.waitForScreen(/^You said: four\n✓ done/m);
    expect(userTexts(server, server.requests.length - 1)).toEqual(["one", "four"]);

    terminal.type("/fork 2");
    terminal.press("Enter");
    const forked = await terminal.waitForScreen(/⑂ forked before "four" into (\S+) \(2 messages\)/);
    const forkFile = /into (\S+) \(2 messages\)/.exec(forked)![1]!;
    expect(existsSync(forkFile)).toBe(true);
    expect(readFileSync(forkFile, "utf8")).toContain("You said: one");

    terminal.type("/rewind 9");
    terminal.press("Enter");
    await terminal.waitForScreen(/! no checkpoint "9" \(there are 2; \/rewind lists them\)/);
    terminal.press("C-d");
    expect(await terminal.waitForExit()).toBe(0);

    // --rewind with --session: back to before the first prompt, then the new prompt alone.
    const before = server.requests.length;
    const run = await runCli(["--base-url", server.url, "--session", session, "--rewind", "1", "five"], {
      env: cleanEnvironment({ ANTHROPIC_API_KEY: DUMMY_KEY }),
      cwd: scratch.root,
    });
    expect(run.stderr).toContain('⟲ rewound to before "one": 4 messages removed');
    expect(run.code).toBe(0);
    expect(userTexts(server, before)).toEqual(["five"]);

    const usage = await runCli(["--rewind", "1", "x"], {
      env: cleanEnvironment({ ANTHROPIC_API_KEY: DUMMY_KEY }),
    });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("--rewind goes with --session");
  });
});
