/**
 * What automatic compaction does once triggered: the summarising request (prompt verbatim, model,
 * output budget), the rebuilt history (one wrapped summary, then the kept messages unchanged), the
 * safe cut, skipping, the store's `replace`, the `compaction` system message, and what it costs.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { wrapSummary } from "../../src/compaction/prompt";
import {
  createAgent,
  createJsonlHistoryStore,
  DEFAULT_COMPACTION_PROMPT,
  DEFAULT_PRICING,
  type Hooks,
  isWellFormedHistory,
  type ModelMessage,
  type ToolUseBlock,
} from "../../src/index";
import type { ScriptedStep } from "../../src/testing/index";
import {
  answer,
  fetchCall,
  fetchTool,
  fetchTurn,
  recordingJsonlStore,
  reloadJsonl,
  requestText,
  routedClient,
  SUMMARY_USAGE,
  systemMessages,
} from "./compaction-support";
import { collect, expectWellFormed, lastResult, MODEL } from "./support";

const autoCompact = { thresholdTokens: 1_000, keepRecentMessages: 2 };

/** Three turns: two document fetches (the second over the threshold), then an answer. */
function threeTurns() {
  return [
    fetchTurn("t1", 100, { text: "alpha-result" }),
    fetchTurn("t2", 2_000, { text: "beta-result" }),
    answer("done"),
  ];
}

/** A `preCompact` hook that records a copy of the history each compaction is about to replace. */
function historyRecorder() {
  const seen: ModelMessage[][] = [];
  const hooks: Hooks = {
    preCompact: [{ handler: ({ messages }) => void seen.push(structuredClone([...messages])) }],
  };
  return { seen, hooks };
}

describe("automatic compaction: the summarising request", () => {
  it("carries DEFAULT_COMPACTION_PROMPT verbatim after a transcript of the summarised messages only", async () => {
    const routed = routedClient({ main: threeTurns() });
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      tools: [fetchTool],
      systemPrompt: "You are a librarian.",
      autoCompact,
    });

    await collect(agent.query("Compare the alpha and beta documents."));

    const [request] = routed.compactions();
    expect(request).toBeDefined();
    const blocks = request!.messages.flatMap((message) =>
      typeof message.content === "string" ? [] : message.content,
    );
    expect(blocks).toContainEqual({ type: "text", text: DEFAULT_COMPACTION_PROMPT });
    const text = requestText(request!);
    // [U0, A1, U2 | A3, U4]: the first three are summarised, the kept two are not sent.
    expect(text).toContain("Compare the alpha and beta documents.");
    expect(text).toContain("alpha-result");
    expect(text).not.toContain("beta-result");
    expect(request!.tools).toBeUndefined();
    expect(request!.model).toBe(MODEL);
    expect(request!.maxTokens).toBe(4096);
  });

  it("carries a custom prompt verbatim instead of the default", async () => {
    const prompt = "Summarise the talk so far in five bullet points, keeping every path.";
    const routed = routedClient({ main: threeTurns(), compactionPrompt: prompt });
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      tools: [fetchTool],
      autoCompact: { ...autoCompact, prompt },
    });

    const result = await agent.prompt("Go.");

    expect(result.subtype).toBe("success");
    expect(routed.compactions()).toHaveLength(1);
    expect(requestText(routed.compactions()[0]!)).not.toContain(DEFAULT_COMPACTION_PROMPT);
  });

  it("uses autoCompact.model and autoCompact.maxTokens when set; main turns keep the agent's model", async () => {
    const routed = routedClient({ main: threeTurns() });
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      tools: [fetchTool],
      autoCompact: { ...autoCompact, model: "claude-haiku-4-5", maxTokens: 1_234 },
    });

    await agent.prompt("Go.");

    expect(routed.compactions().map((request) => [request.model, request.maxTokens])).toEqual([
      ["claude-haiku-4-5", 1_234],
    ]);
    expect(routed.main().map((request) => request.model)).toEqual([MODEL, MODEL, MODEL]);
  });
});

