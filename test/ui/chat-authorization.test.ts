/**
 * An MCP server's OAuth pause in the browser (`auth.redirect: "pause"`): the chat request's run
 * pauses before the model with a `data-input` part of `kind: "authorization"` carrying the
 * authorization URL (and in the finish metadata); the history route shows it on reload; the app's
 * callback finishes it (`finishMcpAuthorization`) and the next request's `inputs` accept it — the
 * same assistant message continues, the tool called with the real server's result. Against the real
 * OAuth-protected MCP server and the mock Messages API over HTTP.
 */
import { join } from "node:path";
import type { DynamicToolUIPart, UIMessage } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { type Agent, createAgent, createJsonlHistoryStore } from "../../src/index";
import { finishMcpAuthorization } from "../../src/integrations/mcp/oauth/finish-authorization";
import { createMcpTokenStore } from "../../src/integrations/mcp/oauth/token-stores";
import { type OAuthFixture, startOAuthMcpServer } from "../fixtures/mcp/oauth-server";
import { followAuthorization, pausingServers } from "../integrations/mcp/oauth-pause-kit";
import { mockServerPerTest } from "../support/mock-server";
import { temporaryFolder } from "../support/temporary-folders";
import { readReply, send, serveChat, startSending, textOf, userMessage } from "./chat-test-kit";

const server = mockServerPerTest();

describe("an MCP server's OAuth pause in the browser", () => {
  let crm: OAuthFixture | undefined;
  afterEach(async () => {
    await crm?.close();
  });

  it("sends the authorization as a data-input part; the callback finishes it; the next request's accept continues the message", async () => {
    crm = await startOAuthMcpServer();
    const folder = temporaryFolder("ui-oauth-pause-");
    // Each request gets a fresh agent and store instances: another process of the app, each time.
    const tokens = () => createMcpTokenStore({ path: join(folder, "tokens.json") });
    const agents = ({ conversationId }: { conversationId: string }): Agent<unknown> =>
      createAgent({
        model: "claude-test",
        apiKey: "test-key",
        baseURL: server.url,
        mcpServers: pausingServers(crm!.url, tokens()),
        historyStore: createJsonlHistoryStore({ path: join(folder, `${conversationId}.jsonl`) }),
      });
    const endpoint = await serveChat({ agent: agents });
    const user = userMessage("Who am I?");
    const { chunks, message: paused } = await send(endpoint, "a1", [user]);
    const part = chunks.find((chunk) => chunk.type === "data-input") as
      | { type: "data-input"; id: string; data: { url: string } }
      | undefined;
    expect(part).toMatchObject({
      id: "authorization/crm",
      data: { kind: "authorization", server: "crm", mode: "url", tool_use_id: "" },
    });
    const url = part!.data.url;
    expect(new URL(url).pathname).toBe("/authorize");
    expect(paused.metadata).toMatchObject({ end: "requires_input", pendingInputs: [part!.data] });
    expect(paused.parts).toContainEqual(
      expect.objectContaining({ type: "data-input", id: "authorization/crm" }),
    );
    expect(server.requests).toHaveLength(0);

    // A reload shows it too: the answer starts with the pending authorization.
    const reloaded = (await (await fetch(`${endpoint.api}/a1/messages`)).json()) as { messages: UIMessage[] };
    expect(reloaded.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(reloaded.messages.at(-1)!.parts).toEqual([
      { type: "data-input", id: "authorization/crm", data: part!.data },
    ]);

    // The app's callback route.
    await finishMcpAuthorization({
      callbackUrl: await followAuthorization(url),
      mcpServers: pausingServers(crm.url, tokens()),
    });

    server.enqueue({ content: [{ type: "tool_use", id: "toolu_1", name: "mcp__crm__whoami", input: {} }] });
    server.enqueue({ content: "You are an authorized user." });
    const stream = await startSending(endpoint, "a1", [user, paused], {
      body: { inputs: { "authorization/crm": { action: "accept" } } },
    });
    const { chunks: resumed, message } = await readReply(stream, paused);
    expect(resumed[0]).toEqual(expect.objectContaining({ type: "start", messageId: paused.id }));
    expect(message.id).toBe(paused.id);
    const tool = message.parts.find((each): each is DynamicToolUIPart => each.type === "dynamic-tool");
    expect(tool).toMatchObject({ state: "output-available", toolName: "mcp__crm__whoami" });
    expect(JSON.stringify(tool?.output)).toContain("an authorized user");
    expect(textOf(message)).toBe("You are an authorized user.");
    // The model saw the prompt alone: no marker, nothing of the pause.
    expect(JSON.stringify(server.requests[0]!.body.messages)).not.toContain("waiting for a person");
  });
});
