/**
 * What a query that does not succeed reports: `result` is the partial text so far — the latest text
 * it produced, including what a response cut off mid-stream had shown — and `usage` / cost count
 * what that cut-off response had reported (the provider bills it). Through a client that streams
 * through `onEvent`, and through the built-in client against the mock server over HTTP.
 */
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  type AssistantModelMessage,
  createAgent,
  createAnthropicClient,
  defineTool,
  type ModelRequest,
  type SDKMessage,
} from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { mockServerPerTest } from "../support/mock-server";
import { collect, expectWellFormed, lastResult, MODEL, toolUse } from "./support";

const lookup = defineTool({
  name: "lookup",
  readOnly: true,
  inputSchema: z.object({}),
  execute: () => "found",
});

/** `claude-sonnet-4-6`: $3 per million input tokens, $15 per million output tokens. */
const costOf = (input: number, output: number) => (input * 3 + output * 15) / 1_000_000;

describe("the partial text of a query that ends without success", () => {
  it("error_max_budget_usd after a tool-only response keeps the text an earlier turn produced", async () => {
    const client = createScriptedClient([
      {
        content: [{ type: "text", text: "Found 3 bugs: A, B and C. Fixing A now." }, toolUse("t1", "lookup")],
        usage: { input_tokens: 1_000, output_tokens: 100 },
      },
      { content: [toolUse("t2", "lookup")], usage: { input_tokens: 4_000, output_tokens: 100 } },
    ]);
    const agent = createAgent({ model: MODEL, client, tools: [lookup], maxBudgetUsd: 0.01 });

    const result = await agent.prompt("Fix the bugs");

    expect(result.subtype).toBe("error_max_budget_usd");
    expect(result.result).toBe("Found 3 bugs: A, B and C. Fixing A now.");
  });

  it("error_max_turns after a tool-only response keeps the latest text too", async () => {
    const client = createScriptedClient([
      { content: [{ type: "text", text: "Step one." }, toolUse("t1", "lookup")] },
      { content: [{ type: "text", text: "Step two." }, toolUse("t2", "lookup")] },
      { content: [toolUse("t3", "lookup")] },
    ]);
    const agent = createAgent({ model: MODEL, client, tools: [lookup], maxTurns: 3 });

    const result = await agent.prompt("Go");

    expect(result.subtype).toBe("error_max_turns");
    expect(result.result).toBe("Step two.");
  });

  it("success still reports the last response's text, even when it is blank", async () => {
    const client = createScriptedClient([
      { content: [{ type: "text", text: "Looking." }, toolUse("t1", "lookup")] },
      { content: [] },
    ]);
    const agent = createAgent({ model: MODEL, client, tools: [lookup] });

    const result = await agent.prompt("Go");

    expect(result.subtype).toBe("success");
    expect(result.result).toBe("");
  });
});

/**
 * A client that streams the start of an answer through `onEvent` — `message_start` reporting
 * 5,000 input tokens, then "The answer has " — and then waits until the request is cancelled.
 */
function clientCutOffMidStream(streamed: { reached: Promise<void> }) {
  let reached!: () => void;
  streamed.reached = new Promise<void>((resolve) => {
    reached = resolve;
  });
  return {
    async createMessage(request: ModelRequest): Promise<AssistantModelMessage> {
      request.onEvent?.({
        type: "message_start",
        message: { id: "msg_cut", model: request.model, usage: { input_tokens: 5_000, output_tokens: 1 } },
      });
      request.onEvent?.({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } });
      request.onEvent?.({
        type: "content_block_delta",
        index: 0,
        delta: { type: "text_delta", text: "The answer " },
      });
      request.onEvent?.({
        type: "content_block_delta",
        index: 0,
        delta: { type: "text_delta", text: "has " },
      });
      request.onEvent?.({ type: "message_delta", delta: {}, usage: { output_tokens: 4 } });
      reached();
      await new Promise((_, reject) => {
        request.signal.addEventListener("abort", () => reject(request.signal.reason), { once: true });
      });
      throw new Error("unreachable");
    },
  };
}

