/**
 * Recovering from an overflow that already happened: a `model_context_window_exceeded` stop or a
 * prompt-too-long API error compacts and retries the same turn, once per query; when summarising
 * fails or nothing is left to summarise, the original failure surfaces unchanged. `max_tokens` is
 * not an overflow.
 */
import { describe, expect, it } from "vitest";
import { ContextWindowExceededError, createAgent, ProviderError, TimeoutError } from "../../src/index";
import type { ScriptedResponse } from "../../src/testing/index";
import {
  answer,
  fetchTool,
  fetchTurn,
  messageText,
  recordingJsonlStore,
  reloadJsonl,
  routedClient,
  SUMMARY_USAGE,
  systemMessages,
} from "./compaction-support";
import { collect, expectWellFormed, kinds, lastResult, MODEL } from "./support";

/** A response the window ran out in the middle of. */
const EXCEEDED: ScriptedResponse = {
  content: "half an answ",
  stop_reason: "model_context_window_exceeded",
  usage: { input_tokens: 199_000, output_tokens: 7 },
};

/** The error an Anthropic-style API throws for a prompt over the window. */
function promptTooLong(): Error {
  return Object.assign(new Error("400 prompt is too long: 210000 tokens > 200000 maximum"), {
    status: 400,
    error: {
      type: "error",
      error: { type: "invalid_request_error", message: "prompt is too long: 210000 tokens > 200000 maximum" },
    },
  });
}

/** Overflow recovery needs autoCompact; a threshold no response reaches keeps the auto trigger out of the way. */
const autoCompact = { thresholdTokens: 10_000_000, keepRecentMessages: 2 };

