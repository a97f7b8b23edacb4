/**
 * `onModelRequest` (the agent option and `hooks.onModelRequest`): a replacement shapes one outgoing
 * request only, never history; the loop keeps control of signal, deadline and events; failures fail
 * the query closed without sending the request.
 */
import { describe, expect, it } from "vitest";
import { createAgent, type ModelMessage, type ModelRequest, TimeoutError } from "../../src/index";
import { createScriptedClient } from "../../src/testing";
import { collect, hookErrors, messageText, never, resultOf, toolUse, workshopTools } from "./support";

describe("onModelRequest", () => {
  it("replaces one request only: the recorded request differs, history and later requests do not", async () => {
    const { tools } = workshopTools();
    const client = createScriptedClient([
      { content: [toolUse("c1", "read_file", { path: "a" })] },
      { content: "done" },
    ]);
    let call = 0;
    const agent = createAgent({
      model: "m",
      client,
      tools,
      systemPrompt: "You are careful.",
      onModelRequest: (request) => {
        call += 1;
        if (call !== 1) return;
        return {
          ...request,
          system: `${request.system} Today is Tuesday.`,
          messages: [
            ...request.messages,
            { role: "assistant", content: [{ type: "text", text: "(prefill)" }] },
          ],
          maxTokens: 77,
        };
      },
    });
    const result = await agent.prompt("hello");
    expect(result.subtype).toBe("success");
    const [first, second] = client.requests;
    expect(first!.system).toBe("You are careful. Today is Tuesday.");
    expect(first!.maxTokens).toBe(77);
    expect(first!.messages.map(messageText)).toEqual(["hello", "(prefill)"]);
    expect(second!.system).toBe("You are careful.");
    expect(second!.maxTokens).not.toBe(77);
    const history = await agent.getHistory();
    expect(history.map(messageText)).toEqual(["hello", "", "", "done"]);
    expect(second!.messages).toEqual(history.slice(0, 3));
  });

  it("returning nothing sends the request as the loop built it", async () => {
    const client = createScriptedClient([{ content: "ok" }]);
    const seen: ModelRequest[] = [];
    const agent = createAgent({
      model: "m",
      client,
      systemPrompt: "S",
      onModelRequest: (request) => {
        seen.push(request);
      },
    });
    await agent.prompt("hi");
    expect(seen).toHaveLength(1);
    expect(client.requests[0]!.system).toBe("S");
    expect(client.requests[0]!.messages).toEqual([{ role: "user", content: "hi" }]);
  });

  it("runs the option, then the hooks in registration order, each seeing the previous replacement", async () => {
    const client = createScriptedClient([{ content: "ok" }]);
    const order: string[] = [];
    const agent = createAgent({
      model: "m",
      client,
      systemPrompt: "base",
      onModelRequest: (request) => {
        order.push(`option saw ${request.system}`);
        return { ...request, system: `${request.system}+option` };
      },
      hooks: {
        onModelRequest: [
          {
            handler: ({ request }) => {
              order.push(`hook 1 saw ${request.system}`);
              return { request: { ...request, system: `${request.system}+hook1` } };
            },
          },
          {
            handler: async ({ request }) => {
              order.push(`hook 2 saw ${request.system}`);
            },
          },
          {
            handler: ({ request }) => {
              order.push(`hook 3 saw ${request.system}`);
              return { request: { ...request, system: `${request.system}+hook3`, model: "other-model" } };
            },
          },
        ],
      },
    });
    await agent.prompt("hi");
    expect(order).toEqual([
      "option saw base",
      "hook 1 saw base+option",
      "hook 2 saw base+option+hook1",
      "hook 3 saw base+option+hook1",
    ]);
    expect(client.requests[0]!.system).toBe("base+option+hook1+hook3");
    expect(client.requests[0]!.model).toBe("other-model");
  });

  it("a hook that edits the request in place never changes history", async () => {
    const { tools } = workshopTools();
    const toolCounts: number[] = [];
    const client = createScriptedClient([
      { content: [toolUse("c1", "read_file", { path: "a" })] },
      { content: "done" },
    ]);
    const agent = createAgent({
      model: "m",
      client,
      tools,
      hooks: {
        onModelRequest: [
          {
            handler: ({ request }) => {
              toolCounts.push(request.tools?.length ?? 0);
              const messages = request.messages as ModelMessage[];
              const first = messages[0]!;
              if (typeof first.content === "string") first.content = `${first.content} [redacted]`;
              for (const message of messages) {
                if (message.role === "user" && Array.isArray(message.content)) {
                  for (const block of message.content) {
                    if (block.type === "tool_result") block.content = "[elided]";
                  }
                }
                if (message.role === "assistant") message.content.push({ type: "text", text: "injected" });
              }
              messages.push({ role: "assistant", content: [{ type: "text", text: "pushed" }] });
              request.tools?.splice(0, request.tools.length);
            },
          },
        ],
      },
    });
    const result = await agent.prompt("secret");
    expect(result.subtype).toBe("success");
    // The client saw the edits ...
    expect(messageText(client.requests[1]!.messages[0])).toBe("secret [redacted]");
    expect(JSON.stringify(client.requests[1]!.messages)).toContain("[elided]");
    expect(client.requests[1]!.tools).toEqual([]);
    // ... history did not, and the next request was built from the untouched history.
    const history = await agent.getHistory();
    expect(history).toEqual([
      { role: "user", content: "secret" },
      expect.objectContaining({ role: "assistant", content: [toolUse("c1", "read_file", { path: "a" })] }),
      expect.objectContaining({
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "c1", content: "contents of a" }],
      }),
      expect.objectContaining({ role: "assistant", content: [{ type: "text", text: "done" }] }),
    ]);
    // The tool definitions the loop caches were not emptied either.
    expect(toolCounts).toEqual([3, 3]);
  });

  it("keeps the loop's signal and deadline even when the replacement drops them", async () => {
    const client = createScriptedClient([{ content: "late", hang: true }]);
    const agent = createAgent({
      model: "m",
      client,
      requestTimeoutMs: 30,
      retry: { maxRetries: 0 },
      onModelRequest: (request) => ({
        model: request.model,
        messages: request.messages,
        maxTokens: request.maxTokens,
        signal: new AbortController().signal,
      }),
    });
    const result = await agent.prompt("hi");
    expect(result.subtype).toBe("error_timeout");
    expect(result.error).toBeInstanceOf(TimeoutError);
    expect(client.requests[0]!.timeoutMs).toBe(30);
  });

  it("does not run for compaction's summary request", async () => {
    const { tools } = workshopTools();
    const systems: Array<string | undefined> = [];
    const client = createScriptedClient([
      {
        content: [toolUse("c1", "read_file", { path: "a" })],
        usage: { input_tokens: 5_000, output_tokens: 1 },
      },
      { content: "SUMMARY" },
      { content: "done" },
    ]);
    const agent = createAgent({
      model: "m",
      client,
      tools,
      systemPrompt: "main",
      autoCompact: { thresholdTokens: 1_000, keepRecentMessages: 2 },
      hooks: { onModelRequest: [{ handler: ({ request }) => void systems.push(String(request.system)) }] },
    });
    const messages = await collect(agent.query("go"));
    expect(resultOf(messages).subtype).toBe("success");
    expect(client.callCount).toBe(3);
    expect(systems).toEqual(["main", "main"]);
  });

  it("a throwing hook fails the query closed: hook_error, no request sent, history intact, the agent usable", async () => {
    const client = createScriptedClient([{ content: "later answer" }]);
    let fail = true;
    const agent = createAgent({
      model: "m",
      client,
      hooks: {
        onModelRequest: [
          { handler: () => undefined },
          {
            matcher: "*",
            handler: () => {
              if (fail) throw Object.assign(new Error("socket hang up"), { code: "ECONNRESET", status: 503 });
            },
          },
        ],
      },
    });
    const messages = await collect(agent.query("first"));
    const result = resultOf(messages);
    expect(result.subtype).toBe("error_during_execution");
    expect(result.error!.name).toBe("HookFailure");
    expect(result.error!.message).toBe("onModelRequest hook #2 (matcher *) failed: socket hang up");
    expect(hookErrors(messages)).toMatchObject([{ hook: "onModelRequest" }]);
    // Not mistaken for a transient provider failure: no retry, nothing sent.
    expect(messages.some((message) => message.type === "system" && message.subtype === "api_retry")).toBe(
      false,
    );
    expect(client.callCount).toBe(0);
    expect(await agent.getHistory()).toEqual([{ role: "user", content: "first" }]);

    fail = false;
    const next = await agent.prompt("second");
    expect(next.subtype).toBe("success");
    expect(next.result).toBe("later answer");
  });

  it("a throwing onModelRequest option fails the query the same way", async () => {
    const client = createScriptedClient([]);
    const agent = createAgent({
      model: "m",
      client,
      onModelRequest: () => {
        throw new Error("no cache config");
      },
    });
    const messages = await collect(agent.query("hi"));
    const result = resultOf(messages);
    expect(result.subtype).toBe("error_during_execution");
    expect(result.error!.message).toBe("onModelRequest option hook #1 failed: no cache config");
    expect(hookErrors(messages)).toHaveLength(1);
    expect(client.callCount).toBe(0);
  });

  it("a hook past its timeoutMs fails the query without sending the request", async () => {
    const client = createScriptedClient([]);
    const agent = createAgent({
      model: "m",
      client,
      hooks: { onModelRequest: [{ timeoutMs: 20, handler: () => never() }] },
    });
    const messages = await collect(agent.query("hi"));
    const result = resultOf(messages);
    expect(result.subtype).toBe("error_during_execution");
    expect(result.error!.message).toBe("onModelRequest hook #1 failed: timed out after 20 ms");
    expect(client.callCount).toBe(0);
  });

  it("a hook still running at the request deadline ends the query error_timeout", async () => {
    const client = createScriptedClient([]);
    const agent = createAgent({
      model: "m",
      client,
      requestTimeoutMs: 20,
      retry: { maxRetries: 0 },
      hooks: { onModelRequest: [{ handler: () => never() }] },
    });
    const result = await agent.prompt("hi");
    expect(result.subtype).toBe("error_timeout");
    expect(client.callCount).toBe(0);
  });

  it("an interrupt while a hook runs ends the query interrupted", async () => {
    const client = createScriptedClient([]);
    let entered!: () => void;
    const inHook = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const agent = createAgent({
      model: "m",
      client,
      hooks: {
        onModelRequest: [
          {
            handler: () => {
              entered();
              return never();
            },
          },
        ],
      },
    });
    const pending = agent.prompt("hi");
    await inHook;
    agent.interrupt();
    const result = await pending;
    expect(result.subtype).toBe("interrupted");
    expect(client.callCount).toBe(0);
  });
});
