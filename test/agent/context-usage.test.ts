/**
 * `agent.getContextUsage()` against the mock server: counted by its `count_tokens` route where it
 * has one (`measured: true`), estimated on a provider without it or with a client that cannot count
 * (`measured: false`); split by category, with the model's window and the ratio.
 */
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent, createAnthropicClient, defineTool } from "../../src/index";
import { type MockAnthropicServer, startMockAnthropicServer } from "../../src/testing";
import { estimatePromptTokens } from "../../src/testing/mock-prompt-cache";

const servers: MockAnthropicServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(contextManagement: boolean): Promise<MockAnthropicServer> {
  const server = await startMockAnthropicServer({
    contextManagement,
    handler: (_body, index) =>
      index === 0
        ? {
            content: [
              { type: "thinking", thinking: "I should look at the file first.", signature: "sig-1" },
              { type: "tool_use", id: "call_1", name: "look", input: { name: "a.txt" } },
            ],
          }
        : { content: "It holds a long story." },
  });
  servers.push(server);
  return server;
}

const look = defineTool({
  name: "look",
  description: "Looks at a file.",
  inputSchema: z.object({ name: z.string() }),
  execute: () => "once upon a time ".repeat(400),
});

function agentOn(server: MockAnthropicServer, model = "claude-sonnet-4-6") {
  return createAgent({
    model,
    client: createAnthropicClient({ apiKey: "sk-usage", baseURL: server.url }),
    systemPrompt: "You look at files and tell what they hold.",
    tools: [look],
  });
}

describe("getContextUsage", () => {
  it("is measured with the provider's token counting, split by category", async () => {
    const server = await start(true);
    const agent = agentOn(server);
    await agent.prompt("What is in a.txt?");
    const usage = await agent.getContextUsage();
    const countRequest = server.requests.at(-1)!;
    expect(countRequest.path).toBe("/v1/messages/count_tokens");
    expect(usage.measured).toBe(true);
    expect(usage.inputTokens).toBe(estimatePromptTokens(countRequest.body));
    expect(usage.model).toBe("claude-sonnet-4-6");
    expect(usage.contextWindow).toBe(200_000);
    expect(usage.ratio).toBeCloseTo(usage.inputTokens / 200_000, 10);
    const { byCategory } = usage;
    expect(byCategory.toolResults).toBeGreaterThan(byCategory.messages);
    expect(byCategory.thinking).toBeGreaterThan(0);
    expect(byCategory.system).toBeGreaterThan(0);
    expect(byCategory.tools).toBeGreaterThan(0);
    const sum = Object.values(byCategory).reduce((total, tokens) => total + tokens, 0);
    expect(Math.abs(sum - usage.inputTokens)).toBeLessThanOrEqual(5); // rounding of the scaled shares
    // The count is of the whole context: the tool result is in it.
    expect(JSON.stringify(countRequest.body.messages)).toContain("once upon a time");
  });

  it("is estimated on a provider that does not count, and for a model without a known window", async () => {
    const server = await start(false);
    const agent = agentOn(server, "local-model-7b");
    await agent.prompt("What is in a.txt?");
    const usage = await agent.getContextUsage();
    expect(server.requests.at(-1)!.path).toBe("/v1/messages/count_tokens"); // tried, answered 404
    expect(usage.measured).toBe(false);
    expect(usage.contextWindow).toBeNull();
    expect(usage.ratio).toBeNull();
    const sum = Object.values(usage.byCategory).reduce((total, tokens) => total + tokens, 0);
    expect(usage.inputTokens).toBe(sum);
    // "once upon a time " × 400 is 6,800 characters: about 1,700 tokens of tool results.
    expect(usage.byCategory.toolResults).toBeGreaterThanOrEqual(1_700);
    expect(usage.byCategory.toolResults).toBeLessThan(1_800);
  });

  it("counts what the model reads when the provider edits the requests: the edits go to count_tokens", async () => {
    const server = await start(true);
    const agent = createAgent({
      model: "claude-sonnet-4-6",
      client: createAnthropicClient({ apiKey: "sk-usage", baseURL: server.url }),
      systemPrompt: "You look at files and tell what they hold.",
      tools: [look],
      contextManagement: {
        clearToolUses: { triggerTokens: 500, keepToolUses: 0, clearAtLeastTokens: 0 },
        where: "provider",
      },
    });
    await agent.prompt("What is in a.txt?");
    const usage = await agent.getContextUsage();
    const countRequest = server.requests.at(-1)!;
    expect(countRequest.path).toBe("/v1/messages/count_tokens");
    expect(countRequest.headers["anthropic-beta"]).toContain("context-management-2025-06-27");
    expect(countRequest.body.context_management.edits[0]).toMatchObject({ type: "clear_tool_uses_20250919" });
    expect(usage.measured).toBe(true);
    // History is sent whole; the count is of the request after the provider's edits.
    expect(JSON.stringify(countRequest.body.messages)).toContain("once upon a time");
    const unedited = estimatePromptTokens({ ...countRequest.body, context_management: undefined });
    expect(usage.inputTokens).toBeLessThan(unedited - 1_000);
    expect(usage.byCategory.toolResults).toBeLessThan(100); // the split follows the same edits
  });

  it("before any request: the system prompt and tools alone", async () => {
    const server = await start(true);
    const usage = await agentOn(server).getContextUsage();
    expect(usage.measured).toBe(true);
    expect(usage.byCategory.messages + usage.byCategory.toolResults + usage.byCategory.thinking).toBe(0);
    expect(usage.inputTokens).toBeGreaterThan(0);
  });
});
