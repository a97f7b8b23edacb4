/**
 * Failed compactions: the query goes on with history and store untouched, transient failures of the
 * summary call are retried, and after three consecutive failures automatic compaction stops for
 * the agent (said in a system message) while overflow recovery still runs once per query.
 */
import { describe, expect, it } from "vitest";
import { createAgent, defineHistoryStore, HistoryStoreError } from "../../../src/index";
import type { ScriptedResponse, ScriptedStep } from "../../../src/testing/index";
import {
  answer,
  fetchTool,
  fetchTurn,
  messageText,
  recordingJsonlStore,
  reloadJsonl,
  routedClient,
  systemMessages,
} from "../compaction-support";
import { collect, createMemoryStore, expectWellFormed, kinds, lastResult, MODEL } from "../support";

const autoCompact = { thresholdTokens: 1_000, keepRecentMessages: 2 };

/** `count` tool turns, each reporting more input than the threshold. */
function bigTurns(count: number, prefix = "t"): ScriptedResponse[] {
  return Array.from({ length: count }, (_, index) => fetchTurn(`${prefix}${index + 1}`, 2_000));
}

function failure(label: string): Error {
  return new Error(`summariser failure ${label}`);
}

describe("a failed compaction", () => {
  it("leaves history and store untouched, reports compaction_failed and lets the query go on", async () => {
    const routed = routedClient({ main: [...bigTurns(1), answer("done")], compaction: [failure("a")] });
    const store = recordingJsonlStore();
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      tools: [fetchTool],
      historyStore: store,
      autoCompact,
    });

    const messages = await collect(agent.query("Go."));

    expect(lastResult(messages).subtype).toBe("success");
    const [failed] = systemMessages(messages, "compaction_failed");
    expect(failed).toMatchObject({ consecutive_failures: 1 });
    expect(failed!.error.message).toContain("summariser failure a");
    expect(store.replaced).toEqual([]);
    const history = await agent.getHistory();
    expect(history).toHaveLength(4);
    expect(history[0]).toEqual({ role: "user", content: "Go." });
    expect(await reloadJsonl(store.path)).toEqual(history);
  });

  it("a store that cannot take the replacement: reported and the query goes on, or with failOnError thrown with history intact", async () => {
    for (const failOnError of [false, true]) {
      const memory = createMemoryStore();
      const store = defineHistoryStore({
        load: memory.load,
        append: memory.append,
        replace: async () => {
          throw new Error("disk full");
        },
        failOnError,
      });
      const routed = routedClient({ main: [...bigTurns(1), answer("done")] });
      const agent = createAgent({
        model: MODEL,
        client: routed.client,
        tools: [fetchTool],
        historyStore: store,
        autoCompact,
      });

      if (!failOnError) {
        const messages = await collect(agent.query("Go."));
        expect(lastResult(messages).subtype).toBe("success");
        expect(kinds(messages)).toContain("system:store_error");
        expect(messageText((await agent.getHistory())[0])).toContain("SUMMARY-1");
        continue;
      }
      await expect(collect(agent.query("Go."))).rejects.toBeInstanceOf(HistoryStoreError);
      // Memory and store still agree: the compaction did not happen.
      const history = await agent.getHistory();
      expect(history[0]).toEqual({ role: "user", content: "Go." });
      expect(history).toEqual(memory.saved);
    }
  });

  it("reports a refused replacement in the query that compacted, even when the next request fails", async () => {
    const memory = createMemoryStore();
    const store = defineHistoryStore({
      load: memory.load,
      append: memory.append,
      replace: async () => {
        throw new Error("disk full");
      },
    });
    const badRequest = Object.assign(new Error("invalid request"), { status: 400 });
    const routed = routedClient({ main: [...bigTurns(1), badRequest] });
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      tools: [fetchTool],
      historyStore: store,
      autoCompact,
    });

    const messages = await collect(agent.query("Go."));

    expect(lastResult(messages).subtype).toBe("error_during_execution");
    const compaction = kinds(messages).indexOf("system:compaction");
    expect(compaction).toBeGreaterThan(-1);
    const notices = systemMessages(messages, "store_error");
    expect(notices.map((notice) => notice.operation)).toEqual(["replace"]);
    expect(messages.indexOf(notices[0]!)).toBeLessThan(compaction);
  });

  it("counts an empty summary as a failure rather than replacing history with nothing", async () => {
    const routed = routedClient({ main: [...bigTurns(1), answer("done")], compaction: [{ content: "   " }] });
    const agent = createAgent({ model: MODEL, client: routed.client, tools: [fetchTool], autoCompact });

    const messages = await collect(agent.query("Go."));

    expect(systemMessages(messages, "compaction_failed")).toHaveLength(1);
    expect((await agent.getHistory())[0]).toEqual({ role: "user", content: "Go." });
  });

  it("counts a refused summary (stop_reason refusal) as a failure rather than a summary", async () => {
    const routed = routedClient({
      main: [...bigTurns(1), answer("done")],
      compaction: [{ content: "I can't help with summarising", stop_reason: "refusal" }],
    });
    const agent = createAgent({ model: MODEL, client: routed.client, tools: [fetchTool], autoCompact });

    const messages = await collect(agent.query("Go."));

    expect(lastResult(messages).subtype).toBe("success");
    expect(systemMessages(messages, "compaction")).toEqual([]);
    expect(systemMessages(messages, "compaction_failed")[0]!.error.message).toMatch(/refus/);
    expect((await agent.getHistory())[0]).toEqual({ role: "user", content: "Go." });
  });

  it("retries a transient failure of the summary call, which then succeeds and counts as no failure", async () => {
    const overloaded = Object.assign(new Error("529 Overloaded"), { status: 529 });
    const routed = routedClient({
      main: [...bigTurns(1), answer("done")],
      compaction: [overloaded, { content: "SUMMARY-after-retry" }],
    });
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      tools: [fetchTool],
      autoCompact,
      _internal: { sleep: async () => {} },
    });

    const messages = await collect(agent.query("Go."));

    expect(kinds(messages)).toEqual([
      "system:init",
      "assistant",
      "user",
      "system:api_retry",
      "system:compaction",
      "assistant",
      "result:success",
    ]);
    expect(systemMessages(messages, "compaction_failed")).toEqual([]);
    expect(messageText((await agent.getHistory())[0])).toContain("SUMMARY-after-retry");
  });
});

