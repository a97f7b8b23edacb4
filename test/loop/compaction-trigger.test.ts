/**
 * When automatic compaction runs: between turns, once a response reported more input tokens (input
 * plus both cache buckets) than `thresholdTokens`; never on a forecast, never without usage, at most
 * once per turn; with the documented defaults.
 */
import { describe, expect, it } from "vitest";
import {
  createAgent,
  DEFAULT_COMPACTION_THRESHOLD_TOKENS,
  DEFAULT_KEEP_RECENT_MESSAGES,
  type ModelMessage,
} from "../../src/index";
import {
  answer,
  fetchCall,
  fetchTool,
  fetchTurn,
  messageText,
  routedClient,
  systemMessages,
} from "./compaction-support";
import { collect, expectWellFormed, kinds, lastResult, MODEL } from "./support";

const autoCompact = { thresholdTokens: 1_000, keepRecentMessages: 2 };

describe("automatic compaction: the trigger", () => {
  it("runs between turns, after a response that reported more input tokens than the threshold", async () => {
    const routed = routedClient({ main: [fetchTurn("t1", 100), fetchTurn("t2", 1_500), answer("done")] });
    const agent = createAgent({ model: MODEL, client: routed.client, tools: [fetchTool], autoCompact });

    const messages = await collect(agent.query("Collect the documents."));

    expect(kinds(messages)).toEqual([
      "system:init",
      "assistant",
      "user",
      "assistant",
      "user",
      "system:compaction",
      "assistant",
      "result:success",
    ]);
    expect(routed.compactions()).toHaveLength(1);
    // The first two turns went out whole; the third after the rebuild.
    expect(routed.main()[1]!.messages).toHaveLength(3);
    expect(routed.main()[2]!.messages).toHaveLength(3);
    expect(messageText(routed.main()[2]!.messages[0])).toContain("SUMMARY-1");
    expectWellFormed(await agent.getHistory());
  });

  it("does not run at exactly the threshold, only above it", async () => {
    const routed = routedClient({
      main: [fetchTurn("t1", 1_000), fetchTurn("t2", 1_001), answer("done")],
    });
    const agent = createAgent({ model: MODEL, client: routed.client, tools: [fetchTool], autoCompact });

    const messages = await collect(agent.query("Collect the documents."));

    expect(lastResult(messages).subtype).toBe("success");
    expect(routed.compactions()).toHaveLength(1);
    // 1_000 tokens did not trigger before turn 2; 1_001 did before turn 3.
    expect(messageText(routed.main()[1]!.messages[0])).toBe("Collect the documents.");
    expect(messageText(routed.main()[2]!.messages[0])).toContain("SUMMARY-1");
  });

  it("counts the cache buckets as input: input + cache writes + cache reads", async () => {
    const cached = {
      content: [{ type: "tool_use" as const, id: "t1", name: "fetch", input: {} }],
      usage: {
        input_tokens: 10,
        cache_creation_input_tokens: 500,
        cache_read_input_tokens: 491,
        output_tokens: 3,
      },
    };
    const routed = routedClient({ main: [cached, answer("done")] });
    const agent = createAgent({ model: MODEL, client: routed.client, tools: [fetchTool], autoCompact });

    await collect(agent.query("Go."));

    expect(routed.compactions()).toHaveLength(1); // 10 + 500 + 491 = 1_001 > 1_000
  });

  it("fresh input alone under the threshold does not trigger", async () => {
    const routed = routedClient({ main: [fetchTurn("t1", 999), answer("done")] });
    const agent = createAgent({ model: MODEL, client: routed.client, tools: [fetchTool], autoCompact });

    await collect(agent.query("Go."));

    expect(routed.compactions()).toHaveLength(0);
    expect(routed.client.callCount).toBe(2);
  });

  it("never runs on a forecast: a long history goes out whole until a response reports its usage", async () => {
    const long: ModelMessage[] = [];
    for (let index = 0; index < 10; index += 1) {
      long.push({ role: "user", content: `question ${index} ${"q".repeat(5_000)}` });
      long.push({ role: "assistant", content: [{ type: "text", text: `answer ${index}` }] });
    }
    const routed = routedClient({ main: [answer("fine", 50)] });
    const agent = createAgent({ model: MODEL, client: routed.client, autoCompact: { thresholdTokens: 1 } });
    await agent.replaceHistory(long);

    const result = await agent.prompt("And now?");

    expect(result.subtype).toBe("success");
    expect(routed.compactions()).toHaveLength(0);
    expect(routed.main()[0]!.messages).toHaveLength(21);
  });

  it("a response over the threshold that ends a query compacts before the next query's first request", async () => {
    const routed = routedClient({ main: [answer("first answer", 5_000), answer("second answer")] });
    const agent = createAgent({ model: MODEL, client: routed.client, autoCompact });

    const first = await collect(agent.query("First question."));
    expect(systemMessages(first, "compaction")).toHaveLength(0);
    const before = await agent.getHistory();
    const second = await collect(agent.query("Second question."));

    expect(kinds(second)).toEqual(["system:init", "system:compaction", "assistant", "result:success"]);
    // [Q1, A1, Q2]: the two most recent are kept, Q1 is summarised.
    expect(systemMessages(second, "compaction")[0]!.compacted_messages).toBe(1);
    const sent = routed.main()[1]!.messages;
    expect(sent).toHaveLength(3);
    expect(messageText(sent[0])).toContain("SUMMARY-1");
    expect(sent.slice(1)).toEqual([before[1], { role: "user", content: "Second question." }]);
  });

  it("replaceHistory() drops the usage reported for the old history: the new one is not compacted on its strength", async () => {
    const routed = routedClient({ main: [answer("long answer", 5_000), answer("fresh answer", 50)] });
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      autoCompact: { thresholdTokens: 1_000, keepRecentMessages: 0 },
    });
    await agent.prompt("A long conversation.");

    const fresh: ModelMessage[] = [
      { role: "user", content: "An unrelated conversation." },
      { role: "assistant", content: [{ type: "text", text: "Sure." }] },
    ];
    await agent.replaceHistory(fresh);
    const messages = await collect(agent.query("Go on."));

    expect(systemMessages(messages, "compaction")).toEqual([]);
    expect(routed.compactions()).toHaveLength(0);
    expect(routed.main()[1]!.messages).toEqual([...fresh, { role: "user", content: "Go on." }]);
  });

  it("defaults to thresholdTokens 100_000 and keepRecentMessages 6", async () => {
    expect(DEFAULT_COMPACTION_THRESHOLD_TOKENS).toBe(100_000);
    expect(DEFAULT_KEEP_RECENT_MESSAGES).toBe(6);
    const routed = routedClient({
      main: [
        fetchTurn("t1", 100_000),
        fetchTurn("t2", 50),
        fetchTurn("t3", 50),
        fetchTurn("t4", 100_001),
        answer("done"),
      ],
    });
    // A model whose context window is not known: the threshold stays 100,000 tokens.
    const agent = createAgent({
      model: "unlisted-model-1",
      client: routed.client,
      tools: [fetchTool],
      autoCompact: true,
    });

    const messages = await collect(agent.query("Go."));

    expect(routed.compactions()).toHaveLength(1);
    expect(routed.main()[1]!.messages[0]).toEqual({ role: "user", content: "Go." }); // 100_000: no
    // [U0, A1, U2, A3, U4, A5, U6, A7, U8]: the last 6 are kept, the first 3 summarised.
    expect(systemMessages(messages, "compaction")[0]!.compacted_messages).toBe(3);
    const afterwards = routed.main()[4]!.messages;
    expect(afterwards).toHaveLength(1 + 6);
    const before = routed.main()[3]!.messages; // [U0 … U6]
    expect(afterwards.slice(1, 5)).toEqual(before.slice(3));
    expect(afterwards[5]).toMatchObject({ role: "assistant", content: [fetchCall("t4")] });
    expect(afterwards[6]).toMatchObject({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "t4" }],
    });
  });

  it("a client that reports no usage never compacts, however long the conversation", async () => {
    const turns = Array.from({ length: 12 }, (_, index) => ({
      content: [{ type: "tool_use" as const, id: `t${index}`, name: "fetch", input: { size: 10_000 } }],
    }));
    const routed = routedClient({ main: [...turns, { content: "done" }] });
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      tools: [fetchTool],
      autoCompact: { thresholdTokens: 1, keepRecentMessages: 0 },
    });

    const messages = await collect(agent.query("Go."));

    expect(lastResult(messages).subtype).toBe("success");
    expect(routed.compactions()).toHaveLength(0);
    expect(routed.main()[12]!.messages).toHaveLength(25);
    expect(lastResult(messages).usage).toMatchObject({ input_tokens: 0, output_tokens: 0 });
  });

  it("attempts once per turn: a failed compaction is not retried before the next response re-arms it", async () => {
    const routed = routedClient({
      main: [fetchTurn("t1", 2_000), fetchTurn("t2", 2_000), answer("done")],
      compaction: [new Error("summariser unavailable"), { content: "SUMMARY-ok" }],
    });
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      tools: [fetchTool],
      autoCompact,
      retry: { maxRetries: 0 },
    });

    const messages = await collect(agent.query("Go."));

    expect(kinds(messages)).toEqual([
      "system:init",
      "assistant",
      "user",
      "system:compaction_failed",
      "assistant",
      "user",
      "system:compaction",
      "assistant",
      "result:success",
    ]);
    expect(routed.compactions()).toHaveLength(2);
    expect(routed.main()[1]!.messages).toHaveLength(3); // sent whole after the failure
    expect(messageText(routed.main()[2]!.messages[0])).toContain("SUMMARY-ok");
  });

  it("attempts once per turn: a skipped compaction (nothing to cut) is not retried before the next response", async () => {
    const routed = routedClient({ main: [fetchTurn("t1", 2_000), fetchTurn("t2", 2_000), answer("done")] });
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      tools: [fetchTool],
      autoCompact: { thresholdTokens: 1_000, keepRecentMessages: 50 },
    });

    const messages = await collect(agent.query("Go."));

    expect(lastResult(messages).subtype).toBe("success");
    expect(routed.compactions()).toHaveLength(0);
    expect(routed.client.callCount).toBe(3);
    expect(systemMessages(messages, "compaction")).toHaveLength(0);
    expect(systemMessages(messages, "compaction_failed")).toHaveLength(0);
  });

  it("re-arms after compacting: each later response over the threshold compacts again, carrying the summary forward", async () => {
    const routed = routedClient({
      main: [fetchTurn("t1", 2_000), fetchTurn("t2", 2_000), fetchTurn("t3", 500), answer("done")],
    });
    const agent = createAgent({ model: MODEL, client: routed.client, tools: [fetchTool], autoCompact });

    const messages = await collect(agent.query("Go."));

    const compactions = systemMessages(messages, "compaction");
    expect(compactions.map((message) => message.compacted_messages)).toEqual([1, 3]);
    expect(routed.compactions()).toHaveLength(2);
    // The second summary request is given the first summary to carry forward.
    expect(JSON.stringify(routed.compactions()[1]!.messages)).toContain("SUMMARY-1");
    // The 500-token response did not trigger a third.
    expect(messageText(routed.main()[3]!.messages[0])).toContain("SUMMARY-2");
    expectWellFormed(await agent.getHistory());
  });
});
