/**
 * Every credential shape (Anthropic, OpenAI project and gateway keys, AWS key ids) redacted on the
 * web entry's surfaces: the UI message stream a page reads, the stored history, the history route.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createAgent, createJsonlHistoryStore } from "../../src/index";
import { CREDENTIAL_SAMPLES } from "../support/credential-shapes";
import { mockServerPerTest } from "../support/mock-server";
import { temporaryFolder } from "../support/temporary-folders";
import { post, serveChat, userMessage } from "./chat-test-kit";

const server = mockServerPerTest();

describe("credential shapes on the web entry", () => {
  it("never shows a key of any shape in the stream, the stored history or the history route", async () => {
    const folder = temporaryFolder("chat-shapes-");
    const endpoint = await serveChat({
      agent: ({ conversationId }) =>
        createAgent({
          model: "claude-test",
          apiKey: "test-key-for-shapes",
          baseURL: server.url,
          includePartialMessages: true,
          historyStore: createJsonlHistoryStore({ path: join(folder, `${conversationId}.jsonl`) }),
        }),
    });
    const listed = CREDENTIAL_SAMPLES.map(({ shape, key }) => `${shape} ${key}`).join("\n");
    server.enqueue({ content: `Keys I found:\n${listed}` });
    const response = await post(endpoint, { id: "shapes", messages: [userMessage(`Please keep ${listed}`)] });
    expect(response.status).toBe(200);
    const stream = await response.text();
    expect(stream).toContain("[redacted]");
    const stored = await readFile(join(folder, "shapes.jsonl"), "utf8");
    const history = await (await fetch(`${endpoint.api}/shapes/messages`)).text();
    for (const { shape, piece } of CREDENTIAL_SAMPLES) {
      expect(stream, `${shape} in the stream`).not.toContain(piece);
      expect(stored, `${shape} in stored history`).not.toContain(piece);
      expect(history, `${shape} in the history route`).not.toContain(piece);
      expect(JSON.stringify(server.requests), `${shape} sent to the model`).not.toContain(piece);
    }
    expect(stored).toContain("[redacted]");
  });
});
