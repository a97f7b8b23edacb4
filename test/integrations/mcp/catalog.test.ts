/**
 * Resources and prompts against a real stdio server (test/fixtures/mcp/features-server.mjs): every
 * page of a list, templates, reads (text and binary), prompts with arguments — on the connections
 * of `connectMcpServers` and on `agent.mcp` — and the failures: an unknown server, a server without
 * the feature, a failing read, an agent without `mcpServers`.
 */
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createAgent } from "../../../src/agent/create-agent";
import { InvalidOptionError } from "../../../src/errors";
import { connectMcpServers, type McpConnections } from "../../../src/integrations/mcp/connect";
import { createScriptedClient } from "../../../src/testing/scripted-client";
import { runTool, stdioFixture, textOf, toolNamed } from "./helpers";

const FEATURES = fileURLToPath(new URL("../../fixtures/mcp/features-server.mjs", import.meta.url));
const features = { type: "stdio" as const, command: process.execPath, args: [FEATURES] };

describe("MCP resources and prompts", () => {
  const opened: McpConnections[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((connections) => connections.close()));
  });

  it("lists every page, reads text and binary resources, and fills prompts with arguments", async () => {
    const connections = await connectMcpServers({ features, plain: stdioFixture() });
    opened.push(connections);
    expect(await connections.listResources()).toEqual([
      { server: "features", uri: "memo://one", name: "one", mimeType: "text/plain" },
      { server: "features", uri: "memo://two", name: "two", mimeType: "text/plain" },
      { server: "features", uri: "memo://pixel", name: "pixel", mimeType: "image/png" },
    ]);
    expect(await connections.listResourceTemplates("features")).toEqual([
      { server: "features", uriTemplate: "memo://{name}", name: "memo", description: "A memo by name" },
    ]);
    expect(await connections.readResource("features", "memo://two")).toEqual([
      { uri: "memo://two", mimeType: "text/plain", text: "the memo two" },
    ]);
    expect(await connections.readResource("features", "memo://pixel")).toEqual([
      { uri: "memo://pixel", mimeType: "image/png", blob: "iVBORw0KGgo=" },
    ]);
    expect(await connections.listPrompts()).toEqual([
      {
        server: "features",
        name: "greet",
        description: "Greet someone",
        arguments: [{ name: "who", required: true }],
      },
    ]);
    expect(await connections.getPrompt("features", "greet", { who: "Ada" })).toEqual({
      description: "A greeting",
      messages: [{ role: "user", content: { type: "text", text: "Say hello to Ada." } }],
    });
  });

  it("says which server is unknown, which lacks the feature, and why a read failed", async () => {
    const connections = await connectMcpServers({ features, plain: stdioFixture() });
    opened.push(connections);
    await expect(connections.readResource("nope", "memo://one")).rejects.toThrow(InvalidOptionError);
    await expect(connections.listPrompts("plain")).resolves.toEqual([]);
    await expect(connections.getPrompt("plain", "greet")).rejects.toThrow(/"plain" does not offer prompts/);
    await expect(connections.readResource("features", "file:///etc/passwd")).rejects.toThrow(
      /No resource file:\/\/\/etc\/passwd/,
    );
  });

  it("offers the model read-only resource tools only when the config asks", async () => {
    const connections = await connectMcpServers({
      plain: features,
      browsing: { ...features, resourceTools: true },
    });
    opened.push(connections);
    const names = connections.tools().map((tool) => tool.name);
    expect(names).not.toContain("mcp__plain__list_resources");
    const list = toolNamed(connections, "mcp__browsing__list_resources");
    const read = toolNamed(connections, "mcp__browsing__read_resource");
    expect([list.readOnly, read.readOnly]).toEqual([true, true]);
    expect(textOf(await runTool(list))).toBe(
      "memo://one | one | text/plain\nmemo://two | two | text/plain\nmemo://pixel | pixel | image/png",
    );
    expect(await runTool(read, { uri: "memo://two" })).toEqual({
      content: [{ type: "text", text: "the memo two" }],
    });
    expect(await runTool(read, { uri: "memo://pixel" })).toEqual({
      content: [{ type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } }],
    });
    const missing = await runTool(read, { uri: "nowhere://x" });
    expect(missing).toMatchObject({ isError: true });
    expect(textOf(missing)).toMatch(/No resource nowhere:\/\/x/);
  });

  it("is agent.mcp on an agent: connecting on first use; empty without mcpServers", async () => {
    const client = createScriptedClient([]);
    const agent = createAgent({ model: "claude-sonnet-4-6", client, mcpServers: { features } });
    try {
      expect((await agent.mcp.listResources("features")).map((resource) => resource.uri)).toEqual([
        "memo://one",
        "memo://two",
        "memo://pixel",
      ]);
      expect(await agent.mcp.readResource("features", "memo://one")).toEqual([
        { uri: "memo://one", mimeType: "text/plain", text: "the memo one" },
      ]);
    } finally {
      await agent.close();
    }
    const bare = createAgent({ model: "claude-sonnet-4-6", client });
    expect(await bare.mcp.listPrompts()).toEqual([]);
    await expect(bare.mcp.getPrompt("features", "greet")).rejects.toThrow(InvalidOptionError);
  });
});