describe("the compaction circuit breaker", () => {
  it("after three consecutive failures stops automatic compaction and says so once", async () => {
    const routed = routedClient({
      main: [...bigTurns(5), answer("done")],
      compaction: [failure("1"), failure("2"), failure("3")],
    });
    const agent = createAgent({ model: MODEL, client: routed.client, tools: [fetchTool], autoCompact });

    const messages = await collect(agent.query("Go."));

    expect(lastResult(messages).subtype).toBe("success");
    expect(routed.compactions()).toHaveLength(3);
    expect(
      systemMessages(messages, "compaction_failed").map((message) => message.consecutive_failures),
    ).toEqual([1, 2, 3]);
    const disabled = systemMessages(messages, "compaction_disabled");
    expect(disabled).toHaveLength(1);
    expect(disabled[0]!.reason).toMatch(/3 times/);
    const order = kinds(messages);
    expect(order.indexOf("system:compaction_disabled")).toBe(
      order.lastIndexOf("system:compaction_failed") + 1,
    );
    // Turns 5 and 6 were over the threshold too, and went out uncompacted.
    expect(routed.main()[5]!.messages[0]).toEqual({ role: "user", content: "Go." });
  });

  it("counts consecutive failures across queries of one agent", async () => {
    const routed = routedClient({
      main: [
        ...bigTurns(1, "a"),
        answer("one"),
        ...bigTurns(1, "b"),
        answer("two"),
        ...bigTurns(1, "c"),
        answer("three"),
        ...bigTurns(1, "d"),
        answer("four"),
      ],
      compaction: [failure("1"), failure("2"), failure("3")],
    });
    const agent = createAgent({ model: MODEL, client: routed.client, tools: [fetchTool], autoCompact });

    const counts: number[][] = [];
    let disabledNotices = 0;
    for (const prompt of ["one", "two", "three", "four"]) {
      const messages = await collect(agent.query(prompt));
      expect(lastResult(messages).subtype).toBe("success");
      counts.push(
        systemMessages(messages, "compaction_failed").map((message) => message.consecutive_failures),
      );
      disabledNotices += systemMessages(messages, "compaction_disabled").length;
    }

    // Each query's final answer reports little input, so each failure comes from that query's tool turn.
    expect(counts).toEqual([[1], [2], [3], []]);
    expect(disabledNotices).toBe(1);
    expect(routed.compactions()).toHaveLength(3);
  });

  it("a success in between resets the count", async () => {
    const routed = routedClient({
      main: [...bigTurns(5), answer("done")],
      compaction: [failure("1"), failure("2"), { content: "SUMMARY-ok" }, failure("3"), failure("4")],
    });
    const agent = createAgent({ model: MODEL, client: routed.client, tools: [fetchTool], autoCompact });

    const messages = await collect(agent.query("Go."));

    expect(
      systemMessages(messages, "compaction_failed").map((message) => message.consecutive_failures),
    ).toEqual([1, 2, 1, 2]);
    expect(systemMessages(messages, "compaction_disabled")).toEqual([]);
    expect(systemMessages(messages, "compaction")).toHaveLength(1);
  });

  it("leaves overflow recovery running once per query after it tripped", async () => {
    const exceeded: ScriptedStep = {
      content: "cut",
      stop_reason: "model_context_window_exceeded",
      usage: { input_tokens: 190_000, output_tokens: 1 },
    };
    const routed = routedClient({
      main: [
        ...bigTurns(3),
        answer("tripped"),
        fetchTurn("o1", 100),
        exceeded,
        answer("recovered"),
        fetchTurn("o2", 100),
        exceeded,
        exceeded,
      ],
      compaction: [
        failure("1"),
        failure("2"),
        failure("3"),
        { content: "SUMMARY-overflow" },
        { content: "SUMMARY-overflow-2" },
      ],
    });
    const agent = createAgent({ model: MODEL, client: routed.client, tools: [fetchTool], autoCompact });

    const first = await collect(agent.query("Trip the breaker."));
    expect(systemMessages(first, "compaction_disabled")).toHaveLength(1);

    const second = await collect(agent.query("Overflow once."));
    expect(lastResult(second).subtype).toBe("success");
    expect(lastResult(second).result).toBe("recovered");
    expect(systemMessages(second, "compaction")).toEqual([expect.objectContaining({ trigger: "overflow" })]);

    const third = await collect(agent.query("Overflow twice."));
    expect(lastResult(third).subtype).toBe("error_during_execution");
    expect(systemMessages(third, "compaction")).toHaveLength(1);
    expect(routed.compactions()).toHaveLength(5);
    expectWellFormed(await agent.getHistory());
  });
});
