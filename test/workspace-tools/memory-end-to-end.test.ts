/**
 * Memory across conversations, end to end through the mock server: an agent writes a memory in one
 * conversation, a new agent (a new conversation, nothing shared but the memory folder) reads it in
 * the next. And the mock server's declaration checks of the native memory tool.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createAgent, createAnthropicClient } from "../../src/index";
import { type MockAnthropicServer, startMockAnthropicServer } from "../../src/testing";
import { createMemoryTool } from "../../src/workspace-tools/index";
import { temporaryFolder } from "../support/temporary-folders";

const servers: MockAnthropicServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** The text of the last tool result a request carries. */
function lastToolResult(body: any): string {
  const content = body.messages.at(-1)?.content;
  const result = Array.isArray(content)
    ? content.find((block: any) => block.type === "tool_result")
    : undefined;
  return result ? JSON.stringify(result.content) : "";
}

describe("memory across conversations", () => {
  it("a memory written in one conversation is read in the next", async () => {
    const root = temporaryFolder("memory-e2e-");
    const server = await startMockAnthropicServer({
      handler: (body, index) => {
        switch (index) {
          case 0:
            return {
              content: [
                {
                  type: "tool_use",
                  id: "call_write",
                  name: "memory",
                  input: {
                    command: "create",
                    path: "/memories/user.md",
                    file_text: "The user prefers tabs.",
                  },
                },
              ],
            };
          case 1:
            return { content: "I will remember that." };
          case 2:
            return {
              content: [
                {
                  type: "tool_use",
                  id: "call_read",
                  name: "memory",
                  input: { command: "view", path: "/memories/user.md" },
                },
              ],
            };
          default: {
            const read = lastToolResult(body);
            return {
              content: read.includes("The user prefers tabs.")
                ? "You prefer tabs."
                : `I do not know (${read}).`,
            };
          }
        }
      },
    });
    servers.push(server);
    const newAgent = () =>
      createAgent({
        model: "claude-sonnet-4-6",
        client: createAnthropicClient({ apiKey: "sk-memory", baseURL: server.url }),
        tools: [createMemoryTool({ root })],
      });
    const first = await newAgent().prompt("Remember: I prefer tabs.");
    expect(first.result).toBe("I will remember that.");
    const second = await newAgent().prompt("Which indentation do I prefer?");
    expect(second.result).toBe("You prefer tabs.");
    expect(server.requests[2]!.body.messages).toHaveLength(1); // a new conversation: nothing carried over
    // Declared as a plain tool to an endpoint not known to honour the native one.
    expect(server.requests[0]!.body.tools[0]).toMatchObject({
      name: "memory",
      input_schema: { type: "object" },
    });
  });
});

describe("the mock server's checks of the native memory tool", () => {
  async function post(
    server: MockAnthropicServer,
    tools: unknown[],
    beta?: string,
  ): Promise<{ status: number; body: any }> {
    const response = await fetch(`${server.url}/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(beta && { "anthropic-beta": beta }) },
      body: JSON.stringify({
        model: "claude-sonnet-4-6",
        max_tokens: 10,
        messages: [{ role: "user", content: "hi" }],
        tools,
      }),
    });
    return { status: response.status, body: await response.json() };
  }

  it("accepts it with its name and beta; refuses a wrong name, a missing beta, and on a provider without support", async () => {
    const supporting = await startMockAnthropicServer({ handler: () => ({ content: "ok" }) });
    const plain = await startMockAnthropicServer({
      contextManagement: false,
      handler: () => ({ content: "ok" }),
    });
    servers.push(supporting, plain);
    const memory = { type: "memory_20250818", name: "memory" };
    const beta = "context-management-2025-06-27";
    expect((await post(supporting, [memory], beta)).status).toBe(200);
    expect((await post(supporting, [{ ...memory, name: "notes" }], beta)).body.error.message).toMatch(
      /must be named "memory"/,
    );
    expect((await post(supporting, [memory])).body.error.message).toMatch(/needs the beta header/);
    expect((await post(plain, [memory], beta)).body.error.message).toMatch(
      /unknown tool type "memory_20250818"/,
    );
  });
});
