/**
 * Deadlines: `QueryOptions.signal` bounds the whole query (`error_abort`), `requestTimeoutMs`
 * bounds each model request (`error_timeout` with a TimeoutError). The loop races the call, so a
 * client that ignores both cannot stall it. History stays well-formed, and a store agrees with it.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  AbortError,
  createAgent,
  defineTool,
  InvalidOptionError,
  type ModelMessage,
  TimeoutError,
} from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import {
  aborted,
  collect,
  createMemoryStore,
  deferred,
  expectWellFormed,
  MODEL,
  resultText,
  toolResults,
  toolUse,
} from "./support";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("QueryOptions.signal", () => {
  it("aborting during a model call ends error_abort, drops the partial turn, and the store agrees", async () => {
    const store = createMemoryStore();
    let requestSignal: AbortSignal | undefined;
    const client = createScriptedClient([
      (request) => {
        requestSignal = request.signal;
        return { content: "never", hang: true };
      },
      { content: "after abort" },
    ]);
    const agent = createAgent({ model: MODEL, client, historyStore: store });
    const controller = new AbortController();

    const pending = agent.prompt("Audit this repository.", { signal: controller.signal });
    await client.waitForRequest(1);
    controller.abort(new Error("user pressed stop"));
    const result = await pending;

    expect(result.subtype).toBe("error_abort");
    expect(result.is_error).toBe(true);
    expect(result.error).toBeInstanceOf(AbortError);
    expect(result.error).not.toBeInstanceOf(TimeoutError);
    expect(result.error?.message).toContain("user pressed stop");
    expect(requestSignal?.aborted).toBe(true);
    const history = await agent.getHistory();
    expect(history).toEqual([{ role: "user", content: "Audit this repository." }]);
    expect(store.saved).toEqual(history);

    expect((await agent.prompt("again")).result).toBe("after abort");
  });

  it("a signal aborted before the query starts ends it at once, without touching history or the model", async () => {
    const store = createMemoryStore([
      { role: "user", content: "earlier" },
      { role: "assistant", content: [{ type: "text", text: "earlier answer" }] },
    ]);
    const client = createScriptedClient([]);
    const agent = createAgent({ model: MODEL, client, historyStore: store });
    const before = await agent.getHistory();

    const messages = await collect(agent.query("too late", { signal: AbortSignal.abort() }));
    const result = messages[messages.length - 1];

    expect(result).toMatchObject({ type: "result", subtype: "error_abort", is_error: true, num_turns: 0 });
    expect(messages.some((message) => message.type === "assistant" || message.type === "user")).toBe(false);
    expect(client.callCount).toBe(0);
    expect(await agent.getHistory()).toEqual(before);
    expect(store.saved).toEqual(before);
  });

  it("reaches running tools through their context signal, and later calls of the batch do not run", async () => {
    const controller = new AbortController();
    const seen: unknown[] = [];
    const ran: string[] = [];
    const watcher = defineTool({
      name: "watcher",
      inputSchema: z.object({}),
      execute: async (_input, context) => {
        ran.push("watcher");
        controller.abort(new Error("stop now"));
        await aborted(context.signal);
        seen.push(context.signal.reason);
        return "stopped cleanly";
      },
    });
    const after = defineTool({
      name: "after",
      inputSchema: z.object({}),
      execute: () => {
        ran.push("after");
        return "ran";
      },
    });
    const client = createScriptedClient([{ content: [toolUse("t1", "watcher"), toolUse("t2", "after")] }]);
    const store = createMemoryStore();
    const agent = createAgent({ model: MODEL, client, tools: [watcher, after], historyStore: store });

    const result = await agent.prompt("go", { signal: controller.signal });

    expect(result.subtype).toBe("error_abort");
    expect(seen).toHaveLength(1);
    expect((seen[0] as Error).message).toBe("stop now");
    expect(ran).toEqual(["watcher"]);
    expect(client.callCount).toBe(1);
    const history = await agent.getHistory();
    expectWellFormed(history);
    const [first, second] = toolResults(history);
    expect(first).toMatchObject({ tool_use_id: "t1", is_error: true });
    expect(resultText(first!)).toMatch(/aborted/);
    expect(second).toMatchObject({ tool_use_id: "t2", is_error: true });
    expect(resultText(second!)).toMatch(/not run/);
    expect(store.saved).toEqual(history);
  });

  it("cuts a tool that never returns", async () => {
    const controller = new AbortController();
    const started = deferred();
    const stuck = defineTool({
      name: "stuck",
      readOnly: true,
      inputSchema: z.object({}),
      execute: () => {
        started.resolve();
        return new Promise<string>(() => {});
      },
    });
    const client = createScriptedClient([{ content: [toolUse("t1", "stuck")] }]);
    const agent = createAgent({ model: MODEL, client, tools: [stuck] });

    const pending = agent.prompt("go", { signal: controller.signal });
    await started.promise;
    controller.abort();
    const result = await pending;

    expect(result.subtype).toBe("error_abort");
    const history = await agent.getHistory();
    expectWellFormed(history);
    expect(toolResults(history)[0]).toMatchObject({ tool_use_id: "t1", is_error: true });
  });

  it("ends the query even when the client ignores the signal", async () => {
    const client = createScriptedClient([{ content: "ignored", hang: true, ignoreSignal: true }]);
    const agent = createAgent({ model: MODEL, client });
    const controller = new AbortController();

    const pending = agent.prompt("go", { signal: controller.signal });
    await client.waitForRequest(1);
    controller.abort();

    expect((await pending).subtype).toBe("error_abort");
    expect(await agent.getHistory()).toEqual([{ role: "user", content: "go" }]);
  });
});

describe("waiting to retry", () => {
  /** A sleep that only ends when its signal aborts, so the test controls time. */
  const sleepUntilAborted = (_ms: number, signal: AbortSignal) =>
    new Promise<void>((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
  const overloaded = () => Object.assign(new Error("Overloaded"), { status: 529 });

  it("an abort during the backoff ends error_abort", async () => {
    const client = createScriptedClient([overloaded()]);
    const agent = createAgent({ model: MODEL, client, _internal: { sleep: sleepUntilAborted } });
    const controller = new AbortController();
    const messages: string[] = [];

    for await (const message of agent.query("go", { signal: controller.signal })) {
      if (message.type === "system" && message.subtype === "api_retry") controller.abort();
      messages.push(message.type === "result" ? message.subtype : message.type);
    }

    expect(messages[messages.length - 1]).toBe("error_abort");
    expect(client.callCount).toBe(1);
  });

  it("an interrupt during the backoff ends interrupted", async () => {
    const client = createScriptedClient([overloaded()]);
    const agent = createAgent({ model: MODEL, client, _internal: { sleep: sleepUntilAborted } });
    let subtype: string | undefined;

    for await (const message of agent.query("go")) {
      if (message.type === "system" && message.subtype === "api_retry") agent.interrupt();
      if (message.type === "result") subtype = message.subtype;
    }

    expect(subtype).toBe("interrupted");
    expect(await agent.getHistory()).toEqual([{ role: "user", content: "go" }]);
  });
});

