import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseReplLine } from "../../src/cli/repl-commands";
import { DEFAULT_COMPACTION_PROMPT } from "../../src/compaction/prompt";
import { type MockAnthropicServer, startMockAnthropicServer } from "../../src/testing/index";
import {
  cleanEnvironment,
  DUMMY_KEY,
  ensureBuiltCli,
  lastUserText,
  runCli,
  scratchFolder,
  withoutCacheMarkers,
} from "./helpers";

const withKey = () => cleanEnvironment({ ANTHROPIC_API_KEY: DUMMY_KEY });

/** The summarising request of /compact carries the transcript between <conversation> tags. */
const isSummaryRequest = (body: { messages: Array<{ role: string; content: unknown }> }) =>
  JSON.stringify(body.messages).includes("<conversation>");

/** Answers "You said: …"; a summarising request gets a summary; usage is fixed so costs are known. */
function echoModel(server: MockAnthropicServer): void {
  server.setHandler((body) => {
    const usage = { input_tokens: 1000, output_tokens: 100 };
    if (isSummaryRequest(body)) return { content: "SUMMARY: the user said one, two, three, four.", usage };
    return { content: `You said: ${lastUserText(body)}`, usage };
  });
}

describe("parseReplLine", () => {
  it("tells commands from prompts: a slash and a word is a command, // and paths are prompts", () => {
    expect(parseReplLine("  /help ")).toEqual({ kind: "command", name: "help", argument: "" });
    expect(parseReplLine("/Model claude-haiku-4-5")).toEqual({
      kind: "command",
      name: "model",
      argument: "claude-haiku-4-5",
    });
    expect(parseReplLine("/compact keep the ticket numbers\n")).toEqual({
      kind: "command",
      name: "compact",
      argument: "keep the ticket numbers",
    });
    expect(parseReplLine("//help is a word")).toEqual({ kind: "prompt", text: "/help is a word" });
    expect(parseReplLine("/etc/hosts: what is it?")).toEqual({
      kind: "prompt",
      text: "/etc/hosts: what is it?",
    });
    expect(parseReplLine("what is /help?")).toEqual({ kind: "prompt", text: "what is /help?" });
    expect(parseReplLine("   ")).toEqual({ kind: "empty" });
    expect(parseReplLine("/")).toEqual({ kind: "prompt", text: "/" });
  });
});

