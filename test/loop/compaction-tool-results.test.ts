/**
 * `compactToolResults`: a successful tool result over `thresholdChars` is condensed by one model
 * call before it enters history — its tokens and cost counted, a `tool_result_compaction` message
 * saying so — while error results never are, and the option is off by default.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createAgent,
  DEFAULT_PRICING,
  DEFAULT_TOOL_RESULT_SUMMARY_PROMPT,
  DEFAULT_TOOL_RESULT_THRESHOLD_CHARS,
  defineTool,
  type ToolResultBlock,
} from "../../src/index";
import {
  answer,
  fetchCall,
  fetchTool,
  fetchTurn,
  requestText,
  routedClient,
  SUMMARY_USAGE,
  systemMessages,
} from "./compaction-support";
import { collect, expectWellFormed, kinds, lastResult, MODEL, resultText, toolResults } from "./support";

/** A document of exactly `size` characters whose start and end can be recognised. */
function documentOf(size: number): string {
  const head = "BEGIN-DOC ";
  const tail = " END-DOC";
  return head + "d".repeat(size - head.length - tail.length) + tail;
}

describe("compactToolResults", () => {
  it("is off by default: a huge result enters history whole, with no extra call", async () => {
    const routed = routedClient({
      main: [fetchTurn("t1", 100, { text: documentOf(200_000) }), answer("done")],
    });
    const agent = createAgent({ model: MODEL, client: routed.client, tools: [fetchTool] });

    const messages = await collect(agent.query("Read it."));

    expect(routed.client.callCount).toBe(2);
    expect(systemMessages(messages, "tool_result_compaction")).toEqual([]);
    expect(resultText(toolResults(await agent.getHistory())[0]!)).toHaveLength(200_000);
  });

  it("condenses a successful result over the threshold (default 50_000 characters) before it enters history", async () => {
    expect(DEFAULT_TOOL_RESULT_THRESHOLD_CHARS).toBe(50_000);
    const routed = routedClient({
      main: [
        {
          content: [
            fetchCall("t-at", { text: documentOf(50_000) }),
            fetchCall("t-over", { size: 50_001 }), // the input is small, the output is not
          ],
          usage: { input_tokens: 100, output_tokens: 10 },
        },
        answer("done"),
      ],
    });
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      tools: [fetchTool],
      compactToolResults: true,
    });

    const messages = await collect(agent.query("Read both."));

    expect(lastResult(messages).subtype).toBe("success");
    expect(routed.toolResultSummaries()).toHaveLength(1);
    const [request] = routed.toolResultSummaries();
    const text = requestText(request!);
    expect(text).toContain(DEFAULT_TOOL_RESULT_SUMMARY_PROMPT);
    expect(text).toContain("f".repeat(50_001)); // the whole output is given to the summariser
    expect(text).toContain("fetch");
    expect(request!.model).toBe(MODEL);
    expect(request!.tools).toBeUndefined();

    const [atThreshold, overThreshold] = toolResults(await agent.getHistory());
    expect(resultText(atThreshold!)).toBe(documentOf(50_000));
    const condensed = resultText(overThreshold!);
    expect(condensed).toContain("CONDENSED-1");
    expect(condensed).toContain("50001");
    expect(condensed).not.toContain("ffffffffff");
    expect(overThreshold!.tool_use_id).toBe("t-over");
    // The model's next turn sees the condensed result, and the `user` message yielded says the same.
    expect(JSON.stringify(routed.main()[1]!.messages)).not.toContain("ffffffffff");
    const fedBack = messages.find((message) => message.type === "user");
    expect(JSON.stringify(fedBack)).toContain("CONDENSED-1");

    expect(systemMessages(messages, "tool_result_compaction")).toEqual([
      {
        type: "system",
        subtype: "tool_result_compaction",
        tool_use_id: "t-over",
        tool_name: "fetch",
        original_chars: 50_001,
        compacted_chars: condensed.length,
        usage: SUMMARY_USAGE,
      },
    ]);
  });

  it("counts the summary's tokens and cost (under its model) but not as a turn", async () => {
    const routed = routedClient({
      main: [fetchTurn("t1", 100, { text: documentOf(2_000) }), answer("done")],
    });
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      tools: [fetchTool],
      compactToolResults: { thresholdChars: 1_000, model: "claude-haiku-4-5" },
    });

    const result = await agent.prompt("Read it.");

    expect(routed.toolResultSummaries()[0]!.model).toBe("claude-haiku-4-5");
    expect(result.num_turns).toBe(2);
    expect(result.usage).toMatchObject({ input_tokens: 100 + 100 + 700, output_tokens: 10 + 5 + 40 });
    const haiku = DEFAULT_PRICING["claude-haiku-4-5"]!;
    const summaryCost = (700 * haiku.inputPerMTok + 40 * haiku.outputPerMTok) / 1e6;
    expect(result.model_usage["claude-haiku-4-5"]!.cost_usd).toBeCloseTo(summaryCost, 12);
    expect(result.total_cost_usd).toBeCloseTo(result.model_usage[MODEL]!.cost_usd + summaryCost, 12);
  });

  it("measures text blocks of a result and leaves images alone", async () => {
    const pictures = defineTool({
      name: "pictures",
      inputSchema: z.object({}),
      execute: () => ({
        content: [
          { type: "text" as const, text: "x".repeat(700) },
          { type: "image" as const, source: { type: "url" as const, url: "https://example.com/a.png" } },
          { type: "text" as const, text: "y".repeat(700) },
        ],
      }),
    });
    const routed = routedClient({
      main: [{ content: [{ type: "tool_use", id: "p1", name: "pictures", input: {} }] }, answer("done")],
    });
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      tools: [pictures],
      compactToolResults: { thresholdChars: 1_000 },
    });

    const messages = await collect(agent.query("Show me."));

    expect(systemMessages(messages, "tool_result_compaction")[0]!.original_chars).toBe(1_400);
    const request = routed.toolResultSummaries()[0]!;
    expect(JSON.stringify(request.messages)).toContain("https://example.com/a.png");
  });

  it("never condenses an error result, thrown or returned", async () => {
    const failing = defineTool({
      name: "failing",
      inputSchema: z.object({ mode: z.enum(["throw", "return"]) }),
      execute: ({ mode }) => {
        const text = `STACK ${"e".repeat(5_000)}`;
        if (mode === "throw") throw new Error(text);
        return { content: text, isError: true };
      },
    });
    const routed = routedClient({
      main: [
        {
          content: [
            { type: "tool_use", id: "f1", name: "failing", input: { mode: "throw" } },
            { type: "tool_use", id: "f2", name: "failing", input: { mode: "return" } },
          ],
        },
        answer("done"),
      ],
    });
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      tools: [failing],
      compactToolResults: { thresholdChars: 1_000 },
    });

    const messages = await collect(agent.query("Try."));

    expect(routed.toolResultSummaries()).toHaveLength(0);
    expect(systemMessages(messages, "tool_result_compaction")).toEqual([]);
    const results: ToolResultBlock[] = toolResults(await agent.getHistory());
    expect(results.map((block) => block.is_error)).toEqual([true, true]);
    for (const block of results) expect(resultText(block)).toContain("e".repeat(5_000));
  });

  it("keeps the original result when the summary call fails, and the query goes on", async () => {
    const routed = routedClient({
      main: [fetchTurn("t1", 100, { text: documentOf(2_000) }), answer("done")],
      toolResultSummary: [new Error("summariser down")],
    });
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      tools: [fetchTool],
      compactToolResults: { thresholdChars: 1_000 },
    });

    const messages = await collect(agent.query("Read it."));

    expect(lastResult(messages).subtype).toBe("success");
    expect(resultText(toolResults(await agent.getHistory())[0]!)).toBe(documentOf(2_000));
    expect(systemMessages(messages, "tool_result_compaction")).toEqual([]);
    // ...and says so, naming the call and the failure.
    const failures = systemMessages(messages, "tool_result_compaction_failed") as Array<{
      tool_use_id: string;
      error: Error;
    }>;
    expect(failures.map((failure) => failure.tool_use_id)).toEqual(["t1"]);
    expect(failures[0]!.error.message).toContain("summariser down");
  });

  it("keeps the original result when the summary is refused, or is no shorter than the original", async () => {
    const routed = routedClient({
      main: [
        fetchTurn("t1", 100, { text: documentOf(2_000) }),
        fetchTurn("t2", 100, { text: documentOf(1_500) }),
        answer("done"),
      ],
      toolResultSummary: [
        { content: "I can't help with that", stop_reason: "refusal" },
        { content: `A long retelling: ${"r".repeat(1_600)}` },
      ],
    });
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      tools: [fetchTool],
      compactToolResults: { thresholdChars: 1_000 },
    });

    const messages = await collect(agent.query("Read them."));

    expect(lastResult(messages).subtype).toBe("success");
    const results = toolResults(await agent.getHistory());
    expect(results.map(resultText)).toEqual([documentOf(2_000), documentOf(1_500)]);
    expect(systemMessages(messages, "tool_result_compaction")).toEqual([]);
    const failures = systemMessages(messages, "tool_result_compaction_failed") as Array<{
      tool_use_id: string;
      error: Error;
    }>;
    expect(failures.map((failure) => failure.tool_use_id)).toEqual(["t1", "t2"]);
    expect(failures[0]!.error.message).toMatch(/refus/);
    expect(failures[1]!.error.message).toMatch(/not shorter/);
  });

  it("gives the summary call its own output budget (compactToolResults.maxTokens)", async () => {
    const routed = routedClient({
      main: [fetchTurn("t1", 100, { text: documentOf(2_000) }), answer("done")],
    });
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      tools: [fetchTool],
      compactToolResults: { thresholdChars: 1_000, maxTokens: 777 },
    });
    await collect(agent.query("Read it."));
    expect(routed.toolResultSummaries().map((request) => request.maxTokens)).toEqual([777]);
  });

  it("an abort during the summary call ends the query error_abort with the original result recorded", async () => {
    const controller = new AbortController();
    const routed = routedClient({
      main: [fetchTurn("t1", 100, { text: documentOf(2_000) })],
      toolResultSummary: [
        () => {
          setTimeout(() => controller.abort(new Error("user left")), 0);
          return { content: "never", hang: true };
        },
      ],
    });
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      tools: [fetchTool],
      compactToolResults: { thresholdChars: 1_000 },
    });

    const messages = await collect(agent.query("Read it.", { signal: controller.signal }));

    expect(kinds(messages).at(-1)).toBe("result:error_abort");
    const history = await agent.getHistory();
    expectWellFormed(history);
    expect(resultText(toolResults(history)[0]!)).toBe(documentOf(2_000));
  });
});