describe("a response cut off while streaming (any client that calls onEvent)", () => {
  it("interrupt(): the result holds its text so far, and its reported usage and cost are counted", async () => {
    const streamed = { reached: Promise.resolve() };
    const agent = createAgent({ model: MODEL, client: clientCutOffMidStream(streamed) });

    const pending = agent.prompt("Explain");
    await streamed.reached;
    agent.interrupt();
    const result = await pending;

    expect(result.subtype).toBe("interrupted");
    expect(result.result).toBe("The answer has ");
    expect(result.usage).toMatchObject({ input_tokens: 5_000, output_tokens: 4 });
    expect(result.total_cost_usd).toBeCloseTo(costOf(5_000, 4), 12);
    expect(result.model_usage[MODEL]).toMatchObject({ input_tokens: 5_000, output_tokens: 4 });
    expect(result.num_turns).toBe(1);
    // The unfinished response never enters history.
    expect(await agent.getHistory()).toEqual([{ role: "user", content: "Explain" }]);
  });

  it("an aborted signal: error_abort with the same partial text and usage", async () => {
    const streamed = { reached: Promise.resolve() };
    const agent = createAgent({ model: MODEL, client: clientCutOffMidStream(streamed) });
    const controller = new AbortController();

    const pending = agent.prompt("Explain", { signal: controller.signal });
    await streamed.reached;
    controller.abort(new Error("user left"));
    const result = await pending;

    expect(result.subtype).toBe("error_abort");
    expect(result.result).toBe("The answer has ");
    expect(result.usage.input_tokens).toBe(5_000);
    expect(result.total_cost_usd).toBeGreaterThan(0);
  });

  it("a cut-off summary request of compaction is counted as well, without becoming the result text", async () => {
    const streamed = { reached: Promise.resolve() };
    const cutOff = clientCutOffMidStream(streamed);
    const scripted = createScriptedClient([
      {
        content: [{ type: "text", text: "Reading." }, toolUse("t1", "lookup")],
        usage: { input_tokens: 200_000, output_tokens: 10 },
      },
    ]);
    let calls = 0;
    const client = {
      createMessage: (request: ModelRequest) =>
        calls++ === 0 ? scripted.createMessage(request) : cutOff.createMessage(request),
    };
    const agent = createAgent({
      model: MODEL,
      client,
      tools: [lookup],
      autoCompact: { keepRecentMessages: 1 },
    });

    const pending = collect(agent.query("Go"));
    await streamed.reached;
    agent.interrupt();
    const messages = await pending;
    const result = lastResult(messages);

    expect(result.subtype).toBe("interrupted");
    expect(result.result).toBe("Reading.");
    expect(result.usage).toMatchObject({ input_tokens: 205_000, output_tokens: 14 });
    expect(messages.some((message) => message.type === "system" && message.subtype === "compaction")).toBe(
      false,
    );
    expectWellFormed(await agent.getHistory());
  });
});

describe("the model a cut-off response is booked under", () => {
  it("is the model an onModelRequest hook routed the request to", async () => {
    let reached!: () => void;
    const streamed = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const client = {
      async createMessage(request: ModelRequest): Promise<AssistantModelMessage> {
        // No model in message_start: the request's model is all there is to go by.
        request.onEvent?.({
          type: "message_start",
          message: { usage: { input_tokens: 1_000, output_tokens: 1 } },
        });
        reached();
        await new Promise((_, reject) => {
          request.signal.addEventListener("abort", () => reject(request.signal.reason), { once: true });
        });
        throw new Error("unreachable");
      },
    };
    const agent = createAgent({
      model: "claude-opus-4-5",
      client,
      onModelRequest: (request) => ({ ...request, model: MODEL }),
    });

    const pending = agent.prompt("Explain");
    await streamed;
    agent.interrupt();
    const result = await pending;

    expect(Object.keys(result.model_usage)).toEqual([MODEL]);
    expect(result.total_cost_usd).toBeCloseTo(costOf(1_000, 1), 12);
  });
});

