/**
 * Streaming tool execution over the scripted client: a read-only call starts when its tool_use
 * block completes, while the response still streams (the scripted stream holds after the block
 * until the tool has started — without early starts those tests would never finish), within
 * toolConcurrency, in the model's order; writes wait for the whole response; and every bad ending
 * (a failed attempt retried, max_tokens, abort, interrupt, a hook's denial, submit_output, endTurn,
 * the budget, the fallback model, the opt-out) keeps the rules it had.
 */

import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type AgentOptions,
  createAgent,
  createToolContext,
  defineTool,
  InvalidOptionError,
  type ModelClient,
  type ModelStreamEvent,
  type SDKMessage,
} from "../../src/index";
import { createScriptedClient, type ScriptedStep } from "../../src/testing/index";
import {
  collect,
  type Deferred,
  deferred,
  expectWellFormed,
  MODEL,
  toolResults,
  toolUse,
} from "../loop/support";

/** A log of what happened, in order: stream events by type, and tool starts/ends. */
type Log = string[];

/** A client whose stream events are logged before the loop sees them. */
function loggedClient(steps: ScriptedStep[], log: Log): ModelClient & { callCount: number } {
  const inner = createScriptedClient(steps);
  return {
    createMessage: (request) =>
      inner.createMessage({
        ...request,
        onEvent: (event: ModelStreamEvent) => {
          log.push(`event:${event.type}`);
          request.onEvent?.(event);
        },
      }),
    get callCount() {
      return inner.callCount;
    },
  };
}

/** A read-only tool that logs its start, signals it, and waits for `release` (or its signal). */
function readTool(name: string, log: Log, started: Deferred, release?: Promise<void>) {
  const signals: AbortSignal[] = [];
  const tool = defineTool({
    name,
    readOnly: true,
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }, { signal }) => {
      log.push(`start:${name}:${path}`);
      signals.push(signal);
      started.resolve();
      if (release) {
        await Promise.race([
          release,
          new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason))),
        ]);
      }
      log.push(`end:${name}:${path}`);
      return `contents of ${path}`;
    },
  });
  return { tool, signals };
}

function agentWith(client: ModelClient, tools: AgentOptions["tools"], options: Partial<AgentOptions> = {}) {
  return createAgent({ model: MODEL, client, tools, _internal: { sleep: async () => {} }, ...options });
}