describe("automatic compaction: the rebuilt history", () => {
  it("is one user message with the wrapped summary, then the kept messages unchanged", async () => {
    const routed = routedClient({
      main: threeTurns(),
      compaction: [
        {
          content: [
            { type: "text", text: "  Part one." },
            { type: "text", text: "Part two.  " },
          ],
        },
      ],
    });
    const recorder = historyRecorder();
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      tools: [fetchTool],
      autoCompact,
      hooks: recorder.hooks,
    });

    await agent.prompt("Compare the alpha and beta documents.");

    const [before] = recorder.seen;
    expect(before).toHaveLength(5);
    const summary: ModelMessage = { role: "user", content: wrapSummary("Part one.\nPart two.") };
    const history = await agent.getHistory();
    expect(history.slice(0, 3)).toEqual([summary, ...before!.slice(3)]);
    expect(history).toHaveLength(4); // … and the answer that followed
    // The wrapper says compaction happened and asks to continue, not restart.
    expect(summary.content).toMatch(/compacted/);
    expect(summary.content).toMatch(/Continue the task/);
    expect(summary.content).toMatch(/Do not restart/);
    // The next turn was sent exactly that history.
    expect(routed.main()[2]!.messages).toEqual(history.slice(0, 3));
    // The replaced turns are gone from the agent.
    expect(JSON.stringify(history)).not.toContain("alpha-result");
  });

  it("moves the cut earlier so a tool_result never loses its tool_use (parallel calls included)", async () => {
    const parallel = {
      content: [fetchCall("t2a", { text: "beta-a" }), fetchCall("t2b", { text: "beta-b" })],
      usage: { input_tokens: 2_000, output_tokens: 10 },
    };
    const routed = routedClient({ main: [fetchTurn("t1", 100), parallel, answer("done")] });
    const recorder = historyRecorder();
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      tools: [fetchTool],
      autoCompact: { thresholdTokens: 1_000, keepRecentMessages: 1 },
      hooks: recorder.hooks,
    });

    const messages = await collect(agent.query("Go."));

    // Keeping one message would keep only the results; the cut moves back to their calls.
    expect(systemMessages(messages, "compaction")[0]!.compacted_messages).toBe(3);
    const sent = routed.main()[2]!.messages;
    expect(sent.slice(1)).toEqual(recorder.seen[0]!.slice(3));
    expect(sent[1]).toMatchObject({ role: "assistant" });
    expect(isWellFormedHistory(sent)).toBe(true);
  });

  it("keepRecentMessages 0 summarises everything", async () => {
    const routed = routedClient({ main: [fetchTurn("t1", 2_000), answer("done")] });
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      tools: [fetchTool],
      autoCompact: { thresholdTokens: 1_000, keepRecentMessages: 0 },
    });

    const messages = await collect(agent.query("Go."));

    expect(systemMessages(messages, "compaction")[0]!.compacted_messages).toBe(3);
    expect(routed.main()[1]!.messages).toEqual([{ role: "user", content: wrapSummary("SUMMARY-1") }]);
  });

  it("is skipped, without a model call, when no safe cut leaves anything to summarise", async () => {
    const routed = routedClient({ main: [fetchTurn("t1", 2_000), answer("done")] });
    const store = recordingJsonlStore();
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      tools: [fetchTool],
      historyStore: store,
      autoCompact: { thresholdTokens: 1_000, keepRecentMessages: 3 },
    });

    const messages = await collect(agent.query("Go."));

    expect(lastResult(messages).subtype).toBe("success");
    expect(routed.client.callCount).toBe(2);
    expect(routed.compactions()).toHaveLength(0);
    expect(
      messages.filter((message) => message.type === "system" && message.subtype.startsWith("compaction")),
    ).toEqual([]);
    expect(store.replaced).toEqual([]);
    expect(routed.main()[1]!.messages).toHaveLength(3);
  });

  it("follows every cut the loop picks over random conversations: each request stays well-formed and keeps its tail", async () => {
    const turn = fc.record({
      calls: fc.integer({ min: 0, max: 3 }),
      inputTokens: fc.integer({ min: 0, max: 3_000 }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(turn, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 0, max: 7 }),
        async (turns, keepRecentMessages) => {
          let id = 0;
          const main: ScriptedStep[] = turns.map((step) => ({
            content:
              step.calls === 0
                ? [{ type: "text", text: `note ${++id}` }]
                : Array.from(
                    { length: step.calls },
                    (): ToolUseBlock => fetchCall(`t${++id}`, { text: `r${id}` }),
                  ),
            stop_reason: step.calls === 0 ? "pause_turn" : "tool_use",
            usage: { input_tokens: step.inputTokens, output_tokens: 1 },
          }));
          main.push(answer("done"));
          const recorder = historyRecorder();
          const routed = routedClient({ main });
          const agent = createAgent({
            model: MODEL,
            client: routed.client,
            tools: [fetchTool],
            maxTurns: 100,
            autoCompact: { thresholdTokens: 1_000, keepRecentMessages },
            hooks: recorder.hooks,
          });

          const messages = await collect(agent.query("Go."));

          expect(lastResult(messages).subtype).toBe("success");
          for (const request of routed.main()) expect(isWellFormedHistory(request.messages)).toBe(true);
          const compactions = systemMessages(messages, "compaction");
          expect(compactions).toHaveLength(recorder.seen.length);
          // Each compaction keeps exactly the tail after its cut, unchanged, and no more than asked for
          // unless the pairing forced the cut earlier.
          compactions.forEach((compaction, index) => {
            const before = recorder.seen[index]!;
            const kept = before.slice(compaction.compacted_messages);
            expect(compaction.compacted_messages).toBeGreaterThan(0);
            expect(kept.length).toBeGreaterThanOrEqual(Math.min(keepRecentMessages, before.length));
            const summary = wrapSummary(`SUMMARY-${index + 1}`);
            const next = routed.main().find((request) => request.messages[0]?.content === summary);
            expect(next?.messages.slice(1, 1 + kept.length)).toEqual(kept);
          });
          expectWellFormed(await agent.getHistory());
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe("automatic compaction: store, report and cost", () => {
  it("replaces the store's transcript: a reload from disk equals the agent's history, and a new Agent resumes from it", async () => {
    const routed = routedClient({ main: threeTurns() });
    const store = recordingJsonlStore();
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      tools: [fetchTool],
      historyStore: store,
      autoCompact,
    });

    await agent.prompt("Go.");

    const history = await agent.getHistory();
    expect(store.replaced).toHaveLength(1);
    expect(store.replaced[0]).toEqual(history.slice(0, 3));
    expect(await reloadJsonl(store.path)).toEqual(history);
    await agent.close();

    const resumed = createAgent({
      model: MODEL,
      client: routedClient({ main: [answer("resumed")] }).client,
      historyStore: createJsonlHistoryStore({ path: store.path }),
    });
    expect(await resumed.getHistory()).toEqual(history);
    expect(JSON.stringify(await resumed.getHistory())).not.toContain("alpha-result");
    await resumed.close();
  });

  it("yields a compaction system message with the number of messages replaced and the call's usage", async () => {
    const routed = routedClient({ main: threeTurns() });
    const agent = createAgent({ model: MODEL, client: routed.client, tools: [fetchTool], autoCompact });

    const messages = await collect(agent.query("Go."));

    expect(systemMessages(messages, "compaction")).toEqual([
      { type: "system", subtype: "compaction", compacted_messages: 3, usage: SUMMARY_USAGE, trigger: "auto" },
    ]);
  });

  it("folds the call's tokens and cost into usage, total_cost_usd and model_usage, but not num_turns", async () => {
    const routed = routedClient({ main: threeTurns() });
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      tools: [fetchTool],
      autoCompact: { ...autoCompact, model: "claude-haiku-4-5" },
    });

    const result = await agent.prompt("Go.");

    // Main turns: 100 + 2_000 + 100 in, 10 + 10 + 5 out. Compaction: 700 in, 40 out.
    expect(result.num_turns).toBe(3);
    expect(result.usage).toEqual({
      input_tokens: 2_900,
      output_tokens: 65,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    });
    const sonnet = DEFAULT_PRICING[MODEL]!;
    const haiku = DEFAULT_PRICING["claude-haiku-4-5"]!;
    const mainCost = (2_200 * sonnet.inputPerMTok + 25 * sonnet.outputPerMTok) / 1e6;
    const compactionCost = (700 * haiku.inputPerMTok + 40 * haiku.outputPerMTok) / 1e6;
    expect(result.model_usage[MODEL]).toMatchObject({ input_tokens: 2_200, output_tokens: 25 });
    expect(result.model_usage[MODEL]!.cost_usd).toBeCloseTo(mainCost, 12);
    expect(result.model_usage["claude-haiku-4-5"]).toMatchObject({ input_tokens: 700, output_tokens: 40 });
    expect(result.model_usage["claude-haiku-4-5"]!.cost_usd).toBeCloseTo(compactionCost, 12);
    expect(result.total_cost_usd).toBeCloseTo(mainCost + compactionCost, 12);
  });

  it("counts a summary that reports no usage as zero tokens", async () => {
    const routed = routedClient({ main: threeTurns(), compaction: [{ content: "quiet summary" }] });
    const agent = createAgent({ model: MODEL, client: routed.client, tools: [fetchTool], autoCompact });

    const messages = await collect(agent.query("Go."));

    expect(systemMessages(messages, "compaction")[0]!.usage).toEqual({ input_tokens: 0, output_tokens: 0 });
    expect(lastResult(messages).usage).toMatchObject({ input_tokens: 2_200, output_tokens: 25 });
  });
});
