/**
 * MCP servers' questions (elicitation) in the command, end to end: the real command (dist/cli)
 * with `--mcp` running a real MCP server over stdio (test/fixtures/mcp/questions-server.mjs) whose
 * `greet` tool asks the user's name during the call. A one-shot run pauses `requires_input` with
 * exit 3 and lists the question; an interactive session over the same `--session` asks it on its
 * input (a form's fields one by one), and the call completes with the server's real answer.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { mockServerPerTest } from "../support/mock-server";
import { cleanEnvironment, DUMMY_KEY, ensureBuiltCli, runCli, scratchFolder } from "./helpers";

const QUESTIONS_SERVER = path.resolve(__dirname, "../fixtures/mcp/questions-server.mjs");
const greetCall = {
  content: [{ type: "tool_use" as const, id: "g1", name: "mcp__people__greet", input: { greeting: "Hi" } }],
};

/** The tool_result blocks of the last request the model server received. */
function lastResults(server: { requests: Array<{ body: { messages: Array<{ content: unknown }> } }> }) {
  const last = server.requests.at(-1)!.body.messages.at(-1)!;
  return (last.content as Array<{ type: string; content?: unknown; is_error?: boolean }>)
    .filter((block) => block.type === "tool_result")
    .map(({ content, is_error }) => ({ content, is_error }));
}

describe("agent-lattice and MCP servers' questions", () => {
  beforeAll(ensureBuiltCli, 600_000);
  const model = mockServerPerTest();

  it("a one-shot run pauses with exit 3 and lists the question; an interactive session over --session asks and answers it", async () => {
    const folder = scratchFolder();
    const config = path.join(folder.root, "mcp.json");
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { people: { command: process.execPath, args: [QUESTIONS_SERVER] } } }),
    );
    const session = path.join(folder.root, "chat.jsonl");
    const base = ["--base-url", model.url, "--mcp", config, "--session", session];
    const env = cleanEnvironment({ ANTHROPIC_API_KEY: DUMMY_KEY, XDG_CONFIG_HOME: folder.root });
    model.enqueue(greetCall, { content: "Greeted." });
    try {
      const paused = await runCli([...base, "Greet me."], { env, cwd: folder.root });
      expect(paused.stderr).toContain("⏸ waiting for answers to 1 question of MCP servers:");
      expect(paused.stderr).toMatch(/ {2}people: What is your name\? \[\S+\]/);
      expect(paused.stderr).toContain(`answer: agent-lattice --session ${session}`);
      expect(paused.code).toBe(3);
      expect(model.requests).toHaveLength(1);

      // The person answers in a session over the same file: y, then the fields (newsletter left to its default).
      const answered = await runCli(base, { env, cwd: folder.root, input: "y\nAda\n\n" });
      expect(answered.stderr).toContain("question from before still waiting for an answer");
      expect(answered.stderr).toMatch(/\? people: What is your name\?/);
      expect(answered.stdout).toContain("Greeted.");
      expect(answered.code).toBe(0);
      expect(lastResults(model)).toEqual([
        { content: [{ type: "text", text: "Hi, Ada (newsletter: false)" }], is_error: undefined },
      ]);
    } finally {
      folder.remove();
    }
  });

  it("declining in the interactive session sends the server's refusal to the model", async () => {
    const folder = scratchFolder();
    const config = path.join(folder.root, "mcp.json");
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { people: { command: process.execPath, args: [QUESTIONS_SERVER] } } }),
    );
    const env = cleanEnvironment({ ANTHROPIC_API_KEY: DUMMY_KEY, XDG_CONFIG_HOME: folder.root });
    model.enqueue(greetCall, { content: "Not greeted, fine." });
    try {
      const run = await runCli(["--base-url", model.url, "--mcp", config], {
        env,
        cwd: folder.root,
        input: "Greet me.\nn\n",
      });
      expect(run.stdout).toContain("Not greeted, fine.");
      expect(run.code).toBe(0);
      expect(lastResults(model)).toEqual([
        { content: [{ type: "text", text: "not greeted: decline" }], is_error: true },
      ]);
    } finally {
      folder.remove();
    }
  });
});
