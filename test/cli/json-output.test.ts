import { beforeAll, describe, expect, it } from "vitest";
import { mockServerPerTest } from "../support/mock-server";
import { cleanEnvironment, DUMMY_KEY, ensureBuiltCli, runCli, scratchFolder } from "./helpers";

const env = () => cleanEnvironment({ ANTHROPIC_API_KEY: DUMMY_KEY });

function parseLines(stdout: string): Array<Record<string, any>> {
  const lines = stdout.split("\n");
  expect(lines.at(-1)).toBe("");
  return lines.slice(0, -1).map((line) => JSON.parse(line));
}

describe("agent-lattice --json (NDJSON of every SDK message)", () => {
  beforeAll(ensureBuiltCli, 300_000);
  const server = mockServerPerTest();

  it("prints one JSON object per line: init first, assistant and user messages, the result last", async () => {
    const folder = scratchFolder({ "a.txt": "alpha\n" });
    server.enqueue(
      { content: [{ type: "tool_use", id: "t1", name: "read_file", input: { path: "a.txt" } }] },
      { content: "It says alpha." },
    );
    try {
      const run = await runCli(["--json", "--base-url", server.url, "--tools", "read", "Read a.txt"], {
        env: env(),
        cwd: folder.root,
      });
      expect(run.code).toBe(0);
      const messages = parseLines(run.stdout);
      expect(messages.map((message) => message.type)).toEqual([
        "system",
        "assistant",
        "user",
        "assistant",
        "result",
      ]);
      expect(messages[0]).toMatchObject({ subtype: "init", model: "claude-sonnet-4-6" });
      expect(messages[0]!.tools.sort()).toEqual(["glob", "grep", "list_files", "read_file"]);
      expect(messages[2]!.message.content[0]).toMatchObject({ type: "tool_result", tool_use_id: "t1" });
      expect(messages[4]).toMatchObject({
        type: "result",
        subtype: "success",
        is_error: false,
        result: "It says alpha.",
        num_turns: 2,
      });
      expect(messages[4]!.usage.input_tokens).toBeGreaterThan(0);
      // Without --partial there are no stream events, and stderr stays free of the rendering.
      expect(messages.some((message) => message.type === "stream_event")).toBe(false);
      expect(run.stderr).toBe("");
    } finally {
      folder.remove();
    }
  });

  it("--partial adds stream_event messages whose text deltas spell the answer", async () => {
    server.enqueue({ content: "Streamed in pieces." });
    const run = await runCli(["--json", "--partial", "--base-url", server.url, "Hi"], { env: env() });
    expect(run.code).toBe(0);
    const messages = parseLines(run.stdout);
    const deltas = messages
      .filter((message) => message.type === "stream_event" && message.event.type === "content_block_delta")
      .map((message) => message.event.delta.text)
      .join("");
    expect(deltas).toBe("Streamed in pieces.");
    expect(messages.at(-1)!.type).toBe("result");
  });

  it("serialises an error result's error as name and message, exits 1, and never prints the key", async () => {
    server.enqueue({
      fault: "status",
      status: 401,
      body: { type: "error", error: { type: "authentication_error", message: `invalid key ${DUMMY_KEY}` } },
    });
    const run = await runCli(["--json", "--base-url", server.url, "Hi"], { env: env() });
    expect(run.code).toBe(1);
    const result = parseLines(run.stdout).at(-1)!;
    expect(result).toMatchObject({ type: "result", subtype: "error_during_execution", is_error: true });
    expect(result.error).toMatchObject({ name: "ProviderError", status: 401 });
    expect(typeof result.error.message).toBe("string");
    expect(run.stdout + run.stderr).not.toContain(DUMMY_KEY);
  });

  it("--partial without --json is a usage error", async () => {
    const run = await runCli(["--partial", "--base-url", server.url, "Hi"], { env: env() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--partial only makes sense with --json");
    expect(server.requests).toHaveLength(0);
  });
});
