/**
 * Extended thinking end to end over HTTP, against the mock server with its thinking check on (it
 * refuses, as the API does, a request whose last tool turn had its thinking altered or dropped):
 * thinking and redacted-thinking blocks stay in history in order with their signatures and go back
 * byte for byte across tool turns, across replaceHistory/getHistory, and after compaction of
 * older turns; with includePartialMessages thinking arrives as stream events.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent, createAnthropicClient, defineTool, type SDKMessage } from "../../src/index";
import { mockServerPerTest } from "../support/mock-server";
import {
  expectThinkingSentBack,
  redacted,
  THINKING,
  THINKING_MAX_TOKENS,
  thinking,
  thinkingBlocks,
} from "../support/thinking";
import { collect, expectWellFormed, lastResult, MODEL, toolUse } from "./support";

const weather = defineTool({
  name: "get_weather",
  description: "Current weather of a city",
  readOnly: true,
  inputSchema: z.object({ city: z.string() }),
  execute: ({ city }) => `Sunny in ${city}, 21°C`,
});

describe.each([
  { mode: "streaming", stream: true },
  { mode: "non-streaming", stream: false },
])("extended thinking over HTTP ($mode)", ({ stream }) => {
  const server = mockServerPerTest();
  const agentWith = (extra: Record<string, unknown> = {}) =>
    createAgent({
      model: MODEL,
      client: createAnthropicClient({ apiKey: "sk-thinking-test-key", baseURL: server.url, stream }),
      tools: [weather],
      thinking: THINKING,
      maxTokens: THINKING_MAX_TOKENS,
      ...extra,
    });

  it("keeps thinking across tool turns and sends it back byte for byte; the check refuses it altered", async () => {
    const first = [
      thinking("a"),
      redacted("a"),
      { type: "text" as const, text: "Checking." },
      toolUse("toolu_1", "get_weather", { city: "Paris" }),
    ];
    server.enqueue(
      { content: first },
      { content: [thinking("b"), toolUse("toolu_2", "get_weather", { city: "Oslo" })] },
      { content: [redacted("c"), thinking("c"), { type: "text", text: "Sunny in both." }] },
    );
    const agent = agentWith({ includePartialMessages: true });
    const messages = await collect(agent.query("Paris and Oslo?"));

    expect(lastResult(messages)).toMatchObject({
      subtype: "success",
      result: "Sunny in both.",
      num_turns: 3,
    });
    const history = await agent.getHistory();
    expectWellFormed(history);
    expect(history[1]!.content).toEqual(first);
    expect(thinkingBlocks(history[3]!.content)).toEqual([thinking("b")]);
    expect(thinkingBlocks(history[5]!.content)).toEqual([redacted("c"), thinking("c")]);
    expect(server.requests.map((request) => request.body.thinking)).toEqual(
      Array(3).fill({ type: "enabled", budget_tokens: 2048 }),
    );
    expectThinkingSentBack(history.slice(0, 4), server.requests[2]!.body.messages);

    if (stream) {
      const deltas = messages.flatMap((message: SDKMessage) =>
        message.type === "stream_event" && message.event.type === "content_block_delta"
          ? [(message.event.delta as { type: string }).type]
          : [],
      );
      expect(deltas).toContain("thinking_delta");
      expect(deltas).toContain("signature_delta");
    }

    // The check is real: the same history with one signature changed is refused by the mock.
    const tampered = structuredClone(history.slice(0, 3));
    (tampered[1]!.content as { signature?: string }[])[0]!.signature = "sig-forged";
    await agent.replaceHistory(tampered);
    const refused = await agent.prompt("Go on.");
    expect(refused.subtype).toBe("error_during_execution");
    expect(refused.error?.message).toMatch(/thinking|signature|cannot be modified/i);
  });

  it("sends thinking back after getHistory → replaceHistory", async () => {
    server.enqueue(
      { content: [thinking("r1"), redacted("r1"), toolUse("toolu_1", "get_weather", { city: "Rome" })] },
      { content: [thinking("r2"), { type: "text", text: "Warm." }] },
      { content: [thinking("r3"), toolUse("toolu_2", "get_weather", { city: "Rome" })] },
      { content: [{ type: "text", text: "Still warm." }] },
    );
    const agent = agentWith();
    await agent.prompt("Rome?");
    const saved = await agent.getHistory();
    const fresh = agentWith();
    await fresh.replaceHistory(saved);
    expect(await fresh.getHistory()).toEqual(saved);
    const result = await fresh.prompt("And now?");
    expect(result.subtype).toBe("success");
    expectThinkingSentBack(saved, server.requests[2]!.body.messages);
    expectThinkingSentBack(await fresh.getHistory(), server.requests[3]!.body.messages);
  });

  it("keeps the recent turns' thinking after compaction of older turns; the summary request fits", async () => {
    server.enqueue(
      { content: [thinking("old"), toolUse("toolu_1", "get_weather", { city: "Kyiv" })], usage: small },
      { content: [thinking("old2"), { type: "text", text: "Cold." }], usage: small },
      {
        content: [thinking("new"), redacted("new"), toolUse("toolu_2", "get_weather", { city: "Lima" })],
        usage: large,
      },
      { content: "Summary: the user asked about Kyiv; it was cold.", usage: small }, // the compaction
      { content: [thinking("last"), { type: "text", text: "Mild in Lima." }], usage: small },
    );
    const agent = agentWith({
      autoCompact: { thresholdTokens: 1000, keepRecentMessages: 2 },
      stopSequences: ["<<END>>"],
      toolChoice: "auto",
    });
    await agent.prompt("Kyiv?");
    const result = await agent.prompt("Lima?");

    expect(result).toMatchObject({ subtype: "success", result: "Mild in Lima." });
    expect(server.requests).toHaveLength(5);
    const summary = server.requests[3]!.body;
    expect(JSON.stringify(summary.messages)).toContain("Kyiv");
    expect(summary).not.toHaveProperty("tool_choice");
    expect(summary).not.toHaveProperty("stop_sequences");
    expect(summary.thinking).toEqual({ type: "enabled", budget_tokens: 2048 }); // 2048 < the summary's 4096
    expect(JSON.stringify(summary)).not.toContain("cache_control"); // sent once: no cache write
    const main = server.requests[4]!.body;
    expect(main.stop_sequences).toEqual(["<<END>>"]);
    const history = await agent.getHistory();
    expectWellFormed(history);
    expect(JSON.stringify(history)).not.toContain("sig-old-");
    const kept = history.findIndex((message) => thinkingBlocks(message.content).length > 0);
    expect(thinkingBlocks(history[kept]!.content)).toEqual([thinking("new"), redacted("new")]);
    expectThinkingSentBack(history.slice(0, -1), main.messages);
  });
});

const small = { input_tokens: 50, output_tokens: 10 };
const large = { input_tokens: 5000, output_tokens: 10 };
