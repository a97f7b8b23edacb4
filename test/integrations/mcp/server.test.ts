import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { InvalidOptionError } from "../../../src/errors";
import { connectMcpServers } from "../../../src/integrations/mcp/connect";
import {
  createMcpServer,
  type McpHttpListener,
  type McpToolServer,
} from "../../../src/integrations/mcp/server";
import { defineTool } from "../../../src/tools/define-tool";
import { createServedTools } from "../../fixtures/mcp/served-tools";
import { runTool, textOf, toolNamed } from "./helpers";

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw-test", version: "1" } },
};
const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

describe("createMcpServer over Streamable HTTP, called by the SDK client", () => {
  const cancelled: string[] = [];
  let started!: (toolUseId: string) => void;
  let served: McpToolServer;
  let listener: McpHttpListener;
  let client: Client;

  beforeAll(async () => {
    served = createMcpServer(
      createServedTools({ onCancelled: (id) => cancelled.push(id), onStarted: (id) => started(id) }),
      { name: "ours", version: "2.0.0" },
    );
    listener = await served.listen();
    client = new Client({ name: "sdk-test-client", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
  });

  afterAll(async () => {
    await client.close();
    await served.close();
  });

  it("announces its name and lists our tools with their JSON Schemas and readOnlyHint", async () => {
    expect(client.getServerVersion()).toMatchObject({ name: "ours", version: "2.0.0" });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "add",
      "explode",
      "picture",
      "refuse",
      "wait_for_cancel",
      "pid",
    ]);
    const add = tools[0]!;
    expect(add.description).toBe("Add two numbers");
    expect(add.inputSchema).toMatchObject({
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    });
    expect(add.annotations).toEqual({ readOnlyHint: true });
    expect(tools[1]!.annotations).toEqual({ readOnlyHint: false });
  });

  it("runs a tool and returns its text", async () => {
    expect(await client.callTool({ name: "add", arguments: { a: 2, b: 3 } })).toEqual({
      content: [{ type: "text", text: "5" }],
    });
  });

  it("validates input with the tool's schema and reports failures as isError results", async () => {
    const result = await client.callTool({ name: "add", arguments: { a: "two", b: 3 } });
    expect(result.isError).toBe(true);
    const [block] = result.content as Array<{ type: string; text: string }>;
    expect(block?.text).toMatch(/^Invalid input for tool "add":\n- a: /);
  });

  it("reports a throwing tool as an isError result with its message", async () => {
    expect(await client.callTool({ name: "explode", arguments: {} })).toEqual({
      content: [{ type: "text", text: 'Tool "explode" failed: exploded' }],
      isError: true,
    });
  });

  it("keeps isError from a returned ToolOutput", async () => {
    expect(await client.callTool({ name: "refuse", arguments: {} })).toEqual({
      content: [{ type: "text", text: "refused" }],
      isError: true,
    });
  });

  it("converts text, base64 images and URL images to MCP content", async () => {
    expect(await client.callTool({ name: "picture", arguments: {} })).toEqual({
      content: [
        { type: "text", text: "a picture" },
        { type: "image", data: "AAAA", mimeType: "image/png" },
        { type: "resource_link", uri: "https://example.com/images/cat.png", name: "cat.png" },
      ],
    });
  });

  it("answers an unknown tool with an InvalidParams protocol error", async () => {
    const failure = await client.callTool({ name: "nope", arguments: {} }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(McpError);
    expect((failure as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((failure as McpError).message).toContain("Unknown tool: nope");
  });

  it("aborts the tool's signal when the client cancels the request", async () => {
    const toolStarted = new Promise<string>((resolve) => (started = resolve));
    const controller = new AbortController();
    const call = client.callTool({ name: "wait_for_cancel", arguments: {} }, undefined, {
      signal: controller.signal,
    });
    const toolUseId = await toolStarted;
    controller.abort(new Error("stop"));
    await expect(call).rejects.toThrow("stop");
    await expect.poll(() => cancelled).toContain(toolUseId);
  });
});

describe("createMcpServer used by connectMcpServers (the full round trip)", () => {
  it("exposes our tools as mcp__<server>__<tool>, runs them, and ends its session on close()", async () => {
    const served = createMcpServer(createServedTools());
    const { url } = await served.listen();
    try {
      const connections = await connectMcpServers({ ours: { type: "http", url } });
      expect(served.sessionCount()).toBe(1);
      expect(connections.statuses()[0]).toMatchObject({ name: "ours", status: "connected" });
      const add = toolNamed(connections, "mcp__ours__add");
      expect(add.readOnly).toBe(true);
      expect(toolNamed(connections, "mcp__ours__explode").readOnly).toBe(false);
      expect(await runTool(add, { a: 40, b: 2 })).toEqual({ content: [{ type: "text", text: "42" }] });
      expect(await runTool(toolNamed(connections, "mcp__ours__explode"))).toEqual({
        content: [{ type: "text", text: 'Tool "explode" failed: exploded' }],
        isError: true,
      });
      await connections.close();
      expect(served.sessionCount()).toBe(0);
    } finally {
      await served.close();
    }
  });
});

describe("createMcpServer HTTP sessions and endpoint", () => {
  let served: McpToolServer;
  let listener: McpHttpListener;

  beforeAll(async () => {
    served = createMcpServer(createServedTools(), { sessionIdleTimeoutMs: 100 });
    listener = await served.listen({ path: "/tools" });
  });
  afterAll(() => served.close());

  async function initializeSession(): Promise<string> {
    const response = await fetch(listener.url, {
      method: "POST",
      headers: MCP_HEADERS,
      body: JSON.stringify(INITIALIZE),
    });
    expect(response.status).toBe(200);
    await response.text();
    const sessionId = response.headers.get("mcp-session-id");
    expect(sessionId).toEqual(expect.any(String));
    return sessionId!;
  }

  it("serves at the configured path only", async () => {
    expect(listener.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/tools$/);
    const elsewhere = await fetch(new URL("/mcp", listener.url), {
      method: "POST",
      headers: MCP_HEADERS,
      body: "{}",
    });
    expect(elsewhere.status).toBe(404);
  });

  it("answers a request without a session id (other than initialize) with 400", async () => {
    expect((await fetch(listener.url, { method: "GET", headers: MCP_HEADERS })).status).toBe(400);
    const listTools = { jsonrpc: "2.0", id: 2, method: "tools/list" };
    const response = await fetch(listener.url, {
      method: "POST",
      headers: MCP_HEADERS,
      body: JSON.stringify(listTools),
    });
    expect(response.status).toBe(400);
    expect(served.sessionCount()).toBe(0);
  });

  it("answers an unknown session id with 404", async () => {
    const response = await fetch(listener.url, {
      method: "POST",
      headers: { ...MCP_HEADERS, "mcp-session-id": "no-such-session" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: -32001 } });
  });

  it("refuses a Host header that is not a loopback name (DNS rebinding)", async () => {
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const outgoing = httpRequest(listener.url, {
        method: "POST",
        headers: { ...MCP_HEADERS, host: "evil.example" },
      });
      outgoing.on("response", (response) => {
        response.resume();
        resolve(response.statusCode);
      });
      outgoing.on("error", reject);
      outgoing.end(JSON.stringify(INITIALIZE));
    });
    expect(status).toBe(403);
  });

  it("ends a session on DELETE", async () => {
    const sessionId = await initializeSession();
    expect(served.sessionCount()).toBe(1);
    const deleted = await fetch(listener.url, {
      method: "DELETE",
      headers: { ...MCP_HEADERS, "mcp-session-id": sessionId },
    });
    expect(deleted.status).toBe(200);
    expect(served.sessionCount()).toBe(0);
  });

  it("closes a session left idle for sessionIdleTimeoutMs", async () => {
    const sessionId = await initializeSession();
    await expect.poll(() => served.sessionCount(), { timeout: 10_000 }).toBe(0);
    const response = await fetch(listener.url, {
      method: "POST",
      headers: { ...MCP_HEADERS, "mcp-session-id": sessionId },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect(response.status).toBe(404);
  });
});

describe("createMcpServer lifecycle and validation", () => {
  it("serves through handleHttp in the caller's own node:http server, and answers 503 once closed", async () => {
    const served = createMcpServer(createServedTools());
    const httpServer = createServer((request, response) => void served.handleHttp(request, response));
    await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/anything`;
    try {
      const connections = await connectMcpServers({ mine: { type: "http", url } });
      expect(textOf(await runTool(toolNamed(connections, "mcp__mine__add"), { a: 1, b: 1 }))).toBe("2");
      const closing = served.close();
      expect(served.close()).toBe(closing);
      await closing;
      expect(served.sessionCount()).toBe(0);
      const response = await fetch(url, {
        method: "POST",
        headers: MCP_HEADERS,
        body: JSON.stringify(INITIALIZE),
      });
      expect(response.status).toBe(503);
      await expect(served.listen()).rejects.toThrow("closed");
      await connections.close();
    } finally {
      httpServer.closeAllConnections();
      await new Promise((resolve) => httpServer.close(resolve));
    }
  });

  it("closes its listeners on close()", async () => {
    const served = createMcpServer(createServedTools());
    const { url } = await served.listen();
    await served.close();
    await expect(
      fetch(url, { method: "POST", headers: MCP_HEADERS, body: JSON.stringify(INITIALIZE) }),
    ).rejects.toThrow();
  });

  it("rejects tools it cannot serve", () => {
    const [add] = createServedTools();
    expect(() => createMcpServer([add!, add!])).toThrow(InvalidOptionError);
    expect(() => createMcpServer([add!, add!])).toThrow('two tools are named "add"');
    // defineTool refuses such a schema itself; a Tool built by hand reaches the server's own check.
    expect(() => defineTool({ name: "scalar", inputSchema: z.string(), execute: (text) => text })).toThrow(
      InvalidOptionError,
    );
    const scalar = { ...add!, name: "scalar", inputSchema: { type: "string" } };
    expect(() => createMcpServer([scalar])).toThrow('tool "scalar" must take an object input');
  });

  it("refuses a sessionIdleTimeoutMs a timer cannot wait (above 2^31-1 ms it would fire at once)", () => {
    const tools = createServedTools();
    expect(() => createMcpServer(tools, { sessionIdleTimeoutMs: 3_000_000_000 })).toThrow(
      "createMcpServer: sessionIdleTimeoutMs must be Infinity or a positive number of at most 2147483647 ms, got 3000000000.",
    );
    expect(() => createMcpServer(tools, { sessionIdleTimeoutMs: 0 })).toThrow(InvalidOptionError);
    expect(() => createMcpServer(tools, { sessionIdleTimeoutMs: Number.POSITIVE_INFINITY })).not.toThrow();
    expect(() => createMcpServer(tools, { sessionIdleTimeoutMs: 2_147_483_647 })).not.toThrow();
  });
});