describe("requestTimeoutMs", () => {
  it("ends error_timeout with a TimeoutError carrying the limit, and passes the limit to the client", async () => {
    const store = createMemoryStore();
    const client = createScriptedClient([{ content: "slow", hang: true }]);
    const agent = createAgent({ model: MODEL, client, requestTimeoutMs: 30, historyStore: store });

    const result = await agent.prompt("go");

    expect(result.subtype).toBe("error_timeout");
    expect(result.is_error).toBe(true);
    expect(result.error).toBeInstanceOf(TimeoutError);
    expect(result.error).not.toBeInstanceOf(AbortError);
    expect((result.error as TimeoutError).timeoutMs).toBe(30);
    expect(result.error?.message).toContain("30 ms");
    expect(client.requests[0]?.timeoutMs).toBe(30);
    expect(client.requests[0]?.signal.aborted).toBe(true);
    const history = await agent.getHistory();
    expect(history).toEqual([{ role: "user", content: "go" }]);
    expect(store.saved).toEqual(history);
  });

  it("a per-query value overrides the agent default for that query only", async () => {
    const client = createScriptedClient([{ content: "slow", hang: true }, { content: "fast" }]);
    const agent = createAgent({ model: MODEL, client, requestTimeoutMs: 60_000 });

    const timedOut = await agent.prompt("go", { requestTimeoutMs: 25 });
    const next = await agent.prompt("again");

    expect(timedOut.subtype).toBe("error_timeout");
    expect((timedOut.error as TimeoutError).timeoutMs).toBe(25);
    expect(client.requests[0]?.timeoutMs).toBe(25);
    expect(next.subtype).toBe("success");
    expect(client.requests[1]?.timeoutMs).toBe(60_000);
  });

  it("ends in time when the client ignores both signal and timeoutMs; the late answer never enters history", async () => {
    const client = createScriptedClient([{ content: "late answer", delayMs: 80, ignoreSignal: true }]);
    const agent = createAgent({ model: MODEL, client, requestTimeoutMs: 20 });

    const result = await agent.prompt("go");
    expect(result.subtype).toBe("error_timeout");

    await pause(120); // the abandoned call has finished by now
    const history = await agent.getHistory();
    expect(history).toEqual([{ role: "user", content: "go" }]);
  });

  it("also ends in time against a client that never settles", async () => {
    const agent = createAgent({
      model: MODEL,
      client: { createMessage: () => new Promise(() => {}) },
      requestTimeoutMs: 20,
    });

    expect((await agent.prompt("go")).subtype).toBe("error_timeout");
  });

  it("bounds each request, not the whole query", async () => {
    const echo = defineTool({ name: "echo", readOnly: true, inputSchema: z.object({}), execute: () => "ok" });
    const client = createScriptedClient([
      { content: [toolUse("t1", "echo")], delayMs: 60 },
      { content: [toolUse("t2", "echo")], delayMs: 60 },
      { content: [toolUse("t3", "echo")], delayMs: 60 },
      { content: "done", delayMs: 60 },
    ]);
    const agent = createAgent({ model: MODEL, client, tools: [echo], requestTimeoutMs: 200 });

    const result = await agent.prompt("go");

    expect(result.subtype).toBe("success");
    expect(result.num_turns).toBe(4);
  });

  it("does not bound tool calls", async () => {
    const slowTool = defineTool({
      name: "slow",
      inputSchema: z.object({}),
      execute: async () => {
        await pause(60);
        return "finished";
      },
    });
    const client = createScriptedClient([{ content: [toolUse("t1", "slow")] }, { content: "done" }]);
    const agent = createAgent({ model: MODEL, client, tools: [slowTool], requestTimeoutMs: 30 });

    const result = await agent.prompt("go");

    expect(result.subtype).toBe("success");
    expect(toolResults(await agent.getHistory())[0]?.content).toBe("finished");
  });

  it("keeps completed turns when a later request times out", async () => {
    const echo = defineTool({ name: "echo", inputSchema: z.object({}), execute: () => "echoed" });
    const store = createMemoryStore();
    const client = createScriptedClient([
      { content: [toolUse("t1", "echo")] },
      { content: "stalled", hang: true },
    ]);
    const agent = createAgent({
      model: MODEL,
      client,
      tools: [echo],
      requestTimeoutMs: 20,
      historyStore: store,
    });

    const result = await agent.prompt("go");

    expect(result.subtype).toBe("error_timeout");
    expect(result.num_turns).toBe(2);
    const history = await agent.getHistory();
    expect(history.map((message: ModelMessage) => message.role)).toEqual(["user", "assistant", "user"]);
    expectWellFormed(history);
    expect(store.saved).toEqual(history);
  });

  it("unset, applies no deadline of its own", async () => {
    const client = createScriptedClient([{ content: "eventually", delayMs: 40 }]);
    const agent = createAgent({ model: MODEL, client });

    const result = await agent.prompt("go");

    expect(result.subtype).toBe("success");
    expect(client.requests[0]).not.toHaveProperty("timeoutMs");
  });

  it("must be a positive integer: a clear error at creation", () => {
    for (const requestTimeoutMs of [0, -1, 1.5, Number.NaN, "10" as unknown as number]) {
      expect(() => createAgent({ model: MODEL, client: createScriptedClient([]), requestTimeoutMs })).toThrow(
        /requestTimeoutMs.*positive integer/,
      );
    }
  });

  it("must be a positive integer: a clear error at call time, without taking the guard", async () => {
    const client = createScriptedClient([{ content: "fine" }]);
    const agent = createAgent({ model: MODEL, client });
    for (const requestTimeoutMs of [0, -1, 1.5, Number.NaN, "10" as unknown as number]) {
      await expect(agent.prompt("go", { requestTimeoutMs })).rejects.toThrow(InvalidOptionError);
      // query() may throw when called or on its first iteration; either is call time.
      await expect((async () => agent.query("go", { requestTimeoutMs }).next())()).rejects.toThrow(
        /requestTimeoutMs.*positive integer/,
      );
      await expect(collect(agent.streamInput(["go"], { requestTimeoutMs }))).rejects.toThrow(
        InvalidOptionError,
      );
    }
    expect(client.callCount).toBe(0);
    expect(await agent.getHistory()).toEqual([]);
    expect((await agent.prompt("valid")).subtype).toBe("success");
  });
});
