/**
 * An MCP server's question in the browser: a run that pauses `requires_input` sends each question
 * as a `data-input` part (and in the finish metadata); the history route shows it on reload; the
 * next request (`inputs` in the body, the paused assistant message last) answers it and the same
 * assistant message continues with the server's real result. Answers that do not fit are refused.
 * Against the real questions server over stdio and the mock Messages API over HTTP.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { DynamicToolUIPart, UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { type Agent, createAgent, createJsonlHistoryStore } from "../../src/index";
import { mockServerPerTest } from "../support/mock-server";
import { temporaryFolder } from "../support/temporary-folders";
import {
  type ChatEndpoint,
  post,
  readReply,
  send,
  serveChat,
  startSending,
  textOf,
  userMessage,
} from "./chat-test-kit";

const server = mockServerPerTest();
const QUESTIONS = fileURLToPath(new URL("../fixtures/mcp/questions-server.mjs", import.meta.url));

function durableAgents(folder: string) {
  return ({ conversationId }: { conversationId: string }): Agent<unknown> =>
    createAgent({
      model: "claude-test",
      apiKey: "test-key",
      baseURL: server.url,
      mcpServers: { questions: { type: "stdio", command: process.execPath, args: [QUESTIONS] } },
      historyStore: createJsonlHistoryStore({ path: join(folder, `${conversationId}.jsonl`) }),
    });
}

async function pause(endpoint: ChatEndpoint, chatId: string) {
  server.enqueue({
    content: [{ type: "tool_use", id: "toolu_1", name: "mcp__questions__greet", input: { greeting: "Hey" } }],
  });
  const user = userMessage("Greet me");
  const { chunks, message } = await send(endpoint, chatId, [user]);
  return { user, chunks, paused: message };
}

async function answer(endpoint: ChatEndpoint, chatId: string, messages: UIMessage[], inputs: object) {
  const stream = await startSending(endpoint, chatId, messages, { body: { inputs } });
  return readReply(stream, messages.at(-1));
}

describe("MCP questions in the browser", () => {
  it("sends the question as a data-input part; the next request's inputs answer it and the message continues", async () => {
    const endpoint = await serveChat({ agent: durableAgents(temporaryFolder("ui-inputs-")) });
    const { user, chunks, paused } = await pause(endpoint, "q1");
    const question = {
      id: "toolu_1/input-1",
      server: "questions",
      message: "What is your name?",
      mode: "form",
      tool_use_id: "toolu_1",
    };
    expect(chunks).toContainEqual({
      type: "data-input",
      id: "toolu_1/input-1",
      data: expect.objectContaining(question),
    });
    expect(paused.parts).toContainEqual(
      expect.objectContaining({
        type: "data-input",
        id: "toolu_1/input-1",
        data: expect.objectContaining(question),
      }),
    );
    expect(paused.metadata).toMatchObject({
      end: "requires_input",
      pendingInputs: [expect.objectContaining(question)],
    });

    // A reload shows the question too.
    const reloaded = (await (await fetch(`${endpoint.api}/q1/messages`)).json()) as { messages: UIMessage[] };
    expect(reloaded.messages.at(-1)!.parts).toContainEqual(
      expect.objectContaining({ type: "data-input", id: "toolu_1/input-1" }),
    );

    server.enqueue({ content: "Greeted you." });
    const { chunks: resumed, message } = await answer(endpoint, "q1", [user, paused], {
      "toolu_1/input-1": { action: "accept", content: { name: "Ines" } },
    });
    expect(resumed[0]).toEqual(expect.objectContaining({ type: "start", messageId: paused.id }));
    expect(message.id).toBe(paused.id);
    const tool = message.parts.find((part): part is DynamicToolUIPart => part.type === "dynamic-tool");
    expect(tool).toMatchObject({ state: "output-available" });
    expect(JSON.stringify(tool?.output)).toContain("Hey, Ines (newsletter: false)");
    expect(textOf(message)).toBe("Greeted you.");
  });

  it("refuses answers for unknown questions, missing answers and malformed ones", async () => {
    const endpoint = await serveChat({ agent: durableAgents(temporaryFolder("ui-inputs-bad-")) });
    const { user, paused } = await pause(endpoint, "q2");
    const body = (inputs: unknown) => ({
      id: "q2",
      messages: [user, paused],
      trigger: "submit-message",
      inputs,
    });
    const unknown = await post(endpoint, body({ other: { action: "accept" } }));
    expect(unknown.status).toBe(409);
    const missing = await post(endpoint, body({}));
    expect(missing.status).toBe(400);
    const malformed = await post(endpoint, body({ "toolu_1/input-1": { action: "yes" } }));
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ error: { code: "invalid_input" } });
  });
});