describe("interactive session commands (input piped)", () => {
  let server: MockAnthropicServer;
  let folder: ReturnType<typeof scratchFolder>;
  beforeAll(ensureBuiltCli, 300_000);
  beforeEach(async () => {
    server = await startMockAnthropicServer();
    echoModel(server);
    folder = scratchFolder();
  });
  afterEach(async () => {
    folder.remove();
    await server.close();
  });

  it("/help, /model, /cost and /clear are handled by the command, never sent to the model nor saved", async () => {
    const session = path.join(folder.root, "chat.jsonl");
    const input = [
      "/help",
      "first",
      "/model claude-haiku-4-5",
      "/model",
      "second",
      "/cost",
      "/clear",
      "third",
      "",
    ];
    const run = await runCli(["--base-url", server.url, "--session", session], {
      env: withKey(),
      input: input.join("\n"),
    });

    expect(run.code).toBe(0);
    expect(run.stdout).toBe("You said: first\nYou said: second\nYou said: third\n");
    expect(server.requests.map((request) => lastUserText(request.body))).toEqual([
      "first",
      "second",
      "third",
    ]);
    expect(server.requests.map((request) => request.body.model)).toEqual([
      "claude-sonnet-4-6",
      "claude-haiku-4-5",
      "claude-haiku-4-5",
    ]);
    // /clear started a new conversation: the third request carries the third prompt alone.
    expect(server.requests[1]!.body.messages).toHaveLength(3);
    expect(withoutCacheMarkers(server.requests[2]!.body.messages)).toEqual([
      { role: "user", content: "third" },
    ]);
    const saved = readFileSync(session, "utf8");
    expect(saved).toContain("third");
    expect(saved).not.toContain("first");
    expect(saved).not.toMatch(/\/help|\/model|\/cost|\/clear/);

    expect(run.stderr).toContain("/compact [instructions]");
    expect(run.stderr).toContain("model: claude-sonnet-4-6 → claude-haiku-4-5");
    expect(run.stderr).toContain("model: claude-haiku-4-5\n");
    // 1000 in / 100 out: sonnet-4-6 $0.0045, haiku-4-5 $0.0015.
    expect(run.stderr).toContain(
      "cost so far: 2 queries · 2 turns · 2,000 in / 200 out tokens · $0.0060\n" +
        "  claude-sonnet-4-6: 1,000 in / 100 out tokens · $0.0045\n" +
        "  claude-haiku-4-5: 1,000 in / 100 out tokens · $0.0015\n",
    );
    expect(run.stderr).toContain("⟲ new conversation");
  });

  it("an unknown /word is said to be unknown and not sent; /exit ends the session; exit code 1 for the mistake", async () => {
    const run = await runCli(["--base-url", server.url], {
      env: withKey(),
      input: "/bogus thing\nhello\n/exit\nnever sent\n",
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("! unknown command /bogus (/help lists the commands;");
    expect(server.requests.map((request) => lastUserText(request.body))).toEqual(["hello"]);
    expect(run.stdout).toBe("You said: hello\n");
  });

  it("/compact summarises the older messages with the compaction prompt and the instructions, keeps the recent ones, and saves it", async () => {
    const session = path.join(folder.root, "chat.jsonl");
    const input = ["one", "two", "three", "four", "/compact keep every number", "five", "/cost", ""];
    const run = await runCli(["--base-url", server.url, "--session", session], {
      env: withKey(),
      input: input.join("\n"),
    });

    expect(run.code).toBe(0);
    expect(server.requests).toHaveLength(6);
    const summary = server.requests[4]!.body;
    expect(summary.tools ?? []).toEqual([]);
    expect(summary.system).toBeUndefined();
    const blocks = summary.messages[0].content as Array<{ text: string }>;
    expect(blocks[0]!.text).toMatch(/^<conversation>\n[\s\S]*one[\s\S]*<\/conversation>$/);
    expect(blocks[0]!.text).not.toContain("three"); // the last 6 messages are kept, not summarised
    expect(blocks[1]!.text).toBe(DEFAULT_COMPACTION_PROMPT);
    expect(blocks[2]!.text).toBe("Additional instructions for this summary:\nkeep every number");

    // The next prompt goes out with the summary, the 6 kept messages, and itself.
    const after = server.requests[5]!.body.messages;
    expect(after).toHaveLength(8);
    expect(JSON.stringify(after[0])).toContain("SUMMARY: the user said one, two, three, four.");
    expect(lastUserText({ messages: [after[1]] })).toBe("two");
    expect(lastUserText({ messages: [after[7]] })).toBe("five");
    // The session file holds the rebuilt conversation: 7 messages, then five and its answer.
    expect(readFileSync(session, "utf8").trim().split("\n")).toHaveLength(9);

    expect(run.stderr).toContain("⋯ compacted 2 messages into a summary (kept the last 6) · $0.0045");
    expect(run.stderr).toContain(
      "cost so far: 5 queries · 5 turns · 1 compaction · 6,000 in / 600 out tokens · $0.0270",
    );
  });

  it("/compact with too little history says so and sends nothing; a failed summary leaves the conversation as it was", async () => {
    const short = await runCli(["--base-url", server.url], { env: withKey(), input: "one\n/compact\n" });
    expect(short.code).toBe(0);
    expect(short.stderr).toContain("nothing to compact: the conversation has 2 messages");
    expect(server.requests).toHaveLength(1);

    server.setHandler((body) =>
      isSummaryRequest(body)
        ? { fault: "status", status: 400 }
        : { content: `You said: ${lastUserText(body)}` },
    );
    const failed = await runCli(["--base-url", server.url], {
      env: withKey(),
      input: "a\nb\nc\nd\n/compact\ne\n",
    });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/! compaction failed, the conversation is unchanged: /);
    const last = server.requests.at(-1)!.body;
    expect(lastUserText(last)).toBe("e");
    expect(last.messages).toHaveLength(9);
  });

  it("with --budget, /model refuses a model without a price", async () => {
    const run = await runCli(["--base-url", server.url, "--budget", "1"], {
      env: withKey(),
      input: "/model my-local-model\nhello\n",
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      '! not switched: with --budget every model needs a price, and "my-local-model" has none',
    );
    expect(server.requests.map((request) => request.body.model)).toEqual(["claude-sonnet-4-6"]);
  });
});
