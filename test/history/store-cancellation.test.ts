/**
 * The query's signal bounds its store calls: a `load` or a write that hangs does not hold an
 * aborted query. An abandoned write goes on in the background; later writes wait for it and one
 * whole `replace` then catches the store up, so the store ends equal to memory and writes never
 * overtake each other. `close()` waits for that.
 */
import { describe, expect, it } from "vitest";
import {
  ConversationConflictError,
  createAgent,
  type HistoryStore,
  type ModelMessage,
} from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import {
  collect,
  type Deferred,
  deferred,
  expectWellFormed,
  lastResult,
  toolUse,
  within,
} from "../loop/support";

/** An in-memory store whose next `op` call waits for `gate` (and records the calls it gets). */
function gatedStore(initial: ModelMessage[] = [], options: { failOnError?: boolean } = {}) {
  let saved = structuredClone(initial);
  const calls: string[] = [];
  const gates: Partial<Record<"load" | "append" | "replace", { gate: Deferred<void>; skip: number }>> = {};
  const entered = deferred();
  const pass = async (op: "load" | "append" | "replace") => {
    calls.push(op);
    const held = gates[op];
    if (!held) return;
    if (held.skip > 0) {
      held.skip -= 1;
      return;
    }
    delete gates[op];
    entered.resolve();
    await held.gate.promise;
  };
  const store: HistoryStore = {
    failOnError: options.failOnError ?? false,
    async load() {
      await pass("load");
      return structuredClone(saved);
    },
    async append(message) {
      await pass("append");
      saved.push(structuredClone(message));
    },
    async replace(messages) {
      await pass("replace");
      saved = structuredClone(messages);
    },
  };
  return {
    store,
    calls,
    entered: entered.promise,
    saved: () => saved,
    /** Makes a call of `op` (the next, or the one after `skip` more) hang until the returned deferred settles. */
    hold(op: "load" | "append" | "replace", skip = 0): Deferred<void> {
      const gate = deferred();
      gates[op] = { gate, skip };
      return gate;
    },
  };
}