describe("overflow recovery: model_context_window_exceeded", () => {
  it("with includePartialMessages, the discarded response's deltas were already yielded; its assistant message never is", async () => {
    const routed = routedClient({ main: [fetchTurn("t1", 100), EXCEEDED, answer("done")] });
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      tools: [fetchTool],
      autoCompact,
      includePartialMessages: true,
    });

    const messages = await collect(agent.query("Go."));

    expect(lastResult(messages).subtype).toBe("success");
    const streamed = JSON.stringify(messages.filter((message) => message.type === "stream_event"));
    expect(streamed).toContain("half an answ"); // as the docs say: render assistant messages to match history
    const assistants = JSON.stringify(messages.filter((message) => message.type === "assistant"));
    expect(assistants).not.toContain("half an answ");
  });

  it("discards the response, compacts and retries the same turn", async () => {
    const routed = routedClient({ main: [fetchTurn("t1", 100), EXCEEDED, answer("done")] });
    const store = recordingJsonlStore();
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      tools: [fetchTool],
      historyStore: store,
      autoCompact,
    });

    const messages = await collect(agent.query("Go."));

    const result = lastResult(messages);
    expect(result.subtype).toBe("success");
    expect(result.result).toBe("done");
    expect(kinds(messages)).toEqual([
      "system:init",
      "assistant",
      "user",
      "system:compaction",
      "assistant",
      "result:success",
    ]);
    expect(systemMessages(messages, "compaction")[0]).toMatchObject({
      trigger: "overflow",
      compacted_messages: 1,
    });
    // The unusable response was never yielded nor stored.
    const history = await agent.getHistory();
    expect(JSON.stringify(messages.filter((message) => message.type !== "result"))).not.toContain(
      "half an answ",
    );
    expect(JSON.stringify(history)).not.toContain("half an answ");
    expect(await reloadJsonl(store.path)).toEqual(history);
    // The retried turn is the same request, over the rebuilt history: summary + the kept tail.
    const [, overflowed, retried] = routed.main();
    expect(messageText(retried!.messages[0])).toContain("SUMMARY-1");
    expect(retried!.messages.slice(1)).toEqual(overflowed!.messages.slice(1));
    expect(retried!.tools).toEqual(overflowed!.tools);
    expectWellFormed(history);
  });

  it("counts the discarded response's tokens and the compaction's, but the retried turn only once", async () => {
    const routed = routedClient({ main: [fetchTurn("t1", 100), EXCEEDED, answer("done", 300)] });
    const agent = createAgent({ model: MODEL, client: routed.client, tools: [fetchTool], autoCompact });

    const result = await agent.prompt("Go.");

    expect(result.usage).toMatchObject({
      input_tokens: 100 + 199_000 + SUMMARY_USAGE.input_tokens + 300,
      output_tokens: 10 + 7 + SUMMARY_USAGE.output_tokens + 5,
    });
    expect(result.num_turns).toBe(2);
    expect(result.total_cost_usd).toBeGreaterThan(0);
  });

  it("fails with ContextWindowExceededError when autoCompact is off, the response still discarded", async () => {
    const routed = routedClient({ main: [fetchTurn("t1", 100), EXCEEDED] });
    const agent = createAgent({ model: MODEL, client: routed.client, tools: [fetchTool] });

    const messages = await collect(agent.query("Go."));

    const result = lastResult(messages);
    expect(result.subtype).toBe("error_during_execution");
    expect(result.is_error).toBe(true);
    expect(result.error).toBeInstanceOf(ContextWindowExceededError);
    expect(routed.compactions()).toHaveLength(0);
    expect(JSON.stringify(await agent.getHistory())).not.toContain("half an answ");
  });

  it("surfaces the original failure when nothing is left to summarise (no model call)", async () => {
    const routed = routedClient({ main: [EXCEEDED] });
    const agent = createAgent({ model: MODEL, client: routed.client, autoCompact: true });

    const messages = await collect(agent.query("A huge first prompt."));

    const result = lastResult(messages);
    expect(result.subtype).toBe("error_during_execution");
    expect(result.error).toBeInstanceOf(ContextWindowExceededError);
    expect(routed.client.callCount).toBe(1);
    expect(systemMessages(messages, "compaction_failed")).toEqual([]);
    expect(await agent.getHistory()).toEqual([{ role: "user", content: "A huge first prompt." }]);
  });

  it("surfaces the original failure, not the summariser's, when summarising fails", async () => {
    const summariserError = new Error("summariser exploded");
    const routed = routedClient({ main: [fetchTurn("t1", 100), EXCEEDED], compaction: [summariserError] });
    const agent = createAgent({ model: MODEL, client: routed.client, tools: [fetchTool], autoCompact });

    const messages = await collect(agent.query("Go."));

    const result = lastResult(messages);
    expect(result.subtype).toBe("error_during_execution");
    expect(result.error).toBeInstanceOf(ContextWindowExceededError);
    const failures = systemMessages(messages, "compaction_failed");
    expect(failures).toHaveLength(1);
    expect(failures[0]!.error.message).toContain("summariser exploded");
    expect(await agent.getHistory()).toHaveLength(3); // untouched: [U0, A1, U2]
  });

  it("surfaces the original failure when the summary itself does not fit or has no text", async () => {
    for (const badSummary of [
      { content: "partial summ", stop_reason: "model_context_window_exceeded" as const },
      { content: [] },
    ]) {
      const routed = routedClient({ main: [fetchTurn("t1", 100), EXCEEDED], compaction: [badSummary] });
      const agent = createAgent({ model: MODEL, client: routed.client, tools: [fetchTool], autoCompact });

      const messages = await collect(agent.query("Go."));

      expect(lastResult(messages).error).toBeInstanceOf(ContextWindowExceededError);
      expect(systemMessages(messages, "compaction_failed")).toHaveLength(1);
      expect(await agent.getHistory()).toHaveLength(3);
    }
  });

  it("recovers once per query: a second overflow in the same query fails; the next query may recover again", async () => {
    const routed = routedClient({
      main: [
        fetchTurn("t1", 100),
        EXCEEDED,
        fetchTurn("t2", 100),
        EXCEEDED,
        fetchTurn("t3", 100),
        EXCEEDED,
        answer("done"),
      ],
    });
    const agent = createAgent({ model: MODEL, client: routed.client, tools: [fetchTool], autoCompact });

    const first = await collect(agent.query("Go."));

    expect(lastResult(first).subtype).toBe("error_during_execution");
    expect(lastResult(first).error).toBeInstanceOf(ContextWindowExceededError);
    expect(systemMessages(first, "compaction")).toHaveLength(1);
    expect(routed.compactions()).toHaveLength(1);
    expectWellFormed(await agent.getHistory());

    const second = await collect(agent.query("Try again."));

    expect(lastResult(second).subtype).toBe("success");
    expect(systemMessages(second, "compaction")).toHaveLength(1);
    expect(routed.compactions()).toHaveLength(2);
  });

  it("a preCompact hook that skips leaves the original failure standing", async () => {
    const routed = routedClient({ main: [fetchTurn("t1", 100), EXCEEDED] });
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      tools: [fetchTool],
      autoCompact,
      hooks: { preCompact: [{ handler: () => ({ skip: true }) }] },
    });

    const result = await agent.prompt("Go.");

    expect(result.error).toBeInstanceOf(ContextWindowExceededError);
    expect(routed.compactions()).toHaveLength(0);
  });

  it("a summary past its deadline leaves the original failure standing", async () => {
    const routed = routedClient({
      main: [fetchTurn("t1", 100), EXCEEDED],
      compaction: [{ content: "never", hang: true }],
    });
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      tools: [fetchTool],
      autoCompact,
      requestTimeoutMs: 50,
    });

    const messages = await collect(agent.query("Go."));

    expect(lastResult(messages).subtype).toBe("error_during_execution");
    expect(lastResult(messages).error).toBeInstanceOf(ContextWindowExceededError);
    expect(systemMessages(messages, "compaction_failed")[0]!.error).toBeInstanceOf(TimeoutError);
  });
});

