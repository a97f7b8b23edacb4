/**
 * Stopping an agent's work from outside the loop: `return()` on a query from another task while a
 * tool runs, `close()` during a prompt, a query or a stream, a stream whose input source goes
 * quiet, and the caller's signal carrying no listener of ours once a query is refused or never run.
 */
import { getEventListeners } from "node:events";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createAgent,
  createJsonlHistoryStore,
  defineTool,
  type HistoryStore,
  type ModelMessage,
  type SDKMessage,
} from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { deferred, expectWellFormed, MODEL, toolResults, toolUse, within } from "../loop/support";
import { temporaryFolder } from "../support/temporary-folders";

describe("return() on a running query", () => {
  it("from another task, while a tool runs: the tool's signal aborts and return() settles", async () => {
    const started = deferred();
    let toolSignal: AbortSignal | undefined;
    const crawl = defineTool({
      name: "crawl",
      inputSchema: z.object({}),
      execute: (_input, { signal }) =>
        new Promise<string>((resolve) => {
          toolSignal = signal;
          started.resolve();
          signal.addEventListener("abort", () => resolve("stopped"));
        }),
    });
    const client = createScriptedClient([{ content: [toolUse("c1", "crawl")] }, { content: "done" }]);
    const agent = createAgent({ model: MODEL, client, tools: [crawl] });
    const messages = agent.query("crawl");
    const pulling = (async () => {
      for (;;) if ((await messages.next()).done) return;
    })();
    await started.promise;

    // A server whose HTTP client disconnected stops the query it was streaming.
    expect(await within(messages.return(undefined), 2_000)).not.toBe("still pending");
    await pulling;

    expect(toolSignal?.aborted).toBe(true);
    expect(client.callCount).toBe(1);
    expectWellFormed(await agent.getHistory());
    expect((await agent.prompt("again")).subtype).toBe("success"); // the guard was released
  });
});

