/**
 * Elicitation against a real stdio server (test/fixtures/mcp/features-server.mjs): the capability
 * declared only with `onElicitation`, form answers with the schema's defaults filled in, URL mode,
 * the handler's context, and a handler that throws, pauses or answers nonsense told `cancel`.
 */
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createAgent } from "../../../src/agent/create-agent";
import { connectMcpServers, type McpConnections } from "../../../src/integrations/mcp/connect";
import type {
  McpElicitationHandler,
  McpElicitationRequest,
} from "../../../src/integrations/mcp/elicitation-types";
import { createScriptedClient } from "../../../src/testing/scripted-client";
import { runTool, textOf, toolNamed } from "./helpers";

const FEATURES = fileURLToPath(new URL("../../fixtures/mcp/features-server.mjs", import.meta.url));
const config = { type: "stdio" as const, command: process.execPath, args: [FEATURES] };

describe("elicitation", () => {
  const opened: McpConnections[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((connections) => connections.close()));
  });
  async function connect(onElicitation?: McpElicitationHandler) {
    const connections = await connectMcpServers({ features: config }, onElicitation ? { onElicitation } : {});
    opened.push(connections);
    return connections;
  }

  it("answers a form with the handler's fields, the schema's defaults filling the rest", async () => {
    const asked: Array<{ request: McpElicitationRequest; toolName?: string }> = [];
    const connections = await connect(async (request, context) => {
      asked.push({ request, toolName: context.toolName });
      return { action: "accept", content: { name: "Grace" } };
    });
    const output = await runTool(toolNamed(connections, "mcp__features__ask"));
    expect(JSON.parse(textOf(output))).toEqual({
      action: "accept",
      content: { name: "Grace", age: 36, subscribed: true },
    });
    expect(asked).toEqual([
      {
        request: expect.objectContaining({ server: "features", message: "Who are you?", mode: "form" }),
        toolName: "mcp__features__ask",
      },
    ]);
    expect(asked[0]?.request.requestedSchema).toMatchObject({ properties: { name: { default: "Ada" } } });
  });

  it("passes a URL-mode question on and answers it without content", async () => {
    const asked: McpElicitationRequest[] = [];
    const connections = await connect(async (request) => {
      asked.push(request);
      return { action: "accept", content: { ignored: true } };
    });
    const output = await runTool(toolNamed(connections, "mcp__features__visit"));
    expect(JSON.parse(textOf(output))).toEqual({ action: "accept" });
    expect(asked[0]).toMatchObject({ mode: "url", url: "https://example.com/link", elicitationId: "link-1" });
  });

  it("answers cancel for a handler that throws, pauses or answers nonsense; decline passes through", async () => {
    const answers: Array<() => Promise<any>> = [
      async () => {
        throw new Error("no UI here");
      },
      async () => "pause",
      async () => ({ action: "maybe" }),
      async () => ({ action: "decline" }),
    ];
    const connections = await connect(() => answers.shift()!());
    const seen: string[] = [];
    for (let index = 0; index < 4; index++) {
      seen.push(JSON.parse(textOf(await runTool(toolNamed(connections, "mcp__features__ask")))).action);
    }
    expect(seen).toEqual(["cancel", "cancel", "cancel", "decline"]);
  });

  it("declares no elicitation capability without a handler: the server's question fails the call", async () => {
    const connections = await connect();
    const output = await runTool(toolNamed(connections, "mcp__features__ask"));
    expect(output).toMatchObject({ isError: true });
    expect(textOf(output)).toMatch(/elicitation/i);
  });

  it("reaches AgentOptions.onElicitation through createAgent({ mcpServers })", async () => {
    const model = createScriptedClient([
      { content: [{ type: "tool_use", id: "toolu_1", name: "mcp__features__ask", input: {} }] },
      { content: "done" },
    ]);
    const agent = createAgent({
      model: "claude-sonnet-4-6",
      client: model,
      mcpServers: { features: config },
      onElicitation: async () => ({ action: "accept", content: { age: 40 } }),
    });
    try {
      await agent.prompt("who?");
    } finally {
      await agent.close();
    }
    const results = model.requests[1]?.messages.at(-1)?.content as Array<{
      content: Array<{ text: string }>;
    }>;
    expect(JSON.parse(results[0]!.content[0]!.text)).toEqual({
      action: "accept",
      content: { name: "Ada", age: 40, subscribed: true },
    });
  });
});