describe("overflow recovery: a prompt-too-long API error", () => {
  it("compacts and retries the same turn", async () => {
    const routed = routedClient({ main: [fetchTurn("t1", 100), promptTooLong(), answer("done")] });
    const agent = createAgent({ model: MODEL, client: routed.client, tools: [fetchTool], autoCompact });

    const messages = await collect(agent.query("Go."));

    expect(lastResult(messages).subtype).toBe("success");
    expect(kinds(messages)).toEqual([
      "system:init",
      "assistant",
      "user",
      "system:compaction",
      "assistant",
      "result:success",
    ]);
    expect(systemMessages(messages, "compaction")[0]!.trigger).toBe("overflow");
    expect(systemMessages(messages, "api_retry")).toEqual([]); // a 400 is not retried as is
    const [, rejected, retried] = routed.main();
    expect(retried!.messages.slice(1)).toEqual(rejected!.messages.slice(1));
    expect(lastResult(messages).num_turns).toBe(2);
  });

  it.each([
    [
      "DeepSeek / OpenAI style",
      {
        status: 400,
        message:
          "This model's maximum context length is 131072 tokens. However, you requested 140000 tokens.",
      },
    ],
    [
      "Moonshot",
      { status: 400, message: "Invalid request: Your request exceeded model token limit: 262144" },
    ],
    ["Zhipu GLM", { status: 400, message: "Prompt exceeds max length", code: "1261" }],
    ["MiniMax", { status: 400, message: "context window exceeds limit (2013)" }],
  ])("recognises the %s wording", async (_provider, fields) => {
    const error = Object.assign(new Error(fields.message), fields);
    const routed = routedClient({ main: [fetchTurn("t1", 100), error, answer("done")] });
    const agent = createAgent({ model: MODEL, client: routed.client, tools: [fetchTool], autoCompact });

    const result = await agent.prompt("Go.");

    expect(result.subtype).toBe("success");
    expect(routed.compactions()).toHaveLength(1);
  });

  it("a 400 that is not about length fails at once, without compaction", async () => {
    const error = Object.assign(new Error("400 messages.0.content: field required"), { status: 400 });
    const routed = routedClient({ main: [fetchTurn("t1", 100), error] });
    const agent = createAgent({ model: MODEL, client: routed.client, tools: [fetchTool], autoCompact });

    const result = await agent.prompt("Go.");

    expect(result.subtype).toBe("error_during_execution");
    expect(routed.compactions()).toHaveLength(0);
  });

  it("surfaces the original provider error when summarising fails", async () => {
    const routed = routedClient({
      main: [fetchTurn("t1", 100), promptTooLong()],
      compaction: [new Error("summariser exploded")],
    });
    const agent = createAgent({ model: MODEL, client: routed.client, tools: [fetchTool], autoCompact });

    const messages = await collect(agent.query("Go."));

    const result = lastResult(messages);
    expect(result.subtype).toBe("error_during_execution");
    expect(result.error).toBeInstanceOf(ProviderError);
    expect((result.error as ProviderError).status).toBe(400);
    expect(result.error!.message).toContain("prompt is too long: 210000 tokens > 200000 maximum");
    expect(result.error!.message).not.toContain("summariser");
  });

  it("surfaces the original provider error when nothing is left to summarise", async () => {
    const routed = routedClient({ main: [promptTooLong()] });
    const agent = createAgent({ model: MODEL, client: routed.client, autoCompact: true });

    const result = await agent.prompt("A huge first prompt.");

    expect(result.subtype).toBe("error_during_execution");
    expect(result.error).toBeInstanceOf(ProviderError);
    expect(result.error!.message).toContain("prompt is too long");
    expect(routed.client.callCount).toBe(1);
  });

  it("recovers once per query: a second prompt-too-long fails with the provider's error", async () => {
    const routed = routedClient({ main: [fetchTurn("t1", 100), promptTooLong(), promptTooLong()] });
    const agent = createAgent({ model: MODEL, client: routed.client, tools: [fetchTool], autoCompact });

    const result = await agent.prompt("Go.");

    expect(result.subtype).toBe("error_during_execution");
    expect(result.error).toBeInstanceOf(ProviderError);
    expect(result.error!.message).toContain("prompt is too long");
    expect(routed.compactions()).toHaveLength(1);
    expect(routed.client.callCount).toBe(4);
  });

  it("mixing the two signals still recovers only once per query", async () => {
    const routed = routedClient({ main: [fetchTurn("t1", 100), EXCEEDED, promptTooLong()] });
    const agent = createAgent({ model: MODEL, client: routed.client, tools: [fetchTool], autoCompact });

    const result = await agent.prompt("Go.");

    expect(result.error).toBeInstanceOf(ProviderError);
    expect(routed.compactions()).toHaveLength(1);
  });
});