describe("a read-only call starts while the response streams", () => {
  it("starts at its content_block_stop, before the rest of the response arrives", async () => {
    const log: Log = [];
    const started = deferred();
    const { tool } = readTool("read", log, started);
    const client = loggedClient(
      [
        {
          content: [
            toolUse("r1", "read", { path: "a" }),
            { type: "text", text: "Reading a while I explain." },
          ],
          pauseAfterBlock: { index: 0, until: started.promise },
        },
        { content: "done" },
      ],
      log,
    );
    const result = await agentWith(client, [tool]).prompt("go");

    expect(result.subtype).toBe("success");
    const startAt = log.indexOf("start:read:a");
    expect(startAt).toBeGreaterThan(log.indexOf("event:content_block_stop"));
    expect(startAt).toBeLessThan(log.indexOf("event:message_stop"));
    expect(log.filter((entry) => entry.startsWith("start:"))).toHaveLength(1); // run once, not again
  });

  it("keeps the order of what is yielded: the assistant message, then the early call's notices, then its result", async () => {
    const log: Log = [];
    const started = deferred();
    const { tool } = readTool("read", log, started);
    const client = loggedClient(
      [
        {
          content: [toolUse("r1", "read", { path: "a" }), { type: "text", text: "tail" }],
          pauseAfterBlock: { index: 0, until: started.promise },
        },
        { content: "done" },
      ],
      log,
    );
    const agent = agentWith(client, [tool], {
      hooks: {
        postToolUse: [
          {
            handler: () => {
              throw new Error("post hook broke");
            },
          },
        ],
      },
    });
    const messages: SDKMessage[] = await collect(agent.query("go"));
    const kinds = messages.map((message) =>
      message.type === "system" ? `system:${message.subtype}` : message.type,
    );
    const assistant = kinds.indexOf("assistant");
    expect(kinds.indexOf("system:hook_error")).toBeGreaterThan(assistant);
    expect(kinds.indexOf("user")).toBeGreaterThan(kinds.indexOf("system:hook_error"));
    expectWellFormed(await agent.getHistory());
  });

  it("starts at most toolConcurrency calls at once, in the model's order; the next when one ends", async () => {
    const log: Log = [];
    const first = deferred();
    const release = deferred();
    const { tool } = readTool("read", log, first, release.promise);
    const client = loggedClient(
      [
        {
          content: [
            toolUse("r1", "read", { path: "a" }),
            toolUse("r2", "read", { path: "b" }),
            toolUse("r3", "read", { path: "c" }),
            { type: "text", text: "tail" },
          ],
          pauseAfterBlock: { index: 2, until: first.promise },
        },
        { content: "done" },
      ],
      log,
    );
    const pending = agentWith(client, [tool], { toolConcurrency: 2 }).prompt("go");
    await first.promise;
    await new Promise((resolve) => setImmediate(resolve));
    expect(log.filter((entry) => entry.startsWith("start:"))).toEqual(["start:read:a", "start:read:b"]);
    release.resolve();
    const result = await pending;
    expect(result.subtype).toBe("success");
    expect(log.filter((entry) => entry.startsWith("start:"))).toEqual([
      "start:read:a",
      "start:read:b",
      "start:read:c",
    ]);
  });

  it("lets a write, and every call after it, wait for the whole response", async () => {
    const log: Log = [];
    const started = deferred();
    const { tool } = readTool("read", log, started);
    const write = defineTool({
      name: "write",
      inputSchema: z.object({}),
      execute: () => {
        log.push("start:write");
        return "written";
      },
    });
    const client = loggedClient(
      [
        {
          content: [
            toolUse("r1", "read", { path: "a" }),
            toolUse("w1", "write"),
            toolUse("r2", "read", { path: "b" }),
          ],
          pauseAfterBlock: { index: 0, until: started.promise },
        },
        { content: "done" },
      ],
      log,
    );
    const agent = agentWith(client, [tool, write]);
    await agent.prompt("go");
    const stop = log.indexOf("event:message_stop");
    expect(log.indexOf("start:read:a")).toBeLessThan(stop);
    expect(log.indexOf("start:write")).toBeGreaterThan(stop);
    expect(log.indexOf("start:read:b")).toBeGreaterThan(log.indexOf("start:write"));
    expect(toolResults(await agent.getHistory()).map((block) => block.tool_use_id)).toEqual([
      "r1",
      "w1",
      "r2",
    ]);
  });
});

