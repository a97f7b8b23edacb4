import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { mockServerPerTest } from "../support/mock-server";
import {
  cleanEnvironment,
  DUMMY_KEY,
  ensureBuiltCli,
  ownedBySandboxUser,
  runCli,
  scratchFolder,
  withoutCacheMarkers,
} from "./helpers";

const withKey = (extra: Record<string, string> = {}) =>
  cleanEnvironment({ ANTHROPIC_API_KEY: DUMMY_KEY, ...extra });

describe('agent-lattice "prompt" (one query against the mock server)', () => {
  beforeAll(ensureBuiltCli, 300_000);
  const server = mockServerPerTest();

  it("streams the answer to stdout, closes with turns, tokens and cost on stderr, and exits 0", async () => {
    server.enqueue({
      content: "Hello from the mock model.",
      usage: { input_tokens: 1200, output_tokens: 34 },
    });
    const run = await runCli(["--base-url", server.url, "Say", "hello"], { env: withKey() });

    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Hello from the mock model.\n");
    // claude-sonnet-4-6: 1200 × $3/M + 34 × $15/M = $0.00411
    expect(run.stderr).toMatch(/^✓ done · 1 turn · 1,200 in \/ 34 out tokens · \$0\.0041 · \d+\.\ds$/m);
    const request = server.requests[0]!;
    expect(request.body.model).toBe("claude-sonnet-4-6");
    expect(request.body.stream).toBe(true);
    expect(withoutCacheMarkers(request.body.messages)).toEqual([{ role: "user", content: "Say hello" }]);
    expect(request.body.tools ?? []).toEqual([]);
    // The key travels in a header (the SDK picks x-api-key or a bearer token) and nowhere else.
    expect(Object.values(request.headers).join(" ")).toContain(DUMMY_KEY);
    expect(run.stdout + run.stderr).not.toContain(DUMMY_KEY);
  });

  it("writes no escape codes when its output is piped, even without NO_COLOR", async () => {
    server.enqueue(
      { content: [{ type: "tool_use", id: "t1", name: "list_files", input: {} }] },
      { content: "Listed." },
    );
    const folder = scratchFolder({ "a.txt": "a" });
    try {
      const run = await runCli(["--base-url", server.url, "--tools", "read", "List"], {
        env: withKey(),
        cwd: folder.root,
      });
      expect(run.code).toBe(0);
      expect(run.stderr).toContain("✓ list_files() → a.txt");
      expect(run.stdout + run.stderr).not.toContain("\u001b");
    } finally {
      folder.remove();
    }
  });

  it("takes the model from --model over ANTHROPIC_MODEL, the endpoint from ANTHROPIC_BASE_URL, and sends --system", async () => {
    server.enqueue({ content: "one" }, { content: "two" });
    const fromEnvironment = await runCli(["Hi"], {
      env: withKey({ ANTHROPIC_BASE_URL: server.url, ANTHROPIC_MODEL: "claude-haiku-4-5" }),
    });
    const fromFlag = await runCli(["--model", "deepseek-chat", "--system", "Be brief.", "Hi"], {
      env: withKey({ ANTHROPIC_BASE_URL: server.url, ANTHROPIC_MODEL: "claude-haiku-4-5" }),
    });

    expect([fromEnvironment.code, fromFlag.code]).toEqual([0, 0]);
    expect(server.requests.map((request) => request.body.model)).toEqual([
      "claude-haiku-4-5",
      "deepseek-chat",
    ]);
    expect(server.requests[0]!.body.system).toBeUndefined();
    expect(withoutCacheMarkers(server.requests[1]!.body.system)).toBe("Be brief.");
    // deepseek-chat is not in the built-in price table: the user is told, not misled.
    expect(fromFlag.stderr).toMatch(/deepseek-chat/);
  });

  it("talks to a keyless endpoint given by --base-url without sending any key", async () => {
    server.enqueue({ content: "no key needed" });
    const run = await runCli(["--base-url", server.url, "Hi"], { env: cleanEnvironment() });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("no key needed\n");
    expect(server.requests[0]!.headers["x-api-key"]).toBeUndefined();
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
  });

  it("--tools read gives the read tools over the current folder; each call and outcome is one line", async () => {
    const folder = scratchFolder({ "notes.txt": "first line\nsecond line\n", "docs/guide.md": "# Guide\n" });
    server.enqueue(
      {
        content: [
          { type: "text", text: "Let me look." },
          { type: "tool_use", id: "t1", name: "read_file", input: { path: "notes.txt" } },
          { type: "tool_use", id: "t2", name: "glob", input: { pattern: "**/*.md" } },
          { type: "tool_use", id: "t3", name: "read_file", input: { path: "missing.txt" } },
        ],
      },
      { content: "notes.txt has two lines." },
    );
    try {
      const run = await runCli(["--base-url", server.url, "--tools", "read", "What is in notes.txt?"], {
        env: withKey(),
        cwd: folder.root,
      });

      expect(run.code).toBe(0);
      expect(run.stdout).toBe("Let me look.\nnotes.txt has two lines.\n");
      expect(run.stderr).toContain("  ✓ read_file(notes.txt) → 2 lines\n");
      expect(run.stderr).toContain("  ✓ glob(**/*.md) → docs/guide.md\n");
      expect(run.stderr).toContain('  ✗ read_file(missing.txt) → "missing.txt" does not exist.\n');
      expect(run.stderr).toMatch(/✓ done · 2 turns/);
      const offered = (server.requests[0]!.body.tools as Array<{ name: string }>).map((tool) => tool.name);
      expect(offered.sort()).toEqual(["glob", "grep", "list_files", "read_file"]);
      expect(withoutCacheMarkers(server.requests[0]!.body.system)).toContain(folder.root);
      const fed = server.requests[1]!.body.messages.at(-1).content;
      expect(fed[0]).toMatchObject({ type: "tool_result", tool_use_id: "t1" });
      expect(fed[0].content).toContain("first line");
      expect(fed[2]).toMatchObject({ tool_use_id: "t3", is_error: true });
    } finally {
      folder.remove();
    }
  });

  it("--tools write,bash adds writing and shell tools that really act on the folder", async () => {
    const folder = scratchFolder();
    ownedBySandboxUser(folder.root);
    server.enqueue(
      {
        content: [
          {
            type: "tool_use",
            id: "w",
            name: "write_file",
            input: { path: "out/hello.txt", content: "hi\n" },
          },
        ],
      },
      { content: [{ type: "tool_use", id: "b", name: "bash", input: { command: "wc -c < out/hello.txt" } }] },
      { content: "Wrote it." },
    );
    try {
      const run = await runCli(["--base-url", server.url, "--tools", "write,bash", "Write hello"], {
        env: withKey(),
        cwd: folder.root,
      });
      expect(run.code).toBe(0);
      expect(readFileSync(path.join(folder.root, "out/hello.txt"), "utf8")).toBe("hi\n");
      const offered = (server.requests[0]!.body.tools as Array<{ name: string }>).map((tool) => tool.name);
      expect(offered.sort()).toEqual(["bash", "edit_file", "write_file"]);
      expect(run.stderr).toContain("✓ bash(wc -c < out/hello.txt)");
      expect(JSON.stringify(server.requests[2]!.body.messages.at(-1))).toContain("3");
    } finally {
      folder.remove();
    }
  });

  it("never prints the API key in the streamed answer, whatever its shape (as --json never does)", async () => {
    const key = "dsk-live-0123456789abcdefXYZ"; // another provider's key, not sk-ant- shaped
    server.enqueue({ content: `Your .env file says ANTHROPIC_API_KEY=${key}. Anything else?` });
    const run = await runCli(["--base-url", server.url, "What is in .env?"], {
      env: cleanEnvironment({ ANTHROPIC_API_KEY: key }),
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Your .env file says ANTHROPIC_API_KEY=[redacted]. Anything else?\n");
    expect(run.stderr).not.toContain(key);
  });

  it("a provider error ends with exit 1 and a one-line reason, the key never shown", async () => {
    server.enqueue({
      fault: "status",
      status: 400,
      body: {
        type: "error",
        error: { type: "invalid_request_error", message: `bad request for ${DUMMY_KEY}` },
      },
    });
    const run = await runCli(["--base-url", server.url, "Hi"], { env: withKey() });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^✗ error_during_execution: .*400.* · 1 turn · /m);
    expect(run.stderr).not.toContain(DUMMY_KEY);
  });

  it("shows a retry of a transient failure as a notice, then succeeds", async () => {
    server.enqueue({ fault: "status", status: 529 }, { content: "Recovered." });
    const run = await runCli(["--base-url", server.url, "Hi"], { env: withKey() });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/↻ 529 overloaded_error: retry 1\/2 in \d+\.\ds/);
    expect(run.stdout).toBe("Recovered.\n");
    expect(server.requests).toHaveLength(2);
  });

  it("--max-turns ends a run that keeps calling tools with exit 1", async () => {
    const folder = scratchFolder({ "a.txt": "a" });
    server.setHandler((_body, index) => ({
      content: [{ type: "tool_use", id: `t${index}`, name: "list_files", input: {} }],
    }));
    try {
      const run = await runCli(["--base-url", server.url, "--tools", "read", "--max-turns", "2", "Loop"], {
        env: withKey(),
        cwd: folder.root,
      });
      expect(run.code).toBe(1);
      expect(server.requests).toHaveLength(2);
      expect(run.stderr).toMatch(/✗ error_max_turns: .* · 2 turns · /);
    } finally {
      folder.remove();
    }
  });

  it("--budget ends the run once it costs more, keeping the text so far, with exit 1", async () => {
    const folder = scratchFolder({ "a.txt": "a" });
    server.enqueue({
      content: [
        { type: "text", text: "Partial work." },
        { type: "tool_use", id: "t1", name: "list_files", input: {} },
      ],
      usage: { input_tokens: 1_000_000, output_tokens: 10 },
    });
    try {
      const run = await runCli(["--base-url", server.url, "--tools", "read", "--budget", "0.5", "Spend"], {
        env: withKey(),
        cwd: folder.root,
      });
      expect(run.code).toBe(1);
      expect(server.requests).toHaveLength(1);
      expect(run.stdout).toBe("Partial work.\n");
      expect(run.stderr).toMatch(/✗ error_max_budget_usd: .* · \$3\.0002 · /);
    } finally {
      folder.remove();
    }
  });
});