describe("max_tokens is not an overflow", () => {
  it("a response cut at max_tokens never triggers compaction", async () => {
    const routed = routedClient({
      main: [
        {
          content: "A long answer that stops mid",
          stop_reason: "max_tokens",
          usage: { input_tokens: 50, output_tokens: 8_192 },
        },
      ],
    });
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      autoCompact: { thresholdTokens: 1_000, keepRecentMessages: 0 },
    });

    const messages = await collect(agent.query("Write a novel."));

    const result = lastResult(messages);
    expect(result.stop_reason).toBe("max_tokens");
    expect(result.subtype).toBe("success");
    expect(routed.compactions()).toHaveLength(0);
    expect(systemMessages(messages, "compaction")).toEqual([]);
    expect((await agent.getHistory()).at(-1)).toMatchObject({ stop_reason: "max_tokens" });
  });

  it("continuations after max_tokens do not compact either", async () => {
    const cut = {
      content: "part",
      stop_reason: "max_tokens" as const,
      usage: { input_tokens: 50, output_tokens: 100 },
    };
    const routed = routedClient({ main: [cut, cut, answer(" end", 60)] });
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      maxTokensContinuations: 2,
      autoCompact: { thresholdTokens: 1_000, keepRecentMessages: 0 },
    });

    const result = await agent.prompt("Write.");

    expect(result.result).toBe("partpart end");
    expect(routed.compactions()).toHaveLength(0);
  });
});
