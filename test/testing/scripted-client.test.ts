import { describe, expect, it } from "vitest";
import { createAgent } from "../../src/index";
import type { ModelRequest } from "../../src/model/client";
import { createScriptedClient, type ScriptedStep, startMockAnthropicServer } from "../../src/testing";

function request(): ModelRequest {
  return {
    model: "claude-test-1",
    messages: [{ role: "user", content: "Hi" }],
    maxTokens: 64,
    signal: new AbortController().signal,
  };
}

describe("createScriptedClient — a malformed script", () => {
  it.each([
    ["a function that returned nothing", (() => undefined) as unknown as ScriptedStep, /returned undefined/],
    ["a response without content", { contents: "typo" } as unknown as ScriptedStep, /has no content/],
    ["content that is neither text nor blocks", { content: 42 } as unknown as ScriptedStep, /has no content/],
    ["null", null as unknown as ScriptedStep, /null/],
  ])("names the step when it is %s", async (_label, step, detail) => {
    const client = createScriptedClient([{ content: "first" }, step]);
    await client.createMessage(request());
    const failure = await client.createMessage(request()).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(TypeError);
    const message = (failure as Error).message;
    expect(message).toMatch(/^createScriptedClient: the step for request #2 /);
    expect(message).toMatch(detail);
    expect(message).not.toMatch(/Cannot read properties/);
  });

  it("ends the agent's query with that message", async () => {
    const client = createScriptedClient(() => undefined as never);
    const result = await createAgent({ model: "claude-test-1", client }).prompt("Hi");
    expect(result.subtype).toBe("error_during_execution");
    expect(result.error?.message).toMatch(/createScriptedClient: the step for request #1 returned undefined/);
  });
});

describe("startMockAnthropicServer — a malformed script", () => {
  it("answers a step without content, an unknown fault or no step from the handler with a 500 naming the step", async () => {
    const server = await startMockAnthropicServer({
      responses: [{ contents: "typo" } as never, { fault: "timeout" } as never],
      handler: () => undefined as never,
    });
    try {
      for (const number of [1, 2, 3]) {
        const response = await fetch(`${server.url}/v1/messages`, {
          method: "POST",
          body: JSON.stringify({ model: "m", max_tokens: 5, messages: [{ role: "user", content: "Hi" }] }),
        });
        expect(response.status).toBe(500);
        const body = (await response.json()) as { type: string; error: { type: string; message: string } };
        expect(body.type).toBe("error");
        expect(body.error.type).toBe("api_error");
        expect(body.error.message).toMatch(new RegExp(`^mock server: the step for request #${number} `));
        expect(body.error.message).not.toMatch(/Cannot read properties/);
      }
      expect(server.requests).toHaveLength(3);
    } finally {
      await server.close();
    }
  });
});

describe("createScriptedClient — push", () => {
  it("appends steps to an array script, answered after the ones before them", async () => {
    const client = createScriptedClient([{ content: "first" }]);
    client.push({ content: "second" });
    expect(client.remaining).toBe(2);
    expect((await client.createMessage(request())).content).toEqual([{ type: "text", text: "first" }]);
    expect((await client.createMessage(request())).content).toEqual([{ type: "text", text: "second" }]);
    expect(client.remaining).toBe(0);
  });

  it("refuses steps for a function script, which answers every request and would never use them", () => {
    const client = createScriptedClient(() => ({ content: "from the function" }));
    expect(() => client.push({ content: "never used" })).toThrow(TypeError);
    expect(() => client.push({ content: "never used" })).toThrow(/script is a function/);
    expect(client.remaining).toBe(0);
  });
});

describe("createScriptedClient — thinking and stop sequences", () => {
  it("streams thinking as the API does, keeps it byte for byte, and records a stop sequence", async () => {
    const thinking = {
      type: "thinking" as const,
      thinking: "Weigh both options — ✓.",
      signature: "sig-Eq8B",
    };
    const client = createScriptedClient([
      { content: [thinking, { type: "text", text: "Option A." }], stop_sequence: "</answer>" },
    ]);
    const events: unknown[] = [];
    const message = await client.createMessage({ ...request(), onEvent: (event) => events.push(event) });
    expect(message.content[0]).toEqual(thinking);
    expect(message).toMatchObject({ stop_reason: "stop_sequence", stop_sequence: "</answer>" });
    expect(events.slice(1, 5)).toEqual([
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "thinking", thinking: "", signature: "" },
      },
      {
        type: "content_block_delta",
        index: 0,
        delta: { type: "thinking_delta", thinking: thinking.thinking },
      },
      { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "sig-Eq8B" } },
      { type: "content_block_stop", index: 0 },
    ]);
    expect(events).toContainEqual({
      type: "message_delta",
      delta: { stop_reason: "stop_sequence", stop_sequence: "</answer>" },
      usage: {},
    });
  });
});
