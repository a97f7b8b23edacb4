/**
 * Approvals in the command, driven as a child process against the mock server: --ask-before-writes
 * pauses a one-shot run (exit 3, the calls listed with the resume command, input redacted), --json
 * prints the pending approvals on its result line, a later run with --session and --approve/--deny
 * resumes (the call runs, or gets the reason), mistakes in the decisions are usage errors, and the
 * interactive session asks y/n on its input and resumes with the answers.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { mockServerPerTest } from "../support/mock-server";
import { cleanEnvironment, DUMMY_KEY, ensureBuiltCli, runCli, scratchFolder } from "./helpers";

const env = () => cleanEnvironment({ ANTHROPIC_API_KEY: DUMMY_KEY });
const writeCall = (content: string) => ({
  content: [{ type: "tool_use" as const, id: "w1", name: "write_file", input: { path: "out.txt", content } }],
});
/** The tool_result texts of the last request the mock server received. */
function lastResults(server: {
  requests: Array<{ body: { messages: Array<{ content: unknown }> } }>;
}): unknown[] {
  const last = server.requests.at(-1)!.body.messages.at(-1)!;
  return (last.content as Array<{ type: string; content?: unknown; is_error?: boolean }>)
    .filter((block) => block.type === "tool_result")
    .map(({ content, is_error }) => ({ content, is_error }));
}

