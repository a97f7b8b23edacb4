import { afterEach, describe, expect, it } from "vitest";
import { connectMcpServers, type McpConnections } from "../../../src/integrations/mcp/connect";
import {
  type HttpFixture,
  startHangingHttpServer,
  startSseFixture,
  startStreamableHttpFixture,
} from "../../fixtures/mcp/raw-http-servers";
import { runTool, textOf, toolNamed } from "./helpers";

const TOKEN = "secret-token-0123456789";

describe("connectMcpServers over HTTP (raw SDK servers on loopback)", () => {
  const opened: Array<HttpFixture | McpConnections> = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((resource) => resource.close()));
  });

  async function track<T extends HttpFixture | McpConnections>(resource: Promise<T>): Promise<T> {
    const value = await resource;
    opened.push(value);
    return value;
  }

  it("connects over Streamable HTTP with the configured headers, lists and calls tools", async () => {
    const fixture = await track(startStreamableHttpFixture({ token: TOKEN }));
    const connections = await track(
      connectMcpServers({
        remote: { type: "http", url: fixture.url, headers: { Authorization: `Bearer ${TOKEN}` } },
      }),
    );
    expect(connections.statuses()).toEqual([
      { name: "remote", status: "connected", tools: ["mcp__remote__shout"] },
    ]);
    const shout = toolNamed(connections, "mcp__remote__shout");
    expect(shout.readOnly).toBe(true);
    expect(shout.inputSchema).toEqual({
      type: "object",
      properties: { text: { type: "string" } },
      required: ["text"],
    });
    expect(await runTool(shout, { text: "hello" })).toEqual({ content: [{ type: "text", text: "HELLO" }] });
  });

  it("reports a rejected Streamable HTTP connection as failed, without the token in the error", async () => {
    const fixture = await track(startStreamableHttpFixture({ token: TOKEN }));
    const connections = await track(
      connectMcpServers({
        remote: { type: "http", url: fixture.url, headers: { Authorization: "Bearer wrong-token-value" } },
      }),
    );
    const [status] = connections.statuses();
    expect(status).toMatchObject({ name: "remote", status: "failed" });
    expect(status?.error).toContain("401");
    expect(status?.error).not.toContain("wrong-token-value");
    expect(connections.tools()).toEqual([]);
  });

  it("connects over the legacy SSE transport with headers on the stream and on every message", async () => {
    const fixture = await track(startSseFixture({ token: TOKEN }));
    const connections = await track(
      connectMcpServers({
        legacy: { type: "sse", url: fixture.url, headers: { Authorization: `Bearer ${TOKEN}` } },
      }),
    );
    expect(connections.statuses()).toEqual([
      { name: "legacy", status: "connected", tools: ["mcp__legacy__shout"] },
    ]);
    expect(await runTool(toolNamed(connections, "mcp__legacy__shout"), { text: "sse" })).toEqual({
      content: [{ type: "text", text: "SSE" }],
    });
  });

  it("reports a legacy SSE server that refuses the stream", async () => {
    const fixture = await track(startSseFixture({ token: TOKEN }));
    const connections = await track(connectMcpServers({ legacy: { type: "sse", url: fixture.url } }));
    expect(connections.statuses()).toEqual([
      { name: "legacy", status: "failed", error: expect.stringContaining("401") },
    ]);
  });

  it("bounds an HTTP server that never answers initialize by connectTimeoutMs", async () => {
    const fixture = await track(startHangingHttpServer());
    const connections = await track(
      connectMcpServers({
        hanging: { type: "http", url: fixture.url, connectTimeoutMs: 200 },
        "hanging sse": { type: "sse", url: fixture.url, connectTimeoutMs: 200 },
      }),
    );
    const timeoutError =
      "No answer within connectTimeoutMs (200 ms) while starting, initializing and listing tools.";
    expect(connections.statuses()).toEqual([
      { name: "hanging", status: "failed", error: timeoutError },
      { name: "hanging sse", status: "failed", error: timeoutError },
    ]);
  });

  it("does not quote the password of a URL with user:password@ (fetch refuses it, quoting the URL)", async () => {
    const url = "http://deploy-bot:hunter2-very-secret@127.0.0.1:9/mcp";
    const connections = await track(
      connectMcpServers({
        streamable: { type: "http", url, connectTimeoutMs: 5_000 },
        legacy: { type: "sse", url, connectTimeoutMs: 5_000 },
      }),
    );
    for (const status of connections.statuses()) {
      expect(status.status).toBe("failed");
      const { error } = status as { error: string };
      expect(error).not.toContain("hunter2-very-secret");
      expect(error).not.toContain("deploy-bot");
    }
  });

  it("reports a refused connection (nothing listening)", async () => {
    const fixture = await startStreamableHttpFixture();
    await fixture.close();
    const connections = await track(connectMcpServers({ gone: { type: "http", url: fixture.url } }));
    expect(connections.statuses()).toEqual([{ name: "gone", status: "failed", error: expect.any(String) }]);
  });

  it("turns a tool call to a server that went away into an error output", async () => {
    const fixture = await startStreamableHttpFixture();
    const connections = await track(connectMcpServers({ remote: { type: "http", url: fixture.url } }));
    const shout = toolNamed(connections, "mcp__remote__shout");
    await fixture.close();
    const output = await runTool(shout, { text: "anyone?" });
    expect(output).toMatchObject({ isError: true });
    expect(textOf(output)).toMatch(/^MCP tool "mcp__remote__shout" failed: /);
  });
});