describe("built-in client over HTTP (streaming): a response cut off mid-stream", () => {
  const server = mockServerPerTest();

  const client = () => createAnthropicClient({ apiKey: "sk-ant-test-partial", baseURL: server.url });
  const answer = {
    content: "The answer has several parts, and this is the first of them.",
    usage: { input_tokens: 5_000, output_tokens: 40 },
  };

  it("a request deadline: error_timeout with the text streamed so far and the input tokens reported", async () => {
    // message_start, ping, content_block_start, then two text deltas; then nothing more.
    server.enqueue({ fault: "hang", afterEvents: 5, response: answer });
    // The deadline's clock is a fake one, moved past it only once the text has streamed: a slow
    // machine can delay the deltas but cannot make the deadline come first.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const agent = createAgent({
      model: MODEL,
      client: client(),
      requestTimeoutMs: 300,
      includePartialMessages: true,
    });

    let deltas = 0;
    const messages: SDKMessage[] = [];
    try {
      for await (const message of agent.query("Explain")) {
        messages.push(message);
        if (message.type === "stream_event" && message.event.type === "content_block_delta") {
          deltas += 1;
          if (deltas === 2) vi.advanceTimersByTime(300);
        }
      }
    } finally {
      vi.useRealTimers();
    }
    const result = messages.at(-1) as Extract<SDKMessage, { type: "result" }>;

    expect(deltas).toBe(2);
    expect(result.subtype).toBe("error_timeout");
    expect(result.result).not.toBe("");
    expect(answer.content.startsWith(result.result)).toBe(true);
    expect(result.usage.input_tokens).toBe(5_000);
    expect(result.total_cost_usd).toBeGreaterThan(costOf(5_000, 0) - 1e-12);
    expect(await agent.getHistory()).toEqual([{ role: "user", content: "Explain" }]);
  });

  it("interrupt() once text has streamed: interrupted with that text", async () => {
    server.enqueue({ fault: "hang", afterEvents: 5, response: answer });
    const agent = createAgent({ model: MODEL, client: client(), includePartialMessages: true });

    let result: SDKMessage | undefined;
    let deltas = 0;
    for await (const message of agent.query("Explain")) {
      if (message.type === "stream_event" && message.event.type === "content_block_delta") {
        deltas += 1;
        if (deltas === 2) agent.interrupt();
      }
      result = message;
    }

    expect(result).toMatchObject({ type: "result", subtype: "interrupted" });
    const ended = result as Extract<SDKMessage, { type: "result" }>;
    expect(ended.result).not.toBe("");
    expect(answer.content.startsWith(ended.result)).toBe(true);
    expect(ended.usage.input_tokens).toBe(5_000);
  });

  it("a stream dropped and then retried: only the response that completed is counted", async () => {
    server.enqueue(
      { fault: "drop", afterEvents: 2, response: answer },
      { content: "Complete answer.", usage: { input_tokens: 5_000, output_tokens: 3 } },
    );
    const agent = createAgent({
      model: MODEL,
      client: client(),
      retry: { maxRetries: 1, initialDelayMs: 1, maxDelayMs: 1 },
    });

    const result = await agent.prompt("Explain");

    expect(server.requests).toHaveLength(2);
    expect(result.subtype).toBe("success");
    expect(result.result).toBe("Complete answer.");
    expect(result.usage).toMatchObject({ input_tokens: 5_000, output_tokens: 3 });
  });
});

describe("stop_reason of a query ended by an overflow response", () => {
  it("is the overflow response's stop reason when it cannot be recovered", async () => {
    const client = createScriptedClient([
      {
        content: [],
        stop_reason: "model_context_window_exceeded",
        usage: { input_tokens: 10, output_tokens: 0 },
      },
    ]);
    const agent = createAgent({ model: MODEL, client });

    const result = await agent.prompt("Hello");

    expect(result.subtype).toBe("error_during_execution");
    expect(result.stop_reason).toBe("model_context_window_exceeded");
  });
});