describe("a store call that hangs, and the query's signal", () => {
  it("a hung load: the query ends error_abort at once; the load goes on and the next query uses it", async () => {
    const gated = gatedStore([
      { role: "user", content: "earlier" },
      { role: "assistant", content: [{ type: "text", text: "noted" }] },
    ]);
    const gate = gated.hold("load");
    const client = createScriptedClient([{ content: "Again." }]);
    const agent = createAgent({ model: "m", client, historyStore: gated.store });
    const controller = new AbortController();

    const pending = agent.prompt("Hello", { signal: controller.signal });
    await gated.entered;
    controller.abort(new Error("user left"));
    const result = await within(pending, 2_000);

    expect(result).not.toBe("still pending");
    expect((result as Awaited<typeof pending>).subtype).toBe("error_abort");
    expect(client.callCount).toBe(0);

    gate.resolve();
    const next = await agent.prompt("Once more");
    expect(next.subtype).toBe("success");
    expect(client.requests[0]!.messages).toEqual([
      { role: "user", content: "earlier" },
      { role: "assistant", content: [{ type: "text", text: "noted" }] },
      { role: "user", content: "Once more" },
    ]);
    await agent.close();
  });

  it("a hung append of the final answer: the query ends within the grace (the answer complete: success); the store catches up once it answers", async () => {
    const gated = gatedStore();
    const client = createScriptedClient([{ content: "The answer." }, { content: "A second answer." }]);
    const agent = createAgent({ model: "m", client, historyStore: gated.store });
    const controller = new AbortController();
    // The prompt's append passes; the assistant's hangs.
    const gate = gated.hold("append", 1);
    const pending = collect(agent.query("Hello", { signal: controller.signal }));
    await gated.entered;
    controller.abort(new Error("user left"));
    const messages = await within(pending, 2_000);

    expect(messages).not.toBe("still pending");
    // The answer had fully arrived before the abort: it is the result, though its write still hangs.
    expect(lastResult(messages as Exclude<typeof messages, string>)).toMatchObject({
      subtype: "success",
      result: "The answer.",
    });

    // A second query while the abandoned write still hangs: it runs in memory, its writes wait.
    const second = await within(agent.prompt("And then?"), 2_000);
    expect(second).not.toBe("still pending");
    expect(gated.saved()).toEqual([{ role: "user", content: "Hello" }]);

    gate.resolve();
    await agent.close(); // waits for the background write and the catch-up
    const history = await agent.getHistory();
    expectWellFormed(history);
    expect(history.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(gated.saved()).toEqual(history);
    // The hung append, then one replace with everything: nothing overtook it.
    expect(gated.calls.slice(-2)).toEqual(["append", "replace"]);
  });

  it("an abandoned write that fails later is reported at the start of the next query, not thrown", async () => {
    const gated = gatedStore([], { failOnError: true });
    const client = createScriptedClient([{ content: "The answer." }, { content: "Next." }]);
    const agent = createAgent({ model: "m", client, historyStore: gated.store });
    const controller = new AbortController();
    const gate = gated.hold("append", 1);
    const pending = collect(agent.query("Hello", { signal: controller.signal }));
    await gated.entered;
    controller.abort(new Error("user left"));
    await pending;

    gate.reject(new Error("disk full"));
    await new Promise((resolve) => setTimeout(resolve, 10));
    const messages = await collect(agent.query("Next?"));

    const notices = messages.filter(
      (message) => message.type === "system" && message.subtype === "store_error",
    );
    expect(notices).toHaveLength(1);
    expect(String((notices[0] as { error: Error }).error.message)).toContain("disk full");
    expect(lastResult(messages).subtype).toBe("success");
    await agent.close();
    expect(gated.saved()).toEqual(await agent.getHistory());
  });

  it("a write started after the abort that hangs: the query ends within the grace, the store catches up later", async () => {
    const gated = gatedStore();
    const controller = new AbortController();
    const abortingTool = {
      name: "work",
      inputSchema: { type: "object" },
      readOnly: false,
      parseInput: (input: unknown) => ({ ok: true as const, value: input }),
      execute: () => {
        controller.abort(new Error("user left"));
        return "partial work";
      },
    };
    const client = createScriptedClient([{ content: [toolUse("w1", "work")] }]);
    const agent = createAgent({ model: "m", client, historyStore: gated.store, tools: [abortingTool] });
    // The prompt's and the assistant's appends pass; the tool results' append (after the abort) hangs.
    const gate = gated.hold("append", 2);

    const result = await within(agent.prompt("go", { signal: controller.signal }), 5_000);

    expect(result).not.toBe("still pending");
    expect((result as { subtype: string }).subtype).toBe("error_abort");
    gate.resolve();
    await agent.close();
    const history = await agent.getHistory();
    expectWellFormed(history);
    expect(history.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
    expect(gated.saved()).toEqual(history);
  });

  it("a load abandoned by an aborted query, finishing after replaceHistory(), does not undo the replacement", async () => {
    const gated = gatedStore([
      { role: "user", content: "old question" },
      { role: "assistant", content: [{ type: "text", text: "old answer" }] },
    ]);
    const gate = gated.hold("load");
    const agent = createAgent({ model: "m", client: createScriptedClient([]), historyStore: gated.store });
    const controller = new AbortController();
    const pending = agent.prompt("q", { signal: controller.signal });
    await gated.entered;
    controller.abort(new Error("user left"));
    expect((await pending).subtype).toBe("error_abort");

    const replacement: ModelMessage[] = [
      { role: "user", content: "NEW start" },
      { role: "assistant", content: [{ type: "text", text: "NEW reply" }] },
    ];
    await agent.replaceHistory(replacement);
    gate.resolve();
    await new Promise((resolve) => setTimeout(resolve, 20));

    expect(await agent.getHistory()).toEqual(replacement);
    expect(gated.saved()).toEqual(replacement);
    await agent.close();
  });

  it("an abandoned write refused as a conflict is reported and never followed by a replace", async () => {
    const gated = gatedStore();
    const client = createScriptedClient([{ content: "The answer." }]);
    const agent = createAgent({ model: "m", client, historyStore: gated.store });
    const controller = new AbortController();
    const gate = gated.hold("append", 1);
    const pending = collect(agent.query("Hello", { signal: controller.signal }));
    await gated.entered;
    controller.abort(new Error("user left"));
    await pending;

    gate.reject(new ConversationConflictError("c-1"));
    await agent.close();

    expect(gated.calls).not.toContain("replace");
  });

  it("a load abandoned during its merge write: later writes wait for it, and the store ends equal to memory", async () => {
    const gated = gatedStore();
    let loadFailures = 1;
    const failingOnce: HistoryStore = {
      ...gated.store,
      load: async () => {
        if (loadFailures-- > 0) throw new Error("connection refused");
        return gated.store.load();
      },
    };
    const client = createScriptedClient([{ content: "First." }, { content: "Third." }]);
    const agent = createAgent({ model: "m", client, historyStore: failingOnce });

    // 1: the load fails; the turn is held in memory.
    expect((await agent.prompt("one")).subtype).toBe("success");
    // 2: the load succeeds and writes the held turn with a replace, which hangs; the query is aborted.
    const gate = gated.hold("replace");
    const controller = new AbortController();
    const second = agent.prompt("two", { signal: controller.signal });
    await gated.entered;
    controller.abort(new Error("user left"));
    expect((await within(second, 2_000)) as { subtype: string }).toMatchObject({ subtype: "error_abort" });
    // 3: runs while that write still hangs; its writes must not overtake it.
    expect((await agent.prompt("three")).subtype).toBe("success");
    gate.resolve();
    await agent.close();

    const history = await agent.getHistory();
    expect(history.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(gated.saved()).toEqual(history);
  });
});
