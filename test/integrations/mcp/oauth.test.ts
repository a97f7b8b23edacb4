/**
 * OAuth 2.1 for `http` MCP servers, against a real authorization server and protected MCP server on
 * loopback (test/fixtures/mcp/oauth-server.ts): the code flow with dynamic registration, PKCE and
 * the `resource` parameter, the redirect through our loopback listener, refresh when a token
 * expires mid-run, client_credentials, a token store shared by a second connection, and no token
 * or client secret in history, messages, statuses, errors or tool results.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createAgent } from "../../../src/agent/create-agent";
import { createJsonlHistoryStore } from "../../../src/history/jsonl";
import { connectMcpServers, type McpConnections } from "../../../src/integrations/mcp/connect";
import { createMcpTokenStore } from "../../../src/integrations/mcp/oauth/token-stores";
import type { SDKMessage } from "../../../src/messages/sdk-messages";
import { createScriptedClient } from "../../../src/testing/scripted-client";
import { type OAuthFixture, startOAuthMcpServer } from "../../fixtures/mcp/oauth-server";
import { temporaryFolder } from "../../support/temporary-folders";
import { runTool, textOf, toolNamed } from "./helpers";

/** The person's browser: opens the authorization URL and follows the redirect to our listener. */
function browser(opened: URL[] = []) {
  return async (authorizationUrl: URL) => {
    opened.push(authorizationUrl);
    const approval = await fetch(authorizationUrl, { redirect: "manual" });
    await (await fetch(approval.headers.get("location")!)).text();
  };
}

