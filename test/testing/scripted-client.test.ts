import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { createAgent, defineTool } from "../../src/index";
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

describe("createScriptedClient — waitForRequest", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function numbered(text: string): ModelRequest {
    return { ...request(), messages: [{ role: "user", content: text }] };
  }

  it("resolves with request #n once it arrives, while its step is still unanswered", async () => {
    const client = createScriptedClient([{ content: "first" }, { content: "never", hang: true }]);
    const second = client.waitForRequest(2);
    await client.createMessage(numbered("one"));
    const controller = new AbortController();
    const hanging = client.createMessage({ ...numbered("two"), signal: controller.signal });

    const arrived = await second;

    expect(arrived.messages).toEqual([{ role: "user", content: "two" }]);
    expect(arrived).toBe(client.requests[1]);
    controller.abort(new Error("done"));
    await expect(hanging).rejects.toThrow("done");
  });

  it("resolves at once with a request that has already arrived, and every waiter of one number", async () => {
    const client = createScriptedClient([{ content: "a" }, { content: "b" }]);
    const early = [client.waitForRequest(1), client.waitForRequest(1), client.waitForRequest(2)];
    await client.createMessage(numbered("one"));
    await client.createMessage(numbered("two"));

    const [first, again, second] = await Promise.all(early);

    expect(first).toBe(client.requests[0]);
    expect(again).toBe(client.requests[0]);
    expect(second).toBe(client.requests[1]);
    expect(await client.waitForRequest(1)).toBe(client.requests[0]);
  });

  it("rejects after timeoutMs, saying how many requests arrived, and forgets the waiter", async () => {
    vi.useFakeTimers();
    const client = createScriptedClient([{ content: "a" }, { content: "b" }]);
    await client.createMessage(numbered("one"));
    const late = client.waitForRequest(2, { timeoutMs: 1_000 });
    const outcome = late.then(
      () => "resolved",
      (error: unknown) => error,
    );

    vi.advanceTimersByTime(999);
    await Promise.resolve();
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(1);
    const failure = await outcome;

    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toBe(
      "createScriptedClient: request #2 did not arrive within 1000 ms (1 request arrived).",
    );
    await client.createMessage(numbered("two")); // a late arrival finds no waiter left
    expect(vi.getTimerCount()).toBe(0);
  });

  it("defaults to a 5 s bound and clears its timer when the request arrives", async () => {
    vi.useFakeTimers();
    const client = createScriptedClient([{ content: "a" }]);
    const first = client.waitForRequest(1);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(4_999);

    await client.createMessage(numbered("one"));

    expect(vi.getTimerCount()).toBe(0);
    expect((await first).messages).toEqual([{ role: "user", content: "one" }]);
  });

  it.each([
    [0, undefined, /takes a request number from 1 \(got 0\)/],
    [1.5, undefined, /takes a request number from 1 \(got 1.5\)/],
    [Number.NaN, undefined, /got NaN/],
    [1, 0, /takes a timeoutMs above 0/],
    [1, Number.POSITIVE_INFINITY, /takes a timeoutMs above 0 and up to 2147483647 \(got Infinity\)/],
  ])("refuses request number %s with timeoutMs %s as a TypeError", async (n, timeoutMs, message) => {
    const client = createScriptedClient([]);
    const failure = await client.waitForRequest(n, { timeoutMs }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as Error).message).toMatch(/^createScriptedClient: waitForRequest /);
    expect((failure as Error).message).toMatch(message);
  });

  it("with record: false, hands over a request it is waited for, but cannot hand back an earlier one", async () => {
    const client = createScriptedClient([{ content: "a" }], { record: false });
    const waiting = client.waitForRequest(1);
    const sent = numbered("one");
    await client.createMessage(sent);

    expect(await waiting).toBe(sent);
    expect(client.requests).toEqual([]);
    await expect(client.waitForRequest(1)).rejects.toThrow(
      /request #1 has already arrived, and record: false kept nothing to hand back/,
    );
  });

  it("lets a test abort an agent's query while its second request is in flight", async () => {
    const ran: string[] = [];
    const note = defineTool({
      name: "note",
      inputSchema: z.object({ text: z.string() }),
      execute: ({ text }) => {
        ran.push(text);
        return "noted";
      },
    });
    const client = createScriptedClient([
      { content: [{ type: "tool_use", id: "n1", name: "note", input: { text: "hello" } }] },
      { content: "never sent", hang: true },
    ]);
    const agent = createAgent({ model: "claude-test-1", client, tools: [note] });
    const controller = new AbortController();

    const result = agent.prompt("Take a note", { signal: controller.signal });
    const second = await client.waitForRequest(2);
    controller.abort(new Error("user left"));

    expect((await result).subtype).toBe("error_abort");
    expect(ran).toEqual(["hello"]);
    expect(second.messages.at(-1)).toEqual({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "n1", content: "noted" }],
    });
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
