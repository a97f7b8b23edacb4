/**
 * The HistoryStore lifecycle as the Agent drives it: one lazy load before the first query, an
 * append after every message that enters history, replace on rewrites, crash repair persisted,
 * failures reported (or thrown with failOnError), and replaceHistory counting as loaded.
 */
import { describe, expect, it } from "vitest";
import {
  ConversationConflictError,
  createAgent,
  defineHistoryStore,
  type HistoryStore,
  HistoryStoreError,
  isWellFormedHistory,
  type ModelMessage,
  type SDKMessage,
} from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { collect } from "../support/query-messages";

type Call =
  | { op: "load" }
  | { op: "append"; message: ModelMessage }
  | { op: "replace"; messages: ModelMessage[] };

/** An in-memory store that records every call and can be told to fail. */
function recordingStore(initial: ModelMessage[] = [], options: { failOnError?: boolean } = {}) {
  const calls: Call[] = [];
  let stored = structuredClone(initial);
  const failures = {
    load: undefined as Error | undefined,
    append: undefined as Error | undefined,
    replace: undefined as Error | undefined,
  };
  const failingOnce = new Set<keyof typeof failures>();
  /** Throws the failure set for `op`, clearing it when it was set by `failOnce`. */
  const check = (op: keyof typeof failures) => {
    const failure = failures[op];
    if (!failure) return;
    if (failingOnce.delete(op)) failures[op] = undefined;
    throw failure;
  };
  const store: HistoryStore = defineHistoryStore({
    failOnError: options.failOnError,
    async load() {
      calls.push({ op: "load" });
      check("load");
      return structuredClone(stored);
    },
    async append(message) {
      calls.push({ op: "append", message: structuredClone(message) });
      check("append");
      stored.push(structuredClone(message));
    },
    async replace(messages) {
      calls.push({ op: "replace", messages: structuredClone(messages) });
      check("replace");
      stored = structuredClone(messages);
    },
  });
  /** Makes the next call of `op` fail with `error`, and only that one. */
  const failOnce = (op: keyof typeof failures, error: Error) => {
    failures[op] = error;
    failingOnce.add(op);
  };
  return { store, calls, failures, failOnce, stored: () => stored };
}

/** A transcript left by a process that died between storing a tool call and its result. */
const crashedTranscript: ModelMessage[] = [
  { role: "user", content: "deploy" },
  { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "deploy", input: {} }] },
];

const toolTurn = (id: string) => ({ content: [{ type: "tool_use" as const, id, name: "noop", input: {} }] });