describe("agent-lattice and approvals", () => {
  beforeAll(ensureBuiltCli, 300_000);
  const server = mockServerPerTest();

  it("a one-shot run pauses with exit 3 and lists the call; --approve in a later run resumes it", async () => {
    const folder = scratchFolder();
    const session = path.join(folder.root, "chat.jsonl");
    const base = [
      "--base-url",
      server.url,
      "--tools",
      "read,write",
      "--ask-before-writes",
      "--session",
      session,
    ];
    server.enqueue(writeCall(`token ${DUMMY_KEY}`), { content: "Written." });
    try {
      const paused = await runCli([...base, "Write the file."], { env: env(), cwd: folder.root });
      expect(paused.code).toBe(3);
      expect(paused.stderr).toContain("⏸ waiting for approval of 1 tool call:");
      expect(paused.stderr).toMatch(/ {2}write_file \{"path":"out.txt","content":"token \S+"\} \[w1\]/);
      // The resume line repeats the run's own options (its tools, rules, endpoint), not the prompt.
      expect(paused.stderr).toContain(
        `resume: agent-lattice --base-url ${server.url} --tools read,write --ask-before-writes --session ${session} --approve w1`,
      );
      expect(paused.stdout + paused.stderr).not.toContain(DUMMY_KEY);
      expect(existsSync(path.join(folder.root, "out.txt"))).toBe(false);
      expect(server.requests).toHaveLength(1);

      const resumed = await runCli([...base, "--approve", "w1"], { env: env(), cwd: folder.root });
      expect(resumed.stderr).toContain("↺ resuming");
      expect(resumed.code).toBe(0);
      expect(resumed.stdout).toContain("Written.");
      // The call ran (the stored input, like all history, holds no secret).
      expect(readFileSync(path.join(folder.root, "out.txt"), "utf8")).toBe("token [redacted]");
      expect(server.requests).toHaveLength(2);
      expect(lastResults(server)).toEqual([
        { content: expect.stringContaining("out.txt"), is_error: undefined },
      ]);
    } finally {
      folder.remove();
    }
  });

  it("--json prints the pending approvals on its result line and exits 3; --deny with a reason resumes", async () => {
    const folder = scratchFolder();
    const session = path.join(folder.root, "chat.jsonl");
    const base = [
      "--base-url",
      server.url,
      "--tools",
      "write",
      "--ask-before-writes",
      "--session",
      session,
      "--json",
    ];
    server.enqueue(writeCall("hello"), { content: "Understood, not writing." });
    try {
      const paused = await runCli([...base, "Write the file."], { env: env(), cwd: folder.root });
      expect(paused.code).toBe(3);
      const lines = paused.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
      // The result, then the resume command as data (test/cli/resume-flags.test.ts checks that line).
      const result = lines.at(-2);
      expect(lines.at(-1)).toMatchObject({ type: "resume" });
      expect(result).toMatchObject({
        type: "result",
        subtype: "requires_approval",
        is_error: false,
        pending_approvals: [
          { tool_use_id: "w1", name: "write_file", input: { path: "out.txt", content: "hello" } },
        ],
      });

      const resumed = await runCli([...base, "--deny", "w1=Not today."], { env: env(), cwd: folder.root });
      expect(resumed.code).toBe(0);
      const last = JSON.parse(resumed.stdout.trim().split("\n").at(-1)!);
      expect(last).toMatchObject({ type: "result", subtype: "success", result: "Understood, not writing." });
      expect(lastResults(server)).toEqual([{ content: "Permission denied: Not today.", is_error: true }]);
      expect(existsSync(path.join(folder.root, "out.txt"))).toBe(false);
    } finally {
      folder.remove();
    }
  });

  it("decisions that do not fit the session are usage errors (exit 2), and nothing runs", async () => {
    const folder = scratchFolder();
    const session = path.join(folder.root, "chat.jsonl");
    const base = ["--base-url", server.url, "--tools", "write", "--ask-before-writes", "--session", session];
    server.enqueue(writeCall("x"));
    try {
      expect((await runCli([...base, "Write."], { env: env(), cwd: folder.root })).code).toBe(3);
      const unknown = await runCli([...base, "--approve", "nope"], { env: env(), cwd: folder.root });
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('"nope" is not waiting for approval (pending: w1)');
      const withPrompt = await runCli([...base, "--approve", "w1", "Hi"], { env: env(), cwd: folder.root });
      expect(withPrompt.code).toBe(2);
      expect(withPrompt.stderr).toContain("give no prompt with them");
      const noSession = await runCli(["--base-url", server.url, "--approve", "w1"], { env: env() });
      expect(noSession.code).toBe(2);
      expect(noSession.stderr).toContain("give its --session file");
      expect(server.requests).toHaveLength(1);
      expect(existsSync(path.join(folder.root, "out.txt"))).toBe(false);
    } finally {
      folder.remove();
    }
  });

  it("the interactive session asks y/n for each call and resumes with the answers", async () => {
    const folder = scratchFolder();
    server.enqueue(
      {
        content: [
          { type: "tool_use" as const, id: "w1", name: "write_file", input: { path: "a.txt", content: "A" } },
          { type: "tool_use" as const, id: "w2", name: "write_file", input: { path: "b.txt", content: "B" } },
        ],
      },
      { content: "Wrote a.txt only." },
    );
    try {
      const run = await runCli(["--base-url", server.url, "--tools", "write", "--ask-before-writes"], {
        env: env(),
        cwd: folder.root,
        input: "Write both files.\nmaybe\ny\nn b is not needed\n",
      });
      expect(run.code).toBe(0);
      // Asked about each call (the unclear answer asked again), inputs shown.
      expect(run.stderr.match(/Allow write_file \{"path":"a.txt","content":"A"\} \[w1\]\?/g)).toHaveLength(2);
      expect(run.stderr).toContain('Allow write_file {"path":"b.txt","content":"B"} [w2]?');
      expect(run.stdout).toContain("Wrote a.txt only.");
      expect(readFileSync(path.join(folder.root, "a.txt"), "utf8")).toBe("A");
      expect(existsSync(path.join(folder.root, "b.txt"))).toBe(false);
      expect(lastResults(server)).toEqual([
        { content: expect.stringContaining("a.txt"), is_error: undefined },
        { content: "Permission denied: b is not needed", is_error: true },
      ]);
    } finally {
      folder.remove();
    }
  });
});