describe("OAuth for http MCP servers", () => {
  const opened: Array<OAuthFixture | McpConnections> = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((resource) => resource.close()));
  });
  async function track<T extends OAuthFixture | McpConnections>(resource: Promise<T>): Promise<T> {
    const value = await resource;
    opened.push(value);
    return value;
  }

  it("authorizes with dynamic registration, PKCE and the resource parameter, through the loopback redirect", async () => {
    const server = await track(startOAuthMcpServer());
    const urls: URL[] = [];
    const connections = await track(
      connectMcpServers({ crm: { type: "http", url: server.url, auth: { redirect: browser(urls) } } }),
    );
    expect(connections.statuses()).toEqual([
      { name: "crm", status: "connected", tools: ["mcp__crm__whoami"] },
    ]);
    expect(textOf(await runTool(toolNamed(connections, "mcp__crm__whoami")))).toBe("an authorized user");
    expect(urls).toHaveLength(1);
    const query = urls[0]!.searchParams;
    expect(query.get("code_challenge_method")).toBe("S256");
    expect(query.get("resource")).toBe(server.url);
    expect(query.get("redirect_uri")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(server.tokenRequests.map((request) => request.grant_type)).toEqual(["authorization_code"]);
    expect(server.tokenRequests[0]).toMatchObject({ resource: server.url });
    expect(server.tokenRequests[0]!.code_verifier).toMatch(/^[A-Za-z0-9._~-]{43,128}$/);
  });

  it("refreshes an access token that expires mid-run: the tool call succeeds", async () => {
    const server = await track(startOAuthMcpServer());
    const connections = await track(
      connectMcpServers({ crm: { type: "http", url: server.url, auth: { redirect: browser() } } }),
    );
    server.expireAccessTokens();
    const output = await runTool(toolNamed(connections, "mcp__crm__whoami"));
    expect(output).toEqual({ content: [{ type: "text", text: "an authorized user" }] });
    expect(server.tokenRequests.map((request) => request.grant_type)).toEqual([
      "authorization_code",
      "refresh_token",
    ]);
  });

  it("refreshes a token that expires between two tool calls of one query: both results are real", async () => {
    const server = await track(startOAuthMcpServer());
    const model = createScriptedClient((request) => {
      const results = request.messages.filter(
        (message) =>
          Array.isArray(message.content) && message.content.some((block) => block.type === "tool_result"),
      ).length;
      if (results === 0) {
        return { content: [{ type: "tool_use", id: "toolu_1", name: "mcp__crm__whoami", input: {} }] };
      }
      if (results === 1) {
        // Between the two calls, the server lets every access token lapse.
        server.expireAccessTokens();
        return { content: [{ type: "tool_use", id: "toolu_2", name: "mcp__crm__whoami", input: {} }] };
      }
      return { content: "done" };
    });
    const agent = createAgent({
      model: "claude-sonnet-4-6",
      client: model,
      mcpServers: { crm: { type: "http", url: server.url, auth: { redirect: browser() } } },
    });
    const results: unknown[] = [];
    try {
      for await (const message of agent.query("who am I, twice?")) {
        if (message.type !== "user" || !Array.isArray(message.message.content)) continue;
        results.push(...message.message.content.filter((block) => block.type === "tool_result"));
      }
    } finally {
      await agent.close();
    }
    expect(results).toEqual([
      expect.objectContaining({
        tool_use_id: "toolu_1",
        content: [{ type: "text", text: "an authorized user" }],
      }),
      expect.objectContaining({
        tool_use_id: "toolu_2",
        content: [{ type: "text", text: "an authorized user" }],
      }),
    ]);
    expect(results.some((result) => (result as { is_error?: boolean }).is_error)).toBe(false);
    expect(server.tokenRequests.map((request) => request.grant_type)).toEqual([
      "authorization_code",
      "refresh_token",
    ]);
  });

  it("refreshes before sending when the token's stated lifetime has passed", async () => {
    const server = await track(startOAuthMcpServer({ accessTokenLifetimeSeconds: 0 }));
    const connections = await track(
      connectMcpServers({ crm: { type: "http", url: server.url, auth: { redirect: browser() } } }),
    );
    expect(textOf(await runTool(toolNamed(connections, "mcp__crm__whoami")))).toBe("an authorized user");
    const grants = server.tokenRequests.map((request) => request.grant_type);
    expect(grants[0]).toBe("authorization_code");
    expect(grants.slice(1).every((grant) => grant === "refresh_token")).toBe(true);
    expect(grants.length).toBeGreaterThan(1);
  });

  it("uses client_credentials for a headless worker", async () => {
    const client = { id: "worker-1", secret: "worker-secret-0123456789" };
    const server = await track(startOAuthMcpServer({ client }));
    const connections = await track(
      connectMcpServers({
        crm: {
          type: "http",
          url: server.url,
          auth: { grant: "client_credentials", clientId: client.id, clientSecret: client.secret },
        },
      }),
    );
    expect(textOf(await runTool(toolNamed(connections, "mcp__crm__whoami")))).toBe("an authorized user");
    expect(server.tokenRequests.map((request) => request.grant_type)).toEqual(["client_credentials"]);
  });

  it("reports a refused client without its secret", async () => {
    const server = await track(
      startOAuthMcpServer({ client: { id: "worker-1", secret: "the-right-secret-42" } }),
    );
    const secret = "a-wrong-secret-0123456789";
    const connections = await track(
      connectMcpServers({
        crm: {
          type: "http",
          url: server.url,
          auth: { grant: "client_credentials", clientId: "worker-1", clientSecret: secret },
        },
      }),
    );
    const [status] = connections.statuses();
    expect(status).toMatchObject({ name: "crm", status: "failed" });
    expect(status?.error).toMatch(/invalid_client|client/i);
    expect(status?.error).not.toContain(secret);
  });

  it("keeps credentials in a token store: a second connection needs no authorization", async () => {
    const server = await track(startOAuthMcpServer());
    const path = join(temporaryFolder("lattice-mcp-tokens-"), "tokens.json");
    const tokenStore = createMcpTokenStore({ path });
    const first = await track(
      connectMcpServers({
        crm: { type: "http", url: server.url, auth: { redirect: browser(), tokenStore } },
      }),
    );
    await first.close();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const urls: URL[] = [];
    const second = await track(
      connectMcpServers({
        crm: { type: "http", url: server.url, auth: { redirect: browser(urls), tokenStore } },
      }),
    );
    expect(second.statuses()[0]?.status).toBe("connected");
    expect(urls).toEqual([]);
    expect(server.tokenRequests).toHaveLength(1);
  });

  it("keeps tokens and client secrets out of history, messages, statuses and tool results", async () => {
    const server = await track(startOAuthMcpServer({ leakyTool: true }));
    const folder = temporaryFolder("lattice-mcp-oauth-history-");
    const historyStore = createJsonlHistoryStore({ path: join(folder, "history.jsonl") });
    const model = createScriptedClient([
      { content: [{ type: "tool_use", id: "toolu_1", name: "mcp__crm__leak", input: {} }] },
      { content: "done" },
    ]);
    const agent = createAgent({
      model: "claude-sonnet-4-6",
      client: model,
      historyStore,
      mcpServers: { crm: { type: "http", url: server.url, auth: { redirect: browser() } } },
    });
    const messages: SDKMessage[] = [];
    try {
      for await (const message of agent.query("who am I?")) messages.push(message);
    } finally {
      await agent.close();
    }
    const secrets = server.issuedSecrets().filter((secret) => !secret.startsWith("code-"));
    expect(secrets.some((secret) => secret.startsWith("at-"))).toBe(true);
    expect(secrets.some((secret) => secret.startsWith("cs-"))).toBe(true);
    const surfaces = [
      JSON.stringify(messages, (_key, value) => (value instanceof Error ? value.message : value)),
      JSON.stringify(model.requests),
      ...readdirSync(folder).map((file) => readFileSync(join(folder, file), "utf8")),
    ];
    for (const surface of surfaces) {
      for (const secret of secrets) expect(surface).not.toContain(secret);
    }
    expect(surfaces[1]).toContain("your token is [redacted]");
  });
});