describe("compactToolResults with an endTurn tool", () => {
  it("ends with the tool's own content as result; history holds the summary", async () => {
    const finalReport = defineTool({
      name: "final_report",
      inputSchema: z.object({}),
      execute: () => ({ content: documentOf(60_000), endTurn: true }),
    });
    const routed = routedClient({
      main: [{ content: [{ type: "tool_use", id: "r1", name: "final_report", input: {} }] }],
      toolResultSummary: [answer("A short summary of the report.")],
    });
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      tools: [finalReport],
      compactToolResults: true,
    });

    const result = lastResult(await collect(agent.query("Write the report.")));

    expect(result.subtype).toBe("success");
    expect(result.result).toBe(documentOf(60_000));
    expect(resultText(toolResults(await agent.getHistory())[0]!)).toContain("A short summary of the report.");
  });
});

describe("compactToolResults and transient failures", () => {
  it("retries a summary request that failed with a 529, like any model request", async () => {
    const overloaded = Object.assign(new Error("overloaded"), { status: 529 });
    const routed = routedClient({
      main: [fetchTurn("t1", 100, { size: 60_000 }), answer("done")],
      toolResultSummary: [overloaded, answer("A summary of sixty thousand f characters.")],
    });
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      tools: [fetchTool],
      compactToolResults: true,
      retry: { initialDelayMs: 1, maxDelayMs: 1 },
    });

    const messages = await collect(agent.query("Fetch it."));

    expect(lastResult(messages).subtype).toBe("success");
    expect(kinds(messages)).toContain("system:api_retry");
    expect(systemMessages(messages, "tool_result_compaction")).toHaveLength(1);
    expect(resultText(toolResults(await agent.getHistory())[0]!)).toContain(
      "A summary of sixty thousand f characters.",
    );
  });
});
