/**
 * `agent.interrupt()`: ends the running query with `interrupted` (not an error). The in-flight
 * partial assistant message is dropped, completed turns stay, a running tool batch finishes and is
 * recorded first, and the same agent continues with the full prior history.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent, defineTool, type SDKMessage } from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { createMemoryStore, deferred, expectWellFormed, MODEL, toolResults, toolUse } from "./support";

const lookup = defineTool({
  name: "lookup",
  readOnly: true,
  inputSchema: z.object({}),
  execute: () => "0.16.0 released",
});

describe("interrupt() during a model call", () => {
  it("drops the partial message, keeps completed turns, and the agent continues with the full history", async () => {
    const store = createMemoryStore();
    const client = createScriptedClient([
      { content: [toolUse("t1", "lookup")], id: "msg_turn_1" },
      (request) => {
        // A partial answer streams, then the response stalls.
        request.onEvent?.({
          type: "content_block_start",
          index: 0,
          content_block: { type: "text", text: "" },
        });
        request.onEvent?.({
          type: "content_block_delta",
          index: 0,
          delta: { type: "text_delta", text: "Draft: " },
        });
        return { content: "Draft: the whole notes", hang: true };
      },
      { content: "Covering 0.16.0 only." },
    ]);
    const agent = createAgent({
      model: MODEL,
      client,
      tools: [lookup],
      includePartialMessages: true,
      historyStore: store,
    });

    const messages: SDKMessage[] = [];
    for await (const message of agent.query("Draft the release notes.")) {
      messages.push(message);
      if (message.type === "stream_event" && JSON.stringify(message.event).includes("Draft: "))
        agent.interrupt();
    }

    const result = messages[messages.length - 1];
    expect(result).toMatchObject({ type: "result", subtype: "interrupted", is_error: false, num_turns: 2 });
    expect(client.requests[1]?.signal.aborted).toBe(true);
    const history = await agent.getHistory();
    expect(history.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
    expect(history[1]).toMatchObject({ providerResponseId: "msg_turn_1" });
    expect(JSON.stringify(history)).not.toContain("Draft: ");
    expectWellFormed(history);
    expect(store.saved).toEqual(history);

    const next = await agent.prompt("Actually, skip 0.15.x and cover 0.16.0 only.");
    expect(next.subtype).toBe("success");
    expect(client.requests[2]?.messages).toEqual([
      ...history,
      { role: "user", content: "Actually, skip 0.15.x and cover 0.16.0 only." },
    ]);
  });

  it("ends in time even when the client ignores the signal", async () => {
    const client = createScriptedClient([{ content: "never", hang: true, ignoreSignal: true }]);
    const agent = createAgent({ model: MODEL, client });

    const pending = agent.prompt("go");
    await client.waitForRequest(1);
    agent.interrupt();
    const result = await pending;

    expect(result.subtype).toBe("interrupted");
    expect(result.is_error).toBe(false);
    expect(result.error).toBeUndefined();
    expect(await agent.getHistory()).toEqual([{ role: "user", content: "go" }]);
  });

  it("keeps the text of the last completed response as result", async () => {
    const client = createScriptedClient([
      { content: [{ type: "text", text: "Looking it up." }, toolUse("t1", "lookup")] },
      { content: "never", hang: true },
    ]);
    const agent = createAgent({ model: MODEL, client, tools: [lookup] });

    let interruptSent = false;
    let result: SDKMessage | undefined;
    for await (const message of agent.query("go")) {
      if (message.type === "user" && !interruptSent) {
        interruptSent = true;
        void client.waitForRequest(2).then(() => agent.interrupt());
      }
      result = message;
    }

    expect(result).toMatchObject({ type: "result", subtype: "interrupted", result: "Looking it up." });
  });
});

describe("interrupt() during a tool batch", () => {
  it("lets the batch finish, records its results, and ends before the next model call", async () => {
    const store = createMemoryStore();
    const started = deferred();
    const release = deferred();
    const signals: AbortSignal[] = [];
    const slow = defineTool({
      name: "slow",
      readOnly: true,
      inputSchema: z.object({ id: z.string() }),
      execute: async ({ id }, context) => {
        signals.push(context.signal);
        started.resolve();
        await release.promise;
        return `finished ${id}`;
      },
    });
    // Only one response: a second model request would fail the query loudly.
    const client = createScriptedClient([
      { content: [toolUse("t1", "slow", { id: "a" }), toolUse("t2", "slow", { id: "b" })] },
    ]);
    const agent = createAgent({ model: MODEL, client, tools: [slow], historyStore: store });

    const pending = agent.prompt("go");
    await started.promise;
    agent.interrupt();
    release.resolve();
    const result = await pending;

    expect(result.subtype).toBe("interrupted");
    expect(result.is_error).toBe(false);
    expect(client.callCount).toBe(1);
    expect(signals.every((signal) => !signal.aborted)).toBe(true);
    const history = await agent.getHistory();
    expect(toolResults(history)).toEqual([
      { type: "tool_result", tool_use_id: "t1", content: "finished a" },
      { type: "tool_result", tool_use_id: "t2", content: "finished b" },
    ]);
    expectWellFormed(history);
    expect(store.saved).toEqual(history);

    client.push({ content: "continuing" });
    expect((await agent.prompt("next")).result).toBe("continuing");
    expect(client.requests[1]?.messages).toHaveLength(4);
  });

  it("runs the rest of the batch too, writes included", async () => {
    const ran: string[] = [];
    const release = deferred();
    const started = deferred();
    const first = defineTool({
      name: "first",
      inputSchema: z.object({}),
      execute: async () => {
        started.resolve();
        await release.promise;
        ran.push("first");
        return "one";
      },
    });
    const second = defineTool({
      name: "second",
      inputSchema: z.object({}),
      execute: () => {
        ran.push("second");
        return "two";
      },
    });
    const client = createScriptedClient([{ content: [toolUse("t1", "first"), toolUse("t2", "second")] }]);
    const agent = createAgent({ model: MODEL, client, tools: [first, second] });

    const pending = agent.prompt("go");
    await started.promise;
    agent.interrupt();
    release.resolve();

    expect((await pending).subtype).toBe("interrupted");
    expect(ran).toEqual(["first", "second"]);
  });
});

describe("interrupt() when idle", () => {
  it("is a no-op before, between and after queries", async () => {
    const client = createScriptedClient([{ content: "a" }, { content: "b" }]);
    const agent = createAgent({ model: MODEL, client });

    agent.interrupt();
    expect((await agent.prompt("one")).subtype).toBe("success");
    agent.interrupt();
    expect((await agent.prompt("two")).subtype).toBe("success");
    agent.interrupt();
    expect(await agent.getHistory()).toHaveLength(4);
  });
});

describe("interrupt() during streamInput()", () => {
  it("ends the current cycle only; the next input runs as usual", async () => {
    const client = createScriptedClient([{ content: "stalled", hang: true }, { content: "corrected" }]);
    const agent = createAgent({ model: MODEL, client });
    const results: string[] = [];

    for await (const message of agent.streamInput(["draft everything", "actually, only 0.16.0"])) {
      if (message.type === "system" && message.subtype === "init" && results.length === 0)
        void client.waitForRequest(1).then(() => agent.interrupt());
      if (message.type === "result") results.push(message.subtype);
    }

    expect(results).toEqual(["interrupted", "success"]);
    expect(client.requests[1]?.messages).toEqual([
      { role: "user", content: "draft everything" },
      { role: "user", content: "actually, only 0.16.0" },
    ]);
  });
});