describe("what never starts early", () => {
  // A second tool of the agent that can ask: one with needsApproval, or a write under canUseTool
  // or askBeforeWrites (a read-only call is never asked about). Its batches may pause, so no call
  // of the agent starts early, the read-only one included.
  const cases: Array<[string, Partial<AgentOptions>, ("guarded" | "write")?]> = [
    ["the opt-out", { streamingToolExecution: false }],
    [
      "canUseTool (it may ask about the agent's write tool)",
      { canUseTool: () => ({ behavior: "allow" }) },
      "write",
    ],
    ["askBeforeWrites (the agent has a write tool)", { permissionMode: "askBeforeWrites" }, "write"],
    ["a tool of the agent with needsApproval", {}, "guarded"],
  ];
  it.each(cases)("%s: the call starts after the whole response", async (_label, options, second) => {
    const log: Log = [];
    const started = deferred();
    const { tool } = readTool("read", log, started);
    const guarded = defineTool({
      name: "guarded",
      inputSchema: z.object({}),
      needsApproval: true,
      execute: () => "x",
    });
    const write = defineTool({ name: "write", inputSchema: z.object({}), execute: () => "written" });
    const client = loggedClient(
      [
        {
          content: [toolUse("r1", "read", { path: "a" }), { type: "text", text: "tail" }],
          // Held a moment only: nothing starts until the response is whole.
          pauseAfterBlock: { index: 0, until: started.promise, ms: 20 },
        },
        { content: "done" },
      ],
      log,
    );
    const tools = second === "guarded" ? [tool, guarded] : second === "write" ? [tool, write] : [tool];
    const result = await agentWith(client, tools, options).prompt("go");
    expect(result.subtype).toBe("success");
    expect(log.indexOf("start:read:a")).toBeGreaterThan(log.indexOf("event:message_stop"));
  });

  it.each<[string, Partial<AgentOptions>]>([
    ["canUseTool", { canUseTool: () => ({ behavior: "ask" }) }],
    ["askBeforeWrites", { permissionMode: "askBeforeWrites" }],
  ])(
    "%s with only read-only tools (nothing can ask): the call starts while the response streams",
    async (_label, options) => {
      const log: Log = [];
      const started = deferred();
      const { tool } = readTool("read", log, started);
      const asked: string[] = [];
      const client = loggedClient(
        [
          {
            content: [toolUse("r1", "read", { path: "a" }), { type: "text", text: "tail" }],
            // Held until the tool starts: without an early start this never finishes.
            pauseAfterBlock: { index: 0, until: started.promise },
          },
          { content: "done" },
        ],
        log,
      );
      const canUseTool = options.canUseTool;
      const agent = agentWith(client, [tool], {
        ...options,
        ...(canUseTool && {
          canUseTool: (name: string, input: unknown, context: { signal: AbortSignal; toolUseId: string }) => {
            asked.push(name);
            return canUseTool(name, input, context);
          },
        }),
      });
      const result = await agent.prompt("go");
      expect(result.subtype).toBe("success");
      expect(log.indexOf("start:read:a")).toBeLessThan(log.indexOf("event:message_stop"));
      expect(asked).toEqual([]); // a read-only call is never asked about
    },
  );

  it("refuses a streamingToolExecution that is not a boolean", () => {
    const client = createScriptedClient([]);
    expect(() =>
      createAgent({ model: MODEL, client, streamingToolExecution: "yes" as unknown as boolean }),
    ).toThrow(InvalidOptionError);
  });

  it("a preToolUse hook's denial refuses the call before it starts, as without streaming", async () => {
    const log: Log = [];
    const started = deferred();
    const { tool } = readTool("read", log, started);
    const client = loggedClient(
      [
        { content: [toolUse("r1", "read", { path: "a" }), { type: "text", text: "tail" }] },
        { content: "done" },
      ],
      log,
    );
    const agent = agentWith(client, [tool], {
      hooks: { preToolUse: [{ handler: () => ({ block: true, message: "no reading" }) }] },
    });
    const result = await agent.prompt("go");
    expect(log.some((entry) => entry.startsWith("start:"))).toBe(false);
    expect(result.permission_denials).toEqual([
      expect.objectContaining({ tool_use_id: "r1", message: "no reading" }),
    ]);
    expect(toolResults(await agent.getHistory())[0]).toMatchObject({ tool_use_id: "r1", is_error: true });
  });
});

