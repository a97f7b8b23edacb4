/**
 * What `query()`, `prompt()` and `streamInput()` yield, in which order, and when: messages are
 * produced as the consumer pulls them, and leaving the generator early ends the query cleanly.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createAgent,
  defineHistoryStore,
  defineTool,
  InvalidOptionError,
  isWellFormedHistory,
  type SDKMessage,
} from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { collect, expectWellFormed, kinds, lastResult, MODEL, toolUse } from "../loop/support";

function echoTool(calls: string[] = []) {
  return defineTool({
    name: "echo",
    description: "Echo the text back",
    inputSchema: z.object({ text: z.string() }),
    execute: ({ text }) => {
      calls.push(text);
      return `echo: ${text}`;
    },
  });
}

describe("query() message sequence", () => {
  it("yields system/init, assistant, user tool results, assistant, then the result last", async () => {
    const client = createScriptedClient([
      { content: [{ type: "text", text: "Let me echo." }, toolUse("t1", "echo", { text: "hi" })] },
      { content: "Done: hi" },
    ]);
    const agent = createAgent({ model: MODEL, client, tools: [echoTool()] });

    const messages = await collect(agent.query("Echo hi"));

    expect(kinds(messages)).toEqual(["system:init", "assistant", "user", "assistant", "result:success"]);
    expect(messages[0]).toEqual({ type: "system", subtype: "init", model: MODEL, tools: ["echo"] });
    const toolTurn = messages[2] as Extract<SDKMessage, { type: "user" }>;
    expect(toolTurn.message.content).toEqual([
      { type: "tool_result", tool_use_id: "t1", content: "echo: hi" },
    ]);
    const result = lastResult(messages);
    expect(result.result).toBe("Done: hi");
    expect(result.is_error).toBe(false);
  });

  it("yields system/init first even when a store failure is reported at the start of the query", async () => {
    let loads = 0;
    const store = defineHistoryStore({
      load: async () => {
        loads += 1;
        throw new Error("disk unavailable");
      },
      append: async () => {},
      replace: async () => {},
    });
    const client = createScriptedClient([{ content: "Hi" }]);
    const agent = createAgent({ model: MODEL, client, historyStore: store });

    const messages = await collect(agent.query("Hello"));

    expect(loads).toBe(1);
    expect(kinds(messages)).toEqual(["system:init", "system:store_error", "assistant", "result:success"]);
  });

  it("yields no stream_event without includePartialMessages", async () => {
    const client = createScriptedClient([{ content: "Hello there" }]);
    const agent = createAgent({ model: MODEL, client });

    const messages = await collect(agent.query("Hi"));

    expect(messages.some((message) => message.type === "stream_event")).toBe(false);
    // Still given: the loop follows the stream to keep a cut-off response's text and usage.
    expect(client.requests[0]?.onEvent).toBeTypeOf("function");
  });

  it("yields stream_event messages before their assistant message with includePartialMessages", async () => {
    const client = createScriptedClient([
      { content: [toolUse("t1", "echo", { text: "a" })] },
      { content: "Hello there" },
    ]);
    const agent = createAgent({
      model: MODEL,
      client,
      tools: [echoTool()],
      includePartialMessages: true,
    });

    const messages = await collect(agent.query("Hi"));

    const sequence = kinds(messages);
    const firstAssistant = sequence.indexOf("assistant");
    expect(sequence.slice(1, firstAssistant).every((kind) => kind === "stream_event")).toBe(true);
    expect(firstAssistant).toBeGreaterThan(1);
    const events = messages.flatMap((message) => (message.type === "stream_event" ? [message.event] : []));
    expect(events.map((event) => event.type)).toContain("message_start");
    expect(events).toContainEqual(
      expect.objectContaining({ delta: { type: "input_json_delta", partial_json: '{"text":"a"}' } }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({ delta: { type: "text_delta", text: "Hello there" } }),
    );
    expect(sequence[sequence.length - 1]).toBe("result:success");
  });

  it("produces each message only when the consumer pulls it", async () => {
    const executed: string[] = [];
    const client = createScriptedClient([
      { content: [toolUse("t1", "echo", { text: "x" })] },
      { content: "done" },
    ]);
    const agent = createAgent({ model: MODEL, client, tools: [echoTool(executed)] });
    const messages = agent.query("go");

    expect((await messages.next()).value).toMatchObject({ type: "system", subtype: "init" });
    expect(client.callCount).toBe(0);

    expect((await messages.next()).value).toMatchObject({ type: "assistant" });
    expect(client.callCount).toBe(1);
    expect(executed).toEqual([]);

    expect((await messages.next()).value).toMatchObject({ type: "user" });
    expect(executed).toEqual(["x"]);
    expect(client.callCount).toBe(1);

    expect((await messages.next()).value).toMatchObject({ type: "assistant" });
    expect(client.callCount).toBe(2);
    expect((await messages.next()).value).toMatchObject({ type: "result", subtype: "success" });
    expect((await messages.next()).done).toBe(true);
  });
});

describe("leaving query() early", () => {
  it("break after a tool call releases the guard, runs no tool and leaves history well-formed", async () => {
    const executed: string[] = [];
    const client = createScriptedClient([{ content: [toolUse("t1", "echo", { text: "never" })] }]);
    const agent = createAgent({ model: MODEL, client, tools: [echoTool(executed)] });

    for await (const message of agent.query("go")) {
      if (message.type === "assistant") break;
    }

    expect(executed).toEqual([]);
    const history = await agent.getHistory();
    expectWellFormed(history);
    expect(history).toHaveLength(3);
    expect(history[2]).toMatchObject({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "t1", is_error: true }],
    });

    client.push({ content: "second answer" });
    const result = await agent.prompt("again");
    expect(result.subtype).toBe("success");
    expect(result.result).toBe("second answer");
    expect(client.requests[1]?.messages).toHaveLength(4);
  });

  it("break on a partial stream event drops the unfinished turn and stops the model request", async () => {
    let requestSignal: AbortSignal | undefined;
    const client = createScriptedClient([
      (request) => {
        requestSignal = request.signal;
        request.onEvent?.({ type: "message_start", message: {} });
        return { content: "late answer", delayMs: 5_000 };
      },
    ]);
    const agent = createAgent({ model: MODEL, client, includePartialMessages: true });

    for await (const message of agent.query("go")) {
      if (message.type === "stream_event") break;
    }

    expect(requestSignal?.aborted).toBe(true);
    const history = await agent.getHistory();
    expect(history).toEqual([{ role: "user", content: "go" }]);
    expect(isWellFormedHistory(history)).toBe(true);
    client.push({ content: "ok" });
    expect((await agent.prompt("again")).subtype).toBe("success");
  });

  it("return() on a query that was never pulled does not hold the guard", async () => {
    const client = createScriptedClient([{ content: "ok" }]);
    const agent = createAgent({ model: MODEL, client });
    const unused = agent.query("ignored");
    await unused.return();

    expect((await agent.prompt("used")).subtype).toBe("success");
    expect(client.callCount).toBe(1);
  });
});

describe("prompt()", () => {
  it("resolves with the same result query() would yield last", async () => {
    const client = createScriptedClient([
      { content: [toolUse("t1", "echo", { text: "p" })], usage: { input_tokens: 3, output_tokens: 2 } },
      { content: "prompt done", usage: { input_tokens: 5, output_tokens: 1 } },
    ]);
    const agent = createAgent({ model: MODEL, client, tools: [echoTool()] });

    const result = await agent.prompt("Echo p");

    expect(result).toMatchObject({
      type: "result",
      subtype: "success",
      is_error: false,
      result: "prompt done",
      num_turns: 2,
      stop_reason: "end_turn",
    });
    expect(result.usage).toMatchObject({ input_tokens: 8, output_tokens: 3 });
  });

  it("continues the same conversation across calls", async () => {
    const client = createScriptedClient([{ content: "Noted." }, { content: "An SDK." }]);
    const agent = createAgent({ model: MODEL, client });

    await agent.prompt("Remember that my project is an SDK.");
    const result = await agent.prompt("What kind of project is this?");

    expect(result.result).toBe("An SDK.");
    expect(client.requests[1]?.messages).toEqual([
      { role: "user", content: "Remember that my project is an SDK." },
      expect.objectContaining({ role: "assistant", content: [{ type: "text", text: "Noted." }] }),
      { role: "user", content: "What kind of project is this?" },
    ]);
  });

  it("accepts content blocks as the prompt", async () => {
    const client = createScriptedClient([{ content: "seen" }]);
    const agent = createAgent({ model: MODEL, client });

    await agent.prompt([{ type: "text", text: "block prompt" }]);

    expect(client.requests[0]?.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "block prompt" }] },
    ]);
  });
});

describe("streamInput()", () => {
  it("runs each element as a full cycle, in order, with one result each", async () => {
    const client = createScriptedClient([
      { content: [toolUse("t1", "echo", { text: "one" })] },
      { content: "first done" },
      { content: "second done" },
    ]);
    const agent = createAgent({ model: MODEL, client, tools: [echoTool()] });
    const pulledAt: number[] = [];
    async function* inputs() {
      pulledAt.push(client.callCount);
      yield "first";
      pulledAt.push(client.callCount);
      yield [{ type: "text" as const, text: "second" }];
      pulledAt.push(client.callCount);
    }

    const messages = await collect(agent.streamInput(inputs()));

    expect(kinds(messages)).toEqual([
      "system:init",
      "assistant",
      "user",
      "assistant",
      "result:success",
      "system:init",
      "assistant",
      "result:success",
    ]);
    const results = messages.filter((message) => message.type === "result");
    expect(results.map((result) => result.result)).toEqual(["first done", "second done"]);
    expect(results.map((result) => result.num_turns)).toEqual([2, 1]);
    // The second input is read only after the first cycle finished.
    expect(pulledAt).toEqual([0, 2, 3]);
    expect(client.requests[2]?.messages).toHaveLength(5);
    expect(client.requests[2]?.messages[4]).toEqual({
      role: "user",
      content: [{ type: "text", text: "second" }],
    });
  });

  it("accepts a plain iterable", async () => {
    const client = createScriptedClient([{ content: "a" }, { content: "b" }]);
    const agent = createAgent({ model: MODEL, client });

    const messages = await collect(agent.streamInput(["x", "y"]));

    expect(messages.filter((message) => message.type === "result")).toHaveLength(2);
  });

  it("refuses inputs that are not an iterable of prompts (a bare string too) without holding the guard", async () => {
    const controller = new AbortController();
    const client = createScriptedClient([{ content: "after" }]);
    const agent = createAgent({ model: MODEL, client });
    const throwing = {
      [Symbol.iterator]() {
        throw new Error("no iterator today");
      },
    };

    for (const inputs of ["hello", 42, undefined, throwing]) {
      const stream = agent.streamInput(inputs as never, { signal: controller.signal });
      const failure = await stream.next().catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(Error);
      expect((failure as Error).name).not.toBe("ConcurrentQueryError");
    }
    const refusal = await agent
      .streamInput("hello" as never)
      .next()
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(InvalidOptionError);
    expect((refusal as Error).message).toMatch(/streamInput\(\) takes an iterable of prompts/);

    expect((await agent.prompt("go")).result).toBe("after");
    expect(client.callCount).toBe(1);
  });

  it("a prompt that is not a non-blank string or a non-empty array of content blocks is refused with InvalidOptionError", async () => {
    const client = createScriptedClient([{ content: "after" }]);
    const agent = createAgent({ model: MODEL, client });

    for (const prompt of [undefined, null, 42, { text: "hi" }, "", "  \n", []]) {
      await expect(agent.prompt(prompt as never)).rejects.toBeInstanceOf(InvalidOptionError);
      await expect(agent.query(prompt as never).next()).rejects.toBeInstanceOf(InvalidOptionError);
    }
    const streamed = collect(agent.streamInput(["fine", 7 as never]));
    await expect(streamed).rejects.toBeInstanceOf(InvalidOptionError);

    expect(await agent.getHistory()).toEqual([
      { role: "user", content: "fine" },
      expect.objectContaining({ role: "assistant" }),
    ]);
    expect(client.callCount).toBe(1);
  });

  it("holds the guard between inputs and releases it at the end", async () => {
    const client = createScriptedClient([{ content: "a" }, { content: "b" }, { content: "c" }]);
    const agent = createAgent({ model: MODEL, client });
    const attempts: unknown[] = [];
    async function* inputs() {
      yield "x";
      attempts.push(await agent.prompt("meanwhile").catch((error: unknown) => error));
      yield "y";
    }

    await collect(agent.streamInput(inputs()));

    expect(attempts).toHaveLength(1);
    expect((attempts[0] as Error).name).toBe("ConcurrentQueryError");
    expect((await agent.prompt("after")).result).toBe("c");
  });

  it("an abort ends the current cycle with error_abort and runs no later input", async () => {
    const client = createScriptedClient([
      { content: "a" },
      { content: "stalled", hang: true },
      { content: "c" },
    ]);
    const agent = createAgent({ model: MODEL, client });
    const controller = new AbortController();

    const results: string[] = [];
    for await (const message of agent.streamInput(["x", "y", "z"], { signal: controller.signal })) {
      if (message.type === "result") results.push(message.subtype);
      if (message.type === "result" && results.length === 1)
        void client.waitForRequest(2).then(() => controller.abort());
    }

    expect(results).toEqual(["success", "error_abort"]);
    expect(client.callCount).toBe(2);
    expect(await agent.getHistory()).toEqual([
      { role: "user", content: "x" },
      expect.objectContaining({ role: "assistant" }),
      { role: "user", content: "y" },
    ]);
    expect((await agent.prompt("after")).result).toBe("c");
  });

  it("break between inputs stops reading inputs and releases the guard", async () => {
    const client = createScriptedClient([{ content: "a" }, { content: "b" }]);
    const agent = createAgent({ model: MODEL, client });
    let pulled = 0;
    async function* inputs() {
      for (const text of ["x", "y", "z"]) {
        pulled += 1;
        yield text;
      }
    }

    for await (const message of agent.streamInput(inputs())) {
      if (message.type === "result") break;
    }

    expect(pulled).toBe(1);
    expect((await agent.prompt("after")).result).toBe("b");
  });
});
