/**
 * One Agent holds one conversation: a second query while one runs is rejected with
 * ConcurrentQueryError, and the guard is released however the first query ends.
 */
import { describe, expect, it } from "vitest";
import {
  ConcurrentQueryError,
  createAgent,
  defineHistoryStore,
  HistoryStoreError,
  type ModelMessage,
} from "../../src/index";
import { createScriptedClient, type ScriptedClient } from "../../src/testing/index";
import { collect, deferred, MODEL } from "../loop/support";

/** A client whose first answer waits until `release` is called. */
function gatedClient(): { client: ScriptedClient; release: () => void; started: Promise<void> } {
  const gate = deferred();
  const started = deferred();
  const client = createScriptedClient([
    async () => {
      started.resolve();
      await gate.promise;
      return { content: "first" };
    },
  ]);
  return { client, release: () => gate.resolve(), started: started.promise };
}

describe("ConcurrentQueryError", () => {
  it("rejects a second prompt() while one runs, and the first finishes untouched", async () => {
    const { client, release, started } = gatedClient();
    const agent = createAgent({ model: MODEL, client });
    const first = agent.prompt("one");
    await started;

    const second = agent.prompt("two");
    await expect(second).rejects.toBeInstanceOf(ConcurrentQueryError);
    await expect(second).rejects.toBeInstanceOf(Error);

    release();
    expect((await first).result).toBe("first");
    expect(client.callCount).toBe(1);
    expect(await agent.getHistory()).toEqual([
      { role: "user", content: "one" },
      expect.objectContaining({ role: "assistant" }),
    ]);
  });

  it("query() throws on its first iteration, not when it is created", async () => {
    const { client, release, started } = gatedClient();
    const agent = createAgent({ model: MODEL, client });
    const first = agent.prompt("one");
    await started;

    const second = agent.query("two");
    await expect(second.next()).rejects.toBeInstanceOf(ConcurrentQueryError);

    release();
    await first;
  });

  it("streamInput() is rejected too", async () => {
    const { client, release, started } = gatedClient();
    const agent = createAgent({ model: MODEL, client });
    const first = agent.prompt("one");
    await started;

    await expect(collect(agent.streamInput(["two"]))).rejects.toBeInstanceOf(ConcurrentQueryError);

    release();
    await first;
  });

  it("a running query() blocks prompt() and replaceHistory()", async () => {
    const { client, release, started } = gatedClient();
    const agent = createAgent({ model: MODEL, client });
    const running = collect(agent.query("one"));
    await started;

    await expect(agent.prompt("two")).rejects.toBeInstanceOf(ConcurrentQueryError);
    await expect(agent.replaceHistory([])).rejects.toBeInstanceOf(ConcurrentQueryError);

    release();
    await running;
    await agent.replaceHistory([]);
    expect(await agent.getHistory()).toEqual([]);
  });

  it("prompt() takes the guard synchronously, before it returns", async () => {
    const client = createScriptedClient([{ content: "only" }]);
    const agent = createAgent({ model: MODEL, client });

    const first = agent.prompt("one");
    const second = agent.prompt("two");

    await expect(second).rejects.toBeInstanceOf(ConcurrentQueryError);
    expect((await first).result).toBe("only");
  });

  it("prompt() followed at once by interrupt() interrupts that query", async () => {
    const client = createScriptedClient([{ content: "never sent" }]);
    const agent = createAgent({ model: MODEL, client });

    const pending = agent.prompt("Draft the release notes.");
    agent.interrupt();
    const result = await pending;

    expect(result.subtype).toBe("interrupted");
    expect(result.is_error).toBe(false);
    expect(client.callCount).toBe(0);
  });

  it("separate agents run concurrently", async () => {
    const gate = deferred();
    const client = createScriptedClient(async () => {
      await gate.promise;
      return { content: "done" };
    });
    const first = createAgent({ model: MODEL, client }).prompt("a");
    const second = createAgent({ model: MODEL, client }).prompt("b");
    gate.resolve();

    const results = await Promise.all([first, second]);
    expect(results.map((result) => result.subtype)).toEqual(["success", "success"]);
  });
});

describe("the guard is released", () => {
  it("after success", async () => {
    const client = createScriptedClient([{ content: "a" }, { content: "b" }]);
    const agent = createAgent({ model: MODEL, client });

    await agent.prompt("one");
    expect((await agent.prompt("two")).result).toBe("b");
  });

  it("after an error result", async () => {
    const client = createScriptedClient([new Error("invalid request: bad field"), { content: "recovered" }]);
    const agent = createAgent({ model: MODEL, client });

    const failed = await agent.prompt("one");
    expect(failed.subtype).toBe("error_during_execution");
    expect(failed.is_error).toBe(true);
    expect(failed.error?.message).toContain("bad field");

    expect((await agent.prompt("two")).result).toBe("recovered");
  });

  it("after an abort", async () => {
    const client = createScriptedClient([{ content: "late", hang: true }, { content: "next" }]);
    const agent = createAgent({ model: MODEL, client });
    const controller = new AbortController();

    const pending = agent.prompt("one", { signal: controller.signal });
    await client.waitForRequest(1);
    controller.abort();
    expect((await pending).subtype).toBe("error_abort");

    expect((await agent.prompt("two")).result).toBe("next");
  });

  it("after an interrupt", async () => {
    const client = createScriptedClient([{ content: "late", hang: true }, { content: "next" }]);
    const agent = createAgent({ model: MODEL, client });

    const pending = agent.prompt("one");
    await client.waitForRequest(1);
    agent.interrupt();
    expect((await pending).subtype).toBe("interrupted");

    expect((await agent.prompt("two")).result).toBe("next");
  });

  it("after a break out of query()", async () => {
    const client = createScriptedClient([{ content: "a" }, { content: "b" }]);
    const agent = createAgent({ model: MODEL, client });

    for await (const message of agent.query("one")) {
      if (message.type === "system") break;
    }

    expect((await agent.prompt("two")).result).toBe("a");
  });

  it("after the query throws (a store created with failOnError)", async () => {
    let failNext = true;
    const saved: ModelMessage[] = [];
    const store = defineHistoryStore({
      load: async () => [],
      append: async (message) => {
        if (failNext) {
          failNext = false;
          throw new Error("disk full");
        }
        saved.push(message);
      },
      replace: async () => {},
      failOnError: true,
    });
    const client = createScriptedClient([{ content: "b" }]);
    const agent = createAgent({ model: MODEL, client, historyStore: store });

    await expect(agent.prompt("one")).rejects.toBeInstanceOf(HistoryStoreError);
    expect((await agent.prompt("two")).result).toBe("b");
  });
});

describe("the guard after the result message", () => {
  it("is free once query() yields its result: a prompt started inside the for-await runs", async () => {
    const client = createScriptedClient([{ content: "First answer." }, { content: "Second answer." }]);
    const agent = createAgent({ model: MODEL, client });

    let followUp: string | undefined;
    for await (const message of agent.query("one")) {
      if (message.type === "result") followUp = (await agent.prompt("two")).result;
    }

    expect(followUp).toBe("Second answer.");
    expect((await agent.getHistory()).map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    // And the guard is held again by nothing: a third query runs.
    client.push({ content: "Third." });
    expect((await agent.prompt("three")).result).toBe("Third.");
  });
});
