/**
 * Resuming a paused run from the command line, as a user copies it: the resume line printed at the
 * pause carries every option the run had (tools, --ask-before-writes, --base-url, --session), and
 * pasting it as printed runs the call and shows the real tool line; approving a call whose tool this
 * run did not load is refused (exit 2, a message naming the tool, nothing run) rather than "done".
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { mockServerPerTest } from "../support/mock-server";
import { cleanEnvironment, DUMMY_KEY, ensureBuiltCli, runCli, scratchFolder } from "./helpers";

const env = () => cleanEnvironment({ ANTHROPIC_API_KEY: DUMMY_KEY });
const writeCall = {
  content: [
    {
      type: "tool_use" as const,
      id: "toolu_w1",
      name: "write_file",
      input: { path: "note.txt", content: "hi" },
    },
  ],
};

/** The words of the resume line printed at a pause (after `resume: agent-lattice`), without the hint after it. */
function resumeWords(stderr: string): string[] {
  const line = /resume: agent-lattice (.*?) {3}\(or --deny/.exec(stderr)?.[1];
  expect(line, stderr).toBeDefined();
  return line!.split(" ");
}

describe("agent-lattice: the resume line and approving calls", () => {
  beforeAll(ensureBuiltCli, 300_000);
  const server = mockServerPerTest();

  /** The run's own options (`leading` first, e.g. `--json`), as a user would type them. */
  const runOptions = (session: string, leading: string[] = []) => [
    ...leading,
    "--base-url",
    server.url,
    "--tools",
    "write",
    "--ask-before-writes",
    "--session",
    session,
  ];

  it("the printed resume line, run as printed, resumes with the run's tools and shows write_file(note.txt)", async () => {
    const folder = scratchFolder();
    const session = path.join(folder.root, "job.jsonl");
    server.enqueue(writeCall, { content: "Saved note.txt." });
    try {
      const paused = await runCli([...runOptions(session), "Save a note."], { env: env(), cwd: folder.root });
      expect(paused.code).toBe(3);
      const words = resumeWords(paused.stderr);
      expect(words).toEqual([
        "--base-url",
        server.url,
        "--tools",
        "write",
        "--ask-before-writes",
        "--session",
        session,
        "--approve",
        "toolu_w1",
      ]);
      const resumed = await runCli(words, { env: env(), cwd: folder.root });
      expect(resumed.code).toBe(0);
      expect(resumed.stderr).toMatch(/✓ write_file\(note\.txt\)/);
      expect(resumed.stderr).not.toContain("tool()");
      expect(readFileSync(path.join(folder.root, "note.txt"), "utf8")).toBe("hi");
      expect(resumed.stdout).toContain("Saved note.txt.");
    } finally {
      folder.remove();
    }
  });

  it("approving a call whose tool this run did not load is refused with exit 2, and nothing runs", async () => {
    const folder = scratchFolder();
    const session = path.join(folder.root, "job.jsonl");
    server.enqueue(writeCall, { content: "Saved note.txt." });
    try {
      const paused = await runCli([...runOptions(session), "Save a note."], { env: env(), cwd: folder.root });
      expect(paused.code).toBe(3);
      const bare = await runCli(["--base-url", server.url, "--session", session, "--approve", "toolu_w1"], {
        env: env(),
        cwd: folder.root,
      });
      expect(bare.code).toBe(2);
      expect(bare.stderr).toContain(
        'cannot approve write_file [toolu_w1]: this run has no tool "write_file"',
      );
      expect(bare.stderr).toContain("its tools: none");
      expect(bare.stdout + bare.stderr).not.toMatch(/✓ done|Unknown tool/);
      expect(existsSync(path.join(folder.root, "note.txt"))).toBe(false);
      expect(server.requests).toHaveLength(1); // nothing went to the model
      // The call is still pending: the right options resume it.
      const resumed = await runCli(resumeWords(paused.stderr), { env: env(), cwd: folder.root });
      expect(resumed.code).toBe(0);
      expect(readFileSync(path.join(folder.root, "note.txt"), "utf8")).toBe("hi");
    } finally {
      folder.remove();
    }
  });

  it("--json: the pause's resume command is a data line after the result, and it resumes as given", async () => {
    const folder = scratchFolder();
    const session = path.join(folder.root, "job.jsonl");
    server.enqueue(writeCall, { content: "Saved note.txt." });
    try {
      const paused = await runCli([...runOptions(session, ["--json"]), "Save a note."], {
        env: env(),
        cwd: folder.root,
      });
      expect(paused.code).toBe(3);
      const lines = paused.stdout
        .trim()
        .split("\n")
        .map(
          (line) =>
            JSON.parse(line) as { type: string; subtype?: string; command?: string; pending?: unknown },
        );
      expect(lines.at(-2)).toMatchObject({ type: "result", subtype: "requires_approval" });
      const resume = lines.at(-1)!;
      expect(resume.type).toBe("resume");
      expect(resume.pending).toEqual([{ tool_use_id: "toolu_w1", name: "write_file" }]);
      const words = resume.command!.split(" ");
      expect(words[0]).toBe("agent-lattice");
      expect(words.slice(1)).toEqual([
        "--json",
        "--base-url",
        server.url,
        "--tools",
        "write",
        "--ask-before-writes",
        "--session",
        session,
        "--approve",
        "toolu_w1",
      ]);
      const resumed = await runCli(words.slice(1), { env: env(), cwd: folder.root });
      expect(resumed.code).toBe(0);
      expect(readFileSync(path.join(folder.root, "note.txt"), "utf8")).toBe("hi");
    } finally {
      folder.remove();
    }
  });
});