describe("a response that is not run as a batch: started calls are cancelled, their results dropped", () => {
  /** A response whose first block is a read-only call, held until it started, then `rest`. */
  function heldResponse(started: Deferred, extra: object = {}): ScriptedStep {
    return {
      content: [toolUse("r1", "read", { path: "a" }), { type: "text" as const, text: "tail" }],
      pauseAfterBlock: { index: 0, until: started.promise },
      ...extra,
    };
  }

  it("max_tokens: every call is answered as not run (the truncation rule), the started one cancelled", async () => {
    const log: Log = [];
    const started = deferred();
    const { tool, signals } = readTool("read", log, started, new Promise<void>(() => {}));
    const client = loggedClient(
      [heldResponse(started, { stop_reason: "max_tokens" }), { content: "ok" }],
      log,
    );
    const agent = agentWith(client, [tool]);
    await agent.prompt("go");
    expect(signals[0]?.aborted).toBe(true);
    const [result] = toolResults(await agent.getHistory());
    expect(result).toMatchObject({ tool_use_id: "r1", is_error: true });
    expect(JSON.stringify(result?.content)).toContain("max_tokens");
    expectWellFormed(await agent.getHistory());
  });

  it("an attempt that fails after the block is retried: its call is cancelled, the retry's call runs", async () => {
    const log: Log = [];
    const started = deferred();
    const { tool, signals } = readTool("read", log, started, new Promise<void>(() => {}));
    const fastRead = defineTool({
      name: "read",
      readOnly: true,
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }, { signal }) => {
        if (path === "a")
          return tool.execute({ path }, createToolContext({ signal, toolUseId: "r1", toolName: "read" }));
        log.push(`start:read:${path}`);
        return `contents of ${path}`;
      },
    });
    let attempts = 0;
    const failing: ModelClient = {
      async createMessage(request) {
        if (attempts++ === 0) {
          request.onEvent?.({ type: "message_start", message: { id: "m1", model: MODEL, content: [] } });
          request.onEvent?.({
            type: "content_block_start",
            index: 0,
            content_block: { type: "tool_use", id: "r1", name: "read", input: {} },
          });
          request.onEvent?.({
            type: "content_block_delta",
            index: 0,
            delta: { type: "input_json_delta", partial_json: '{"path":"a"}' },
          });
          request.onEvent?.({ type: "content_block_stop", index: 0 });
          await started.promise;
          throw Object.assign(new Error("overloaded"), { status: 529 });
        }
        return scripted.createMessage(request);
      },
    };
    const scripted = createScriptedClient([
      { content: [toolUse("r2", "read", { path: "b" })] },
      { content: "done" },
    ]);
    const agent = agentWith(failing, [fastRead]);
    const messages = await collect(agent.query("go"));
    const result = messages.at(-1);
    expect(result).toMatchObject({ type: "result", subtype: "success" });
    expect(messages.some((message) => message.type === "system" && message.subtype === "api_retry")).toBe(
      true,
    );
    expect(signals[0]?.aborted).toBe(true);
    const history = await agent.getHistory();
    expect(toolResults(history).map((block) => block.tool_use_id)).toEqual(["r2"]);
    expect(JSON.stringify(history)).not.toContain('"r1"');
    expectWellFormed(history);
  });

  it("abort mid-stream: the started call gets the signal, history keeps only the prompt, the guard is free", async () => {
    const log: Log = [];
    const started = deferred();
    const { tool, signals } = readTool("read", log, started, new Promise<void>(() => {}));
    const client = loggedClient(
      [
        {
          content: [toolUse("r1", "read", { path: "a" }), { type: "text", text: "tail" }],
          pauseAfterBlock: { index: 0, until: new Promise(() => {}) },
        },
        { content: "again" },
      ],
      log,
    );
    const agent = agentWith(client, [tool]);
    const controller = new AbortController();
    const pending = agent.prompt("go", { signal: controller.signal });
    await started.promise;
    controller.abort();
    expect((await pending).subtype).toBe("error_abort");
    expect(signals[0]?.aborted).toBe(true);
    expect(await agent.getHistory()).toEqual([{ role: "user", content: "go" }]);
    expect((await agent.prompt("next")).subtype).toBe("success"); // the conversation is free again
  });

  it("interrupt mid-stream: the started call gets the signal, the query ends interrupted", async () => {
    const log: Log = [];
    const started = deferred();
    const { tool, signals } = readTool("read", log, started, new Promise<void>(() => {}));
    const client = loggedClient(
      [
        {
          content: [toolUse("r1", "read", { path: "a" }), { type: "text", text: "tail" }],
          pauseAfterBlock: { index: 0, until: new Promise(() => {}) },
        },
      ],
      log,
    );
    const agent = agentWith(client, [tool]);
    const pending = agent.prompt("go");
    await started.promise;
    agent.interrupt();
    expect((await pending).subtype).toBe("interrupted");
    expect(signals[0]?.aborted).toBe(true);
    expectWellFormed(await agent.getHistory());
  });

  it("submit_output in the same response: the batch rule answers both, the started call is cancelled", async () => {
    const log: Log = [];
    const started = deferred();
    const { tool, signals } = readTool("read", log, started, new Promise<void>(() => {}));
    const client = loggedClient(
      [
        {
          content: [toolUse("r1", "read", { path: "a" }), toolUse("s1", "submit_output", { answer: "x" })],
          pauseAfterBlock: { index: 0, until: started.promise },
        },
        { content: [toolUse("s2", "submit_output", { answer: "x" })] },
      ],
      log,
    );
    const agent = agentWith(client, [tool], { outputSchema: z.object({ answer: z.string() }) });
    const result = await agent.prompt("go");
    expect(result.subtype).toBe("success");
    expect(signals[0]?.aborted).toBe(true);
    const [readResult] = toolResults(await agent.getHistory());
    expect(readResult).toMatchObject({ tool_use_id: "r1", is_error: true });
    expect(JSON.stringify(readResult?.content)).not.toContain("contents of a");
  });

  it("the budget crossed by the response: the started call is cancelled and answered as not run", async () => {
    const log: Log = [];
    const started = deferred();
    const { tool, signals } = readTool("read", log, started, new Promise<void>(() => {}));
    const client = loggedClient(
      [heldResponse(started, { usage: { input_tokens: 1_000_000, output_tokens: 10 } })],
      log,
    );
    const agent = agentWith(client, [tool], { maxBudgetUsd: 0.01 });
    const result = await agent.prompt("go");
    expect(result.subtype).toBe("error_max_budget_usd");
    expect(signals[0]?.aborted).toBe(true);
    expect(JSON.stringify(toolResults(await agent.getHistory())[0]?.content)).toContain("maxBudgetUsd");
  });
});

