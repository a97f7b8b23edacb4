/**
 * Compaction under cancellation and alongside structured output: an abort or interrupt during the
 * summarising call ends the query as such and leaves the previous history (and its store) intact;
 * a summary past its deadline is a failed compaction; `outputSchema` runs undisturbed.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  AbortError,
  createAgent,
  type Hooks,
  type ModelMessage,
  SUBMIT_OUTPUT_TOOL_NAME,
  TimeoutError,
} from "../../src/index";
import type { ScriptedStep } from "../../src/testing/index";
import {
  answer,
  fetchTool,
  fetchTurn,
  messageText,
  recordingJsonlStore,
  reloadJsonl,
  routedClient,
  systemMessages,
} from "./compaction-support";
import { collect, expectWellFormed, lastResult, MODEL } from "./support";

const autoCompact = { thresholdTokens: 1_000, keepRecentMessages: 2 };

/** A summary step that runs `action` once the request is in flight, then never answers. */
function hangingSummary(action: () => void): ScriptedStep {
  return () => {
    setTimeout(action, 0);
    return { content: "never", hang: true };
  };
}

/** Records a copy of the history each compaction is about to replace. */
function historyRecorder() {
  const seen: ModelMessage[][] = [];
  const hooks: Hooks = {
    preCompact: [{ handler: ({ messages }) => void seen.push(structuredClone([...messages])) }],
  };
  return { seen, hooks };
}

describe("compaction and cancellation", () => {
  it("an abort during the summary call ends error_abort; history and store stay as they were", async () => {
    const controller = new AbortController();
    const routed = routedClient({
      main: [fetchTurn("t1", 100), fetchTurn("t2", 2_000)],
      compaction: [hangingSummary(() => controller.abort(new Error("user left")))],
    });
    const store = recordingJsonlStore();
    const recorder = historyRecorder();
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      tools: [fetchTool],
      historyStore: store,
      autoCompact,
      hooks: recorder.hooks,
    });

    const messages = await collect(agent.query("Go.", { signal: controller.signal }));

    const result = lastResult(messages);
    expect(result.subtype).toBe("error_abort");
    expect(result.is_error).toBe(true);
    expect(result.error).toBeInstanceOf(AbortError);
    expect(systemMessages(messages, "compaction")).toEqual([]);
    expect(systemMessages(messages, "compaction_failed")).toEqual([]);
    const history = await agent.getHistory();
    expect(history).toEqual(recorder.seen[0]);
    expectWellFormed(history);
    expect(store.replaced).toEqual([]);
    expect(await reloadJsonl(store.path)).toEqual(history);
  });

  it("an interrupt during the summary call ends interrupted; history and store stay as they were", async () => {
    let interrupt = () => {};
    const routed = routedClient({
      main: [fetchTurn("t1", 2_000), answer("after")],
      compaction: [hangingSummary(() => interrupt()), { content: "SUMMARY-again" }],
    });
    const store = recordingJsonlStore();
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      tools: [fetchTool],
      historyStore: store,
      autoCompact,
    });
    interrupt = () => agent.interrupt();

    const result = await agent.prompt("Go.");

    expect(result.subtype).toBe("interrupted");
    expect(result.is_error).toBe(false);
    const history = await agent.getHistory();
    expect(history).toHaveLength(3);
    expect(history[0]).toEqual({ role: "user", content: "Go." });
    expect(store.replaced).toEqual([]);
    expect(await reloadJsonl(store.path)).toEqual(history);
    // The agent is usable afterwards: the interrupted attempt is made again on the next query.
    const next = await collect(agent.query("Again."));
    expect(lastResult(next).result).toBe("after");
    expect(systemMessages(next, "compaction")).toHaveLength(1);
    expect(messageText((await agent.getHistory())[0])).toContain("SUMMARY-again");
    expect(await reloadJsonl(store.path)).toEqual(await agent.getHistory());
  });

  it("an abort during overflow recovery ends error_abort rather than surfacing the overflow", async () => {
    const controller = new AbortController();
    const routed = routedClient({
      main: [
        fetchTurn("t1", 100),
        {
          content: "cut",
          stop_reason: "model_context_window_exceeded",
          usage: { input_tokens: 1, output_tokens: 1 },
        },
      ],
      compaction: [hangingSummary(() => controller.abort())],
    });
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      tools: [fetchTool],
      autoCompact: { thresholdTokens: 10_000_000, keepRecentMessages: 2 },
    });

    const result = await agent.prompt("Go.", { signal: controller.signal });

    expect(result.subtype).toBe("error_abort");
    expect(await agent.getHistory()).toHaveLength(3);
  });

  it("a summary past the request deadline is a failed compaction and the query goes on", async () => {
    const routed = routedClient({
      main: [fetchTurn("t1", 2_000), answer("done")],
      compaction: [{ content: "never", hang: true }],
    });
    const agent = createAgent({ model: MODEL, client: routed.client, tools: [fetchTool], autoCompact });

    const messages = await collect(agent.query("Go.", { requestTimeoutMs: 50 }));

    expect(lastResult(messages).subtype).toBe("success");
    const [failed] = systemMessages(messages, "compaction_failed");
    expect(failed!.error).toBeInstanceOf(TimeoutError);
    expect(routed.main()[1]!.messages[0]).toEqual({ role: "user", content: "Go." });
  });
});