describe("close()", () => {
  it("during a prompt: the tool batch finishes and its results reach the store before it closes", async () => {
    const folder = temporaryFolder("agent-lattice-close-");
    const path = join(folder, "session.jsonl");
    const started = deferred();
    const gate = deferred();
    const charge = defineTool({
      name: "charge_card",
      inputSchema: z.object({ amount: z.number() }),
      async execute({ amount }) {
        started.resolve();
        await gate.promise;
        return `charged ${amount} USD, receipt R-1`;
      },
    });
    const agent = createAgent({
      model: MODEL,
      client: createScriptedClient([{ content: [toolUse("toolu_1", "charge_card", { amount: 5 })] }]),
      tools: [charge],
      historyStore: createJsonlHistoryStore({ path }),
    });
    const seen: SDKMessage[] = [];
    const running = (async () => {
      for await (const message of agent.query("charge 5 USD")) seen.push(message);
    })();
    await started.promise;

    const closing = agent.close(); // a graceful shutdown
    gate.resolve();
    await closing;
    await running;

    expect(seen.filter((m) => m.type === "system" && m.subtype === "store_error")).toEqual([]);
    const stored = await createJsonlHistoryStore({ path }).load();
    expect(stored.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
    expect(toolResults(stored)[0]?.content).toBe("charged 5 USD, receipt R-1");
    expect(seen.at(-1)).toMatchObject({ type: "result", subtype: "interrupted" });
  });

  it("refuses replaceHistory() afterwards instead of writing to the released store", async () => {
    const replaced: ModelMessage[][] = [];
    const store: HistoryStore = {
      load: async () => [],
      append: async () => {},
      replace: async (messages) => {
        replaced.push(messages);
      },
      close: async () => {},
    };
    const agent = createAgent({
      model: MODEL,
      client: createScriptedClient([{ content: "hi" }]),
      historyStore: store,
    });
    await agent.prompt("hello");

    const closing = agent.close();
    await expect(agent.replaceHistory([])).rejects.toThrow(/closed/);
    await closing;
    await expect(agent.replaceHistory([])).rejects.toThrow(/closed/);

    expect(replaced).toEqual([]);
    expect(await agent.getHistory()).toHaveLength(2); // still readable
  });

  it("called by a consumer between messages does not wait for that consumer (no deadlock)", async () => {
    const agent = createAgent({ model: MODEL, client: createScriptedClient([{ content: "hi" }]) });
    const messages = agent.query("hello");
    await messages.next(); // system/init: the query now waits for its consumer
    expect(await within(agent.close(), 2_000)).not.toBe("still pending");
    await messages.return(undefined);
  });

  it("during streamInput: the current cycle is interrupted, no later input runs, nothing is written after", async () => {
    let stored: ModelMessage[] = [];
    let storeClosed = false;
    const writesAfterClose: string[] = [];
    const store: HistoryStore = {
      load: async () => stored,
      append: async (message) => {
        if (storeClosed) writesAfterClose.push(message.role);
        stored.push(message);
      },
      replace: async (messages) => {
        stored = [...messages];
      },
      close: async () => {
        storeClosed = true;
      },
    };
    const client = createScriptedClient([{ content: "first" }, { content: "second" }, { content: "third" }]);
    const agent = createAgent({ model: MODEL, client, historyStore: store });
    const subtypes: string[] = [];
    let closing: Promise<void> | undefined;
    for await (const message of agent.streamInput(["x", "y", "z"])) {
      if (message.type === "system" && message.subtype === "init" && !closing) closing = agent.close();
      if (message.type === "result") subtypes.push(message.subtype);
    }
    await closing;

    expect(subtypes).toEqual(["interrupted"]);
    expect(client.callCount).toBe(0);
    expect(writesAfterClose).toEqual([]);
    await expect(agent.prompt("later")).rejects.toThrow("closed");
  });

  it("ends a stream waiting for its next input", async () => {
    const agent = createAgent({ model: MODEL, client: createScriptedClient([{ content: "a" }]) });
    const waiting = deferred();
    async function* inputs() {
      yield "x";
      waiting.resolve();
      await new Promise(() => {}); // the user never types again
    }
    const results: string[] = [];
    const draining = (async () => {
      for await (const message of agent.streamInput(inputs())) {
        if (message.type === "result") {
          results.push(message.subtype);
          void waiting.promise.then(() => agent.close());
        }
      }
    })();
    expect(await within(draining, 2_000)).not.toBe("still pending");
    expect(results).toEqual(["success"]);
  });
});

describe("streamInput with a quiet input source", () => {
  it("ends when its signal aborts while it waits for the next input, releasing the agent", async () => {
    const client = createScriptedClient([{ content: "a" }, { content: "b" }]);
    const agent = createAgent({ model: MODEL, client });
    const controller = new AbortController();
    let inputsClosed = false;
    const waiting = deferred();
    async function* inputs() {
      try {
        yield "x";
        waiting.resolve();
        await new Promise(() => {}); // the client went away without saying so
      } finally {
        inputsClosed = true;
      }
    }
    const draining = (async () => {
      for await (const message of agent.streamInput(inputs(), { signal: controller.signal })) {
        if (message.type === "result") void waiting.promise.then(() => controller.abort());
      }
    })();

    expect(await within(draining, 2_000)).not.toBe("still pending");
    expect((await agent.prompt("hello")).subtype).toBe("success");
    expect(inputsClosed).toBe(false); // stuck in an await: told to return, not waited for
  });

  it("a consumer that breaks out closes the input source", async () => {
    const agent = createAgent({ model: MODEL, client: createScriptedClient([{ content: "a" }]) });
    let inputsClosed = false;
    function* inputs() {
      try {
        yield "x";
        yield "y";
      } finally {
        inputsClosed = true;
      }
    }
    for await (const message of agent.streamInput(inputs())) if (message.type === "result") break;
    await new Promise((resolve) => setImmediate(resolve));
    expect(inputsClosed).toBe(true);
  });
});

describe("the caller's signal", () => {
  it("keeps no listener of ours after prompt() is refused with ConcurrentQueryError", async () => {
    const shutdown = new AbortController(); // one long-lived server signal
    const gate = deferred(); // the first prompt runs until the refused ones are done
    const agent = createAgent({
      model: MODEL,
      client: createScriptedClient([
        async () => {
          await gate.promise;
          return { content: "a" };
        },
      ]),
    });
    const running = agent.prompt("first");
    for (let index = 0; index < 20; index++)
      await agent.prompt("again", { signal: shutdown.signal }).catch(() => {});
    gate.resolve();
    await running;
    expect(getEventListeners(shutdown.signal, "abort")).toHaveLength(0);
  });

  it("keeps no listener of ours from a query() that was never iterated, or that ended", async () => {
    const shutdown = new AbortController();
    const agent = createAgent({ model: MODEL, client: createScriptedClient([{ content: "a" }]) });
    await agent.query("never run", { signal: shutdown.signal }).return(undefined);
    expect(getEventListeners(shutdown.signal, "abort")).toHaveLength(0);
    for await (const _ of agent.query("run", { signal: shutdown.signal })) {
      // drain
    }
    expect(getEventListeners(shutdown.signal, "abort")).toHaveLength(0);
  });
});