describe("rules the batch keeps", () => {
  it("an early call whose result ends the turn ends the query with it", async () => {
    const log: Log = [];
    const ender = defineTool({
      name: "final",
      readOnly: true,
      inputSchema: z.object({}),
      execute: () => {
        log.push("start:final");
        return { content: "the final answer", endTurn: true };
      },
    });
    const client = loggedClient([{ content: [toolUse("f1", "final"), { type: "text", text: "tail" }] }], log);
    const result = await agentWith(client, [ender]).prompt("go");
    expect(result).toMatchObject({ subtype: "success", result: "the final answer" });
  });

  it("the fallback model's response runs its own calls; the failed model's started call is cancelled", async () => {
    const log: Log = [];
    const started = deferred();
    const { tool, signals } = readTool("read", log, started, new Promise<void>(() => {}));
    const quick = defineTool({
      name: "quick",
      readOnly: true,
      inputSchema: z.object({}),
      execute: () => "quick result",
    });
    const client = createScriptedClient((request) => {
      if (request.model === "primary") {
        return {
          content: [toolUse("r1", "read", { path: "a" }), { type: "text", text: "tail" }],
          pauseAfterBlock: { index: 0, until: started.promise },
          // the stream ends in an overloaded error once the call started
        } as never;
      }
      return request.messages.length > 1 ? { content: "done" } : { content: [toolUse("q1", "quick")] };
    });
    const failingPrimary: ModelClient = {
      async createMessage(request) {
        if (request.model !== "primary") return client.createMessage(request);
        await client.createMessage(request);
        throw Object.assign(new Error("overloaded"), { status: 529 });
      },
    };
    const agent = agentWith(failingPrimary, [tool, quick], {
      model: "primary",
      fallbackModel: "secondary",
      retry: { maxRetries: 0 },
    });
    const result = await agent.prompt("go");
    expect(result.subtype).toBe("success");
    expect(signals[0]?.aborted).toBe(true);
    expect(toolResults(await agent.getHistory()).map((block) => block.tool_use_id)).toEqual(["q1"]);
  });
});
