/**
 * Secrets inside a server's question: a real MCP server (questions-server.mjs, its `ask` tool)
 * asks a question whose message, field description and URL carry an Anthropic key, a Bearer token
 * and a value of the server's own configured environment. None of them reaches the yielded
 * messages, the UI message stream's `data-input` part, the history as the store holds it (JSONL
 * file, SQLite rows), or the studio's API over that store — and the pause still resumes: the
 * question asked again matches the redacted one stored, and the call completes with the server's
 * real answer.
 */
import { writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { createAgent } from "../../../src/agent/create-agent";
import { createJsonlHistoryStore } from "../../../src/history/jsonl";
import type { HistoryStore } from "../../../src/history/store";
import { createSqliteHistoryStore } from "../../../src/integrations/stores/sqlite";
import type { SDKMessage } from "../../../src/messages/sdk-messages";
import type { ToolResultBlock } from "../../../src/messages/types";
import { startStudio } from "../../../src/studio/index";
import { createScriptedClient } from "../../../src/testing/scripted-client";
import { toUIMessageStream } from "../../../src/ui/index";
import { temporaryFolder } from "../../support/temporary-folders";
import { readChunks } from "../../ui/ui-test-kit";

const SERVER = fileURLToPath(new URL("../../fixtures/mcp/questions-server.mjs", import.meta.url));
/** Credential-shaped: redacted whatever the agent is told. */
const ANTHROPIC_KEY = "sk-ant-api03-QuestionLeak0123456789abcdef";
const BEARER = "Bearer qst.tok3n.ZYXWVUTSRQ";
const BEARER_TOKEN = "qst.tok3n.ZYXWVUTSRQ";
/** Not credential-shaped: known only as the server's configured environment value. */
const ENV_SECRET = "plain-env-value-7731-question";
/**
 * Known to the agent (its `secrets` option) and read by the server from a file: history redacts it,
 * the connection (which knows the server's configuration only) does not.
 */
const AGENT_SECRET = "agent-only-value-5150-question";

function secretFile(): string {
  const path = join(temporaryFolder("elicit-secrets-file-"), "account.txt");
  writeFileSync(path, AGENT_SECRET);
  return path;
}
const SECRETS = [ANTHROPIC_KEY, BEARER_TOKEN, ENV_SECRET, AGENT_SECRET];

const databases: Database.Database[] = [];
afterAll(() => {
  for (const database of databases) database.close();
});

// What the model asks the tool for: the server fills the secrets in from its environment.
const QUESTION = {
  message: "Rotate $QUESTION_KEY? The server uses $QUESTION_CONTEXT for $QUESTION_FILE.",
  requestedSchema: {
    type: "object",
    properties: {
      confirm: { type: "boolean", title: "Confirm", description: "Sent with $QUESTION_BEARER" },
      note: { type: "string", title: "Note (was $QUESTION_CONTEXT)" },
    },
    required: ["confirm"],
  },
};

interface Backend {
  name: string;
  open(): { history: HistoryStore; location: string };
  raw(): Promise<string>;
}

const backends: Array<{ name: string; make: () => Backend }> = [
  {
    name: "JSONL",
    make: () => {
      const path = join(temporaryFolder("elicit-secrets-"), "conversation.jsonl");
      return {
        name: "JSONL",
        open: () => ({ history: createJsonlHistoryStore({ path }), location: path }),
        raw: () => readFile(path, "utf8"),
      };
    },
  },
  {
    name: "SQLite",
    make: () => {
      const path = join(temporaryFolder("elicit-secrets-"), "agents.db");
      const database = new Database(path);
      databases.push(database);
      return {
        name: "SQLite",
        open: () => ({
          history: createSqliteHistoryStore({ path, conversationId: "conversation" }),
          location: `sqlite:${path}`,
        }),
        raw: async () => {
          const tables = database
            .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
            .all() as Array<{
            name: string;
          }>;
          return tables
            .map(({ name }) => JSON.stringify(database.prepare(`SELECT * FROM "${name}"`).all()))
            .join("\n");
        },
      };
    },
  },
];

function expectNoSecret(surface: string, text: string): void {
  for (const secret of SECRETS) expect(text.includes(secret), `${surface} holds ${secret}`).toBe(false);
}

describe.each(backends)("a server's question carrying secrets ($name)", ({ make }) => {
  it("is redacted on every surface, and the pause still resumes with the server's real answer", async () => {
    const backend = make();
    const server = {
      type: "stdio" as const,
      command: process.execPath,
      args: [SERVER],
      env: {
        QUESTION_KEY: ANTHROPIC_KEY,
        QUESTION_BEARER: BEARER,
        QUESTION_CONTEXT: ENV_SECRET,
        QUESTIONS_FILE: secretFile(),
      },
    };
    const agentWith = (script: Parameters<typeof createScriptedClient>[0]) => {
      const { history } = backend.open();
      const model = createScriptedClient(script);
      return {
        model,
        agent: createAgent({
          model: "claude-sonnet-4-6",
          client: model,
          mcpServers: { questions: server },
          historyStore: history,
          secrets: [AGENT_SECRET],
        }),
      };
    };
    const first = agentWith([
      { content: [{ type: "tool_use", id: "toolu_1", name: "mcp__questions__ask", input: QUESTION }] },
    ]);
    const yielded: SDKMessage<unknown>[] = [];
    const chunks = await readChunks(
      toUIMessageStream(
        (async function* () {
          for await (const message of first.agent.query("rotate my key")) {
            yielded.push(message);
            yield message;
          }
        })(),
      ),
    );
    await first.agent.close();
    const result = yielded.at(-1) as { subtype: string; pending_inputs?: Array<{ id: string }> };
    expect(result.subtype).toBe("requires_input");
    const pending = result.pending_inputs![0]!;
    expect(pending).toMatchObject({ id: "toolu_1/input-1", message: expect.stringContaining("[redacted]") });
    expectNoSecret("the yielded messages", JSON.stringify(yielded));
    const part = chunks.find((chunk) => chunk.type === "data-input");
    expect(part, "the UI stream has the question's part").toBeDefined();
    expect(JSON.stringify(part)).toContain("Rotate [redacted]?");
    expectNoSecret("the UI stream", JSON.stringify(chunks));
    const raw = await backend.raw();
    expect(raw).toContain("Rotate [redacted]?");
    expectNoSecret("the stored history", raw);

    const studio = await startStudio({ store: backend.open().location });
    try {
      const url = new URL(studio.url);
      const response = await fetch(new URL("/api/conversation?source=0&id=conversation", url), {
        headers: { "x-studio-token": url.searchParams.get("token")! },
      });
      const text = await response.text();
      expect(response.status).toBe(200);
      expect(JSON.parse(text).pendingInputs).toEqual([expect.objectContaining({ id: "toolu_1/input-1" })]);
      expectNoSecret("the studio's API", text);
    } finally {
      await studio.close();
    }

    // Another Agent answers: the server asks the same question again, unredacted; it matches the
    // redacted one stored and gets the answer.
    const second = agentWith([{ content: "Rotated." }]);
    const done = await second.agent.prompt({
      inputs: { [pending.id]: { action: "accept", content: { confirm: true, note: "ok" } } },
    });
    await second.agent.close();
    expect(done.subtype).toBe("success");
    const results = second.model.requests.at(-1)!.messages.at(-1)!.content as ToolResultBlock[];
    expect(results[0]?.content).toEqual([
      { type: "text", text: 'answer: accept {"confirm":true,"note":"ok"}' },
    ]);
    expectNoSecret("the history after the resume", await backend.raw());
  });
});