describe("compaction and a consumer that stops early", () => {
  it("a consumer leaving at a notice of the summary does not let the next query run under a rewrite still in progress", async () => {
    // The summariser's model has no price: its notice is yielded while the compaction goes on to
    // replace the stored history, which this store holds until `openGate` is called.
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => {
      openGate = resolve;
    });
    let replaceStarted!: () => void;
    const replacing = new Promise<void>((resolve) => {
      replaceStarted = resolve;
    });
    const jsonl = recordingJsonlStore();
    const store = {
      ...jsonl,
      replace: async (messages: ModelMessage[]) => {
        replaceStarted();
        await gate;
        return jsonl.replace(messages);
      },
    };
    const routed = routedClient({ main: [answer("one", 2_000), answer("two"), answer("three")] });
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      historyStore: store,
      autoCompact: { ...autoCompact, keepRecentMessages: 1, model: "summariser-without-price" },
    });
    await agent.prompt("First.");

    const consumer = (async () => {
      for await (const message of agent.query("Second.")) {
        if (message.type === "system" && message.subtype === "unknown_pricing") break;
      }
    })();
    await replacing;
    await new Promise((resolve) => setImmediate(resolve));
    // Whatever the agent answers now — refused while the query still runs, or run — nothing of it
    // may be lost once the rewrite ends.
    const third = agent.prompt("Third.").catch((error: unknown) => error);
    openGate();
    await consumer;
    const outcome = await third;
    const history = await agent.getHistory();
    expectWellFormed(history);
    if (outcome instanceof Error) expect(outcome.name).toBe("ConcurrentQueryError");
    else expect(history.map(messageText)).toContain("Third.");
    expect(await reloadJsonl(jsonl.path)).toEqual(history);
    await agent.close();
  });
});

describe("compaction with outputSchema", () => {
  const Answer = z.object({ answer: z.number() });

  it("compacts mid-run and still ends with the validated structured result", async () => {
    const routed = routedClient({
      main: [
        fetchTurn("t1", 100),
        fetchTurn("t2", 2_000),
        {
          content: [{ type: "tool_use", id: "s1", name: SUBMIT_OUTPUT_TOOL_NAME, input: { answer: 42 } }],
          usage: { input_tokens: 300, output_tokens: 12 },
        },
      ],
    });
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      tools: [fetchTool],
      autoCompact,
      outputSchema: Answer,
    });

    const messages = await collect(agent.query("Compute the answer."));

    const result = lastResult(messages);
    expect(result.subtype).toBe("success");
    expect(result.structuredResult).toEqual({ answer: 42 });
    expect(systemMessages(messages, "compaction")).toHaveLength(1);
    expect(routed.compactions()[0]!.tools).toBeUndefined();
    const afterCompaction = routed.main()[2]!;
    expect(messageText(afterCompaction.messages[0])).toContain("SUMMARY-1");
    expect(afterCompaction.tools?.map((tool) => tool.name)).toEqual(["fetch", SUBMIT_OUTPUT_TOOL_NAME]);
    expectWellFormed(await agent.getHistory());
  });

  it("a submission rejected by the schema is kept with its error across a compaction", async () => {
    const routed = routedClient({
      main: [
        {
          content: [
            { type: "tool_use", id: "s1", name: SUBMIT_OUTPUT_TOOL_NAME, input: { answer: "forty-two" } },
          ],
          usage: { input_tokens: 2_000, output_tokens: 12 },
        },
        {
          content: [{ type: "tool_use", id: "s2", name: SUBMIT_OUTPUT_TOOL_NAME, input: { answer: 42 } }],
          usage: { input_tokens: 300, output_tokens: 12 },
        },
      ],
    });
    const agent = createAgent({
      model: MODEL,
      client: routed.client,
      autoCompact: { thresholdTokens: 1_000, keepRecentMessages: 2 },
      outputSchema: Answer,
    });

    const result = await agent.prompt("Compute the answer.");

    expect(result.structuredResult).toEqual({ answer: 42 });
    const sent = routed.main()[1]!.messages;
    expect(messageText(sent[0])).toContain("SUMMARY-1");
    // The rejected call and its error result were kept together, so the model sees why.
    expect(sent[1]).toMatchObject({ role: "assistant", content: [{ type: "tool_use", id: "s1" }] });
    expect(sent[2]).toMatchObject({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "s1", is_error: true }],
    });
  });
});