describe("HistoryStore lifecycle", () => {
  it("loads lazily, once per Agent, before the first query — and continues from what it held", async () => {
    const earlier: ModelMessage[] = [
      { role: "user", content: "My name is Ada." },
      { role: "assistant", content: [{ type: "text", text: "Hello Ada." }] },
    ];
    const recording = recordingStore(earlier);
    const client = createScriptedClient([{ content: "You are Ada." }, { content: "Still Ada." }]);
    const agent = createAgent({ model: "m", client, historyStore: recording.store });
    expect(recording.calls).toEqual([]); // nothing at creation

    await agent.prompt("What is my name?");
    await agent.prompt("And now?");
    expect(recording.calls.filter((call) => call.op === "load")).toHaveLength(1);
    expect(recording.calls[0]).toEqual({ op: "load" });
    expect(client.requests[0]!.messages.slice(0, 2)).toEqual(earlier);
  });

  it("appends after every message that enters history, in order, and the store equals memory", async () => {
    const recording = recordingStore();
    const client = createScriptedClient([toolTurn("t1"), { content: "done" }]);
    const noop = {
      name: "noop",
      inputSchema: { type: "object" },
      readOnly: true,
      parseInput: (input: unknown) => ({ ok: true as const, value: input }),
      execute: () => "ok",
    };
    const agent = createAgent({ model: "m", client, historyStore: recording.store, tools: [noop] });
    await agent.prompt("go");
    const history = await agent.getHistory();
    const appended = recording.calls.flatMap((call) => (call.op === "append" ? [call.message] : []));
    expect(appended.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(appended).toEqual(history);
    expect(recording.stored()).toEqual(history);
  });

  it("by default a failing store is reported (store_error) and the conversation continues in memory", async () => {
    const recording = recordingStore();
    recording.failures.append = new Error("disk full");
    const agent = createAgent({
      model: "m",
      client: createScriptedClient([{ content: "hi" }]),
      historyStore: recording.store,
    });
    const messages = await collect(agent.query("hello"));
    const result = messages.at(-1)!;
    expect(result.type === "result" && result.subtype).toBe("success");
    const errors = messages.filter(
      (message) => message.type === "system" && message.subtype === "store_error",
    );
    expect(errors.length).toBeGreaterThan(0);
    const first = errors[0] as Extract<SDKMessage, { subtype: "store_error" }>;
    expect(first.operation).toBe("append");
    expect(first.error).toBeInstanceOf(HistoryStoreError);
    expect(first.error.message).toContain("disk full");
    expect(await agent.getHistory()).toHaveLength(2);
  });

  it("after a failed append the next write replaces the whole history, so the store never keeps a hole", async () => {
    const recording = recordingStore();
    recording.failOnce("append", new Error("connection reset by peer"));
    const client = createScriptedClient([toolTurn("t1"), { content: "done" }]);
    const noop = {
      name: "noop",
      inputSchema: { type: "object" },
      readOnly: true,
      parseInput: (input: unknown) => ({ ok: true as const, value: input }),
      execute: () => "ok",
    };
    const agent = createAgent({ model: "m", client, historyStore: recording.store, tools: [noop] });

    const messages = await collect(agent.query("go"));

    expect(
      messages.filter((message) => message.type === "system" && message.subtype === "store_error"),
    ).toHaveLength(1);
    const history = await agent.getHistory();
    expect(history.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(recording.stored()).toEqual(history);
    // One whole replace caught the store up; then appends resumed.
    expect(recording.calls.map((call) => call.op)).toEqual(["load", "append", "replace", "append", "append"]);

    // A new agent on the same store resumes the whole conversation.
    const resumed = createAgent({
      model: "m",
      client: createScriptedClient([]),
      historyStore: recording.store,
    });
    expect(await resumed.getHistory()).toEqual(history);
  });

  it("a failing load is reported and the agent starts from an empty history", async () => {
    const recording = recordingStore([{ role: "user", content: "lost" }]);
    recording.failures.load = new Error("connection refused");
    const client = createScriptedClient([{ content: "hi" }]);
    const agent = createAgent({ model: "m", client, historyStore: recording.store });
    const messages = await collect(agent.query("hello"));
    expect(
      messages.some(
        (message) =>
          message.type === "system" && message.subtype === "store_error" && message.operation === "load",
      ),
    ).toBe(true);
    expect(client.requests[0]!.messages).toEqual([{ role: "user", content: "hello" }]);
  });

  it("after a failed load nothing is written over the stored conversation; the load is retried before the next query", async () => {
    const recording = recordingStore(crashedTranscript);
    recording.failOnce("load", new Error("connection reset by peer"));
    const client = createScriptedClient([{ content: "hi" }, { content: "checking" }]);
    const agent = createAgent({ model: "m", client, historyStore: recording.store });
    expect((await agent.prompt("hello")).subtype).toBe("success");
    expect(recording.calls.map((call) => call.op)).toEqual(["load"]);
    expect(recording.stored()).toEqual(crashedTranscript);

    await agent.prompt("what happened?");
    const sent = client.requests[1]!.messages;
    expect(isWellFormedHistory(sent)).toBe(true);
    // The stored conversation (repaired) first, then what the agent said while it could not read it.
    expect(sent.slice(0, 2)).toEqual(crashedTranscript);
    expect(sent.slice(3).map((message) => message.content)).toEqual([
      "hello",
      [{ type: "text", text: "hi" }],
      "what happened?",
    ]);
    expect(recording.calls.map((call) => call.op)).toEqual(["load", "load", "replace", "append", "append"]);
    expect(recording.stored()).toEqual(await agent.getHistory());
  });

  it("a compaction after a failed load writes nothing over the stored conversation, which the next load brings back", async () => {
    const stored: ModelMessage[] = [
      { role: "user", content: "The deploy key is in vault path ops/deploy." },
      { role: "assistant", content: [{ type: "text", text: "Noted." }] },
    ];
    const recording = recordingStore(stored);
    recording.failOnce("load", new Error("connection reset by peer"));
    const noop = {
      name: "noop",
      inputSchema: { type: "object" },
      readOnly: true,
      parseInput: (input: unknown) => ({ ok: true as const, value: input }),
      execute: () => "ok",
    };
    const client = createScriptedClient([
      { ...toolTurn("t1"), usage: { input_tokens: 150_000, output_tokens: 10 } },
      { content: "SUMMARY: the user said hello." },
      { content: "done" },
      { content: "It is in ops/deploy." },
    ]);
    const agent = createAgent({
      model: "m",
      client,
      tools: [noop],
      historyStore: recording.store,
      autoCompact: { keepRecentMessages: 1 },
    });
    const first = await collect(agent.query("hello"));
    expect(first.some((message) => message.type === "system" && message.subtype === "compaction")).toBe(true);
    // Nothing was written: the store still holds the conversation the agent could not read.
    expect(recording.calls.map((call) => call.op)).toEqual(["load"]);
    expect(recording.stored()).toEqual(stored);

    await agent.prompt("Where is the deploy key?");
    expect(recording.calls.filter((call) => call.op === "load")).toHaveLength(2);
    const sent = client.requests[3]!.messages;
    expect(isWellFormedHistory(sent)).toBe(true);
    expect(sent.slice(0, 2)).toEqual(stored);
    expect(recording.stored()).toEqual(await agent.getHistory());
  });

  it("with failOnError, store failures propagate out of query() and prompt(), and the guard is released", async () => {
    const recording = recordingStore([], { failOnError: true });
    recording.failures.append = new Error("disk full");
    const agent = createAgent({
      model: "m",
      client: createScriptedClient([{ content: "a" }, { content: "b" }]),
      historyStore: recording.store,
    });
    await expect(agent.prompt("one")).rejects.toBeInstanceOf(HistoryStoreError);
    await expect(collect(agent.query("two"))).rejects.toThrow(/disk full/);
    recording.failures.append = undefined;
    const result = await agent.prompt("three");
    expect(result.subtype).toBe("success");
  });

  it("a write conflict from another Agent always propagates, even without failOnError", async () => {
    const recording = recordingStore();
    recording.failures.append = new ConversationConflictError("conv-1", "version 3 expected, found 4");
    const agent = createAgent({
      model: "m",
      client: createScriptedClient([{ content: "a" }]),
      historyStore: recording.store,
    });
    const failure = await agent.prompt("one").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConversationConflictError);
    expect((failure as ConversationConflictError).conversationId).toBe("conv-1");
  });

  it("replaceHistory replaces the store too and counts as loaded (no later lazy load overwrites it)", async () => {
    const recording = recordingStore([
      { role: "user", content: "old" },
      { role: "assistant", content: [{ type: "text", text: "old answer" }] },
    ]);
    const client = createScriptedClient([{ content: "fresh" }]);
    const agent = createAgent({ model: "m", client, historyStore: recording.store });
    const replacement: ModelMessage[] = [
      { role: "user", content: "new start" },
      { role: "assistant", content: [{ type: "text", text: "ok" }] },
    ];
    await agent.replaceHistory(replacement);
    expect(recording.calls).toEqual([{ op: "replace", messages: replacement }]);
    await agent.prompt("continue");
    expect(recording.calls.some((call) => call.op === "load")).toBe(false);
    expect(client.requests[0]!.messages.slice(0, 2)).toEqual(replacement);
    expect(recording.stored()).toEqual(await agent.getHistory());
  });

  it("repairs a tail left by a crash (tool_use without result) on load, and persists the repair", async () => {
    const crashed: ModelMessage[] = [
      { role: "user", content: "deploy" },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "deploy", input: {} }] },
    ];
    const recording = recordingStore(crashed);
    const client = createScriptedClient([{ content: "I will check whether the deploy happened." }]);
    const agent = createAgent({ model: "m", client, historyStore: recording.store });
    await agent.prompt("what happened?");
    const sent = client.requests[0]!.messages;
    expect(isWellFormedHistory(sent)).toBe(true);
    const repair = sent[2]!;
    expect(repair.role).toBe("user");
    const block = (
      repair.content as Array<{ type: string; tool_use_id?: string; is_error?: boolean; content?: unknown }>
    )[0]!;
    expect(block).toMatchObject({ type: "tool_result", tool_use_id: "t1", is_error: true });
    expect(String(block.content)).toMatch(/never recorded/i);
    expect(recording.calls[1]?.op).toBe("replace");
    expect(recording.stored()).toEqual(await agent.getHistory());
  });

  it("with failOnError, a crash repair that could not be written is written before the next append", async () => {
    const recording = recordingStore(crashedTranscript, { failOnError: true });
    recording.failOnce("replace", new Error("database is read-only for a moment"));
    const agent = createAgent({
      model: "m",
      client: createScriptedClient([{ content: "checking" }, { content: "done" }]),
      historyStore: recording.store,
    });
    await expect(agent.prompt("what happened?")).rejects.toThrow(/read-only/);
    expect((await agent.prompt("what happened?")).subtype).toBe("success");
    await agent.prompt("and now?");
    expect(isWellFormedHistory(recording.stored())).toBe(true);
    expect(recording.stored()).toEqual(await agent.getHistory());
  });

  it("without failOnError, a crash repair that could not be written is retried instead of appending after the broken tail", async () => {
    const recording = recordingStore(crashedTranscript);
    recording.failOnce("replace", new Error("lock timeout"));
    const agent = createAgent({
      model: "m",
      client: createScriptedClient([{ content: "checking" }]),
      historyStore: recording.store,
    });
    const messages = await collect(agent.query("what happened?"));
    const errors = messages.filter(
      (message) => message.type === "system" && message.subtype === "store_error",
    );
    expect(errors.map((error) => (error as { operation: string }).operation)).toEqual(["replace"]);
    expect(recording.calls.map((call) => call.op)).toEqual(["load", "replace", "replace", "append"]);
    expect(isWellFormedHistory(recording.stored())).toBe(true);
    expect(recording.stored()).toEqual(await agent.getHistory());
  });

  it("a replaceHistory that could not be written is written whole before the next append", async () => {
    const recording = recordingStore([{ role: "user", content: "old" }]);
    recording.failOnce("replace", new Error("read-only database"));
    const agent = createAgent({
      model: "m",
      client: createScriptedClient([{ content: "fresh" }]),
      historyStore: recording.store,
    });
    await agent.replaceHistory([
      { role: "user", content: "new start" },
      { role: "assistant", content: [{ type: "text", text: "ok" }] },
    ]);
    await agent.prompt("continue");
    expect(recording.stored()).toEqual(await agent.getHistory());
  });

  it("a failure outside a query (replaceHistory) is reported at the start of the next query", async () => {
    const recording = recordingStore();
    recording.failures.replace = new Error("read-only database");
    const agent = createAgent({
      model: "m",
      client: createScriptedClient([{ content: "hi" }]),
      historyStore: recording.store,
    });
    await agent.replaceHistory([
      { role: "user", content: "x" },
      { role: "assistant", content: [{ type: "text", text: "y" }] },
    ]);
    recording.failures.replace = undefined;
    const messages = await collect(agent.query("hello"));
    // Right after `init`, which is always first.
    expect(messages.slice(0, 2).map((message) => message.type === "system" && message.subtype)).toEqual([
      "init",
      "store_error",
    ]);
  });
});
