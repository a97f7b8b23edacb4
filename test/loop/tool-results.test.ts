/**
 * What a tool call turns into: failures become `is_error` tool_results the model can act on and
 * the loop goes on; `endTurn` ends the query after the whole batch is recorded.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent, defineTool, type ToolOutput } from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import {
  collect,
  type Deferred,
  deferred,
  expectWellFormed,
  lastResult,
  MODEL,
  resultText,
  toolResults,
  toolUse,
} from "./support";

const addTool = defineTool({
  name: "add",
  inputSchema: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => String(a + b),
});

const failingTool = defineTool({
  name: "explode",
  inputSchema: z.object({}),
  execute: () => {
    throw new RangeError("the fuse is too short");
  },
});

describe("failing calls become is_error results and the loop goes on", () => {
  it("input failing the schema names the field and asks for a fix; execute never runs", async () => {
    let executed = false;
    const tool = defineTool({
      name: "add",
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      execute: () => {
        executed = true;
        return "ran";
      },
    });
    const client = createScriptedClient([
      { content: [toolUse("t1", "add", { a: 1, b: "two" })] },
      { content: "I will fix it" },
    ]);
    const agent = createAgent({ model: MODEL, client, tools: [tool] });

    const result = await agent.prompt("add");

    const [block] = toolResults(await agent.getHistory());
    expect(block?.is_error).toBe(true);
    expect(resultText(block!)).toMatch(/Invalid input for tool "add"/);
    expect(resultText(block!)).toMatch(/- b: /);
    expect(resultText(block!)).toMatch(/Fix the input/);
    expect(executed).toBe(false);
    expect(result.subtype).toBe("success");
    expect(client.callCount).toBe(2);
    expect(client.requests[1]?.messages[2]).toEqual({ role: "user", content: [block] });
  });

  it("a thrown error carries its name and message, never a stack", async () => {
    const client = createScriptedClient([{ content: [toolUse("t1", "explode")] }, { content: "ok" }]);
    const agent = createAgent({ model: MODEL, client, tools: [failingTool] });

    const result = await agent.prompt("go");

    const [block] = toolResults(await agent.getHistory());
    expect(block).toEqual({
      type: "tool_result",
      tool_use_id: "t1",
      is_error: true,
      content: 'The tool "explode" failed: RangeError: the fuse is too short',
    });
    expect(result.subtype).toBe("success");
  });

  it("a rejected promise and a thrown non-Error are reported too", async () => {
    const rejecting = defineTool({
      name: "reject",
      inputSchema: z.object({}),
      execute: async () => Promise.reject(new Error("backend said no")),
    });
    const throwingString = defineTool({
      name: "throw_string",
      inputSchema: z.object({}),
      execute: () => {
        throw "plain string failure";
      },
    });
    const client = createScriptedClient([
      { content: [toolUse("t1", "reject"), toolUse("t2", "throw_string")] },
      { content: "ok" },
    ]);
    const agent = createAgent({ model: MODEL, client, tools: [rejecting, throwingString] });

    await agent.prompt("go");

    const blocks = toolResults(await agent.getHistory());
    expect(blocks.map((block) => block.is_error)).toEqual([true, true]);
    expect(resultText(blocks[0]!)).toContain("backend said no");
    expect(resultText(blocks[1]!)).toContain("plain string failure");
  });

  it("a thrown value that cannot even be described still becomes an error result, and the loop goes on", async () => {
    // Values whose description throws: a message getter that throws, an object without a
    // prototype (no toString), a throwing toString, a revoked proxy (instanceof throws on it).
    const hostile: Array<() => unknown> = [
      () =>
        Object.defineProperty(new Error("x"), "message", {
          get: () => {
            throw new Error("getter");
          },
        }),
      () =>
        Object.defineProperty(new TypeError("x"), "name", {
          get: () => {
            throw new Error("getter");
          },
        }),
      () => Object.create(null),
      () => ({
        toString: () => {
          throw new Error("toString");
        },
      }),
      () => {
        const { proxy, revoke } = Proxy.revocable({}, {});
        revoke();
        return proxy;
      },
    ];
    const tools = hostile.flatMap((make, index) => [
      defineTool({
        name: `sync_${index}`,
        inputSchema: z.object({}),
        execute: () => {
          throw make();
        },
      }),
      defineTool({
        name: `async_${index}`,
        inputSchema: z.object({}),
        execute: async () => {
          throw make();
        },
      }),
    ]);
    const calls = tools.map((tool, index) => toolUse(`t${index}`, tool.name));
    const client = createScriptedClient([{ content: calls }, { content: "ok" }]);
    const agent = createAgent({ model: MODEL, client, tools });

    const result = await agent.prompt("go");

    expect(result.subtype).toBe("success");
    const blocks = toolResults(await agent.getHistory());
    expect(blocks.map((block) => block.tool_use_id)).toEqual(calls.map((call) => call.id));
    for (const [index, block] of blocks.entries()) {
      expect(block.is_error).toBe(true);
      expect(resultText(block)).toMatch(new RegExp(`^The tool "${tools[index]!.name}" failed: `));
    }
    expectWellFormed(await agent.getHistory());
  });

  it("hooks and validators that throw an undescribable value fail like any other throw", async () => {
    const hostile = () => {
      throw Object.create(null); // no toString: String() of it throws
    };
    const plain = defineTool({ name: "plain", inputSchema: z.object({}), execute: () => "ran" });
    const parsed = defineTool({
      name: "parsed",
      inputSchema: { jsonSchema: { type: "object" }, parse: hostile },
      execute: () => "ran",
    });
    const hookSetups = [
      { hooks: { preToolUse: [{ handler: hostile }] } },
      { hooks: { postToolUse: [{ handler: hostile }] } },
      { hooks: { stop: [{ handler: hostile }] } },
      { hooks: { userPromptSubmit: [{ handler: hostile }] } },
    ];
    for (const setup of hookSetups) {
      const client = createScriptedClient([{ content: [toolUse("t1", "plain")] }, { content: "ok" }]);
      const agent = createAgent({ model: MODEL, client, tools: [plain], ...setup });
      const messages = await collect(agent.query("go"));
      const hookError = messages.find(
        (message) => message.type === "system" && message.subtype === "hook_error",
      );
      expect(hookError).toMatchObject({ error: { name: "HookFailure" } });
      expect(lastResult(messages).subtype).toMatch(/^(success|error_during_execution)$/);
      expectWellFormed(await agent.getHistory());
    }

    const client = createScriptedClient([{ content: [toolUse("t1", "parsed")] }, { content: "ok" }]);
    const agent = createAgent({ model: MODEL, client, tools: [parsed] });
    expect((await agent.prompt("go")).subtype).toBe("success");
    const [block] = toolResults(await agent.getHistory());
    expect(block?.is_error).toBe(true);
    expect(resultText(block!)).toMatch(/^Invalid input for tool "parsed":\n\[object Object\]/);
  });

  it("an unknown tool name lists the tools that exist", async () => {
    const client = createScriptedClient([
      { content: [toolUse("t1", "substract", { a: 1, b: 2 }), toolUse("t2", "add", { a: 1, b: 2 })] },
      { content: "ok" },
    ]);
    const agent = createAgent({ model: MODEL, client, tools: [addTool, failingTool] });

    const result = await agent.prompt("go");

    const blocks = toolResults(await agent.getHistory());
    expect(blocks[0]).toMatchObject({ tool_use_id: "t1", is_error: true });
    expect(resultText(blocks[0]!)).toBe('Unknown tool "substract". Available tools: add, explode.');
    expect(blocks[1]).toEqual({ type: "tool_result", tool_use_id: "t2", content: "3" });
    expect(result.subtype).toBe("success");
  });

  it("a tool returning isError marks its result as an error", async () => {
    const tool = defineTool({
      name: "check",
      inputSchema: z.object({}),
      execute: (): ToolOutput => ({ content: "file not found", isError: true }),
    });
    const client = createScriptedClient([{ content: [toolUse("t1", "check")] }, { content: "ok" }]);
    const agent = createAgent({ model: MODEL, client, tools: [tool] });

    await agent.prompt("go");

    expect(toolResults(await agent.getHistory())).toEqual([
      { type: "tool_result", tool_use_id: "t1", content: "file not found", is_error: true },
    ]);
  });

  it("content blocks returned by a tool reach history as they are", async () => {
    const tool = defineTool({
      name: "shot",
      inputSchema: z.object({}),
      execute: (): ToolOutput => ({
        content: [
          { type: "text", text: "a screenshot" },
          { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
        ],
      }),
    });
    const client = createScriptedClient([{ content: [toolUse("t1", "shot")] }, { content: "ok" }]);
    const agent = createAgent({ model: MODEL, client, tools: [tool] });

    await agent.prompt("go");

    const [block] = toolResults(await agent.getHistory());
    expect(block?.content).toHaveLength(2);
    expect(block?.is_error).toBeUndefined();
  });

  it("content that is neither text nor text and image blocks never enters history (the provider would refuse it)", async () => {
    const odd: unknown[] = [
      { content: 42 },
      { content: undefined },
      { content: null },
      { content: { text: "not a block" } },
      { content: ["loose", "strings"] },
      { content: [{ type: "text", text: 7 }] },
      { content: [{ type: "tool_use", id: "x", name: "y", input: {} }] },
      { content: [{ type: "image" }] },
    ];
    const tools = odd.map((output, index) =>
      defineTool({ name: `odd_${index}`, inputSchema: z.object({}), execute: async () => output as never }),
    );
    const calls = tools.map((tool, index) => toolUse(`t${index}`, tool.name));
    const client = createScriptedClient([{ content: calls }, { content: "ok" }]);
    const agent = createAgent({ model: MODEL, client, tools });

    const result = await agent.prompt("go");

    expect(result.subtype).toBe("success");
    const blocks = toolResults(await agent.getHistory());
    expect(blocks).toHaveLength(odd.length);
    for (const block of blocks) {
      expect(block.is_error).toBe(true);
      expect(block.content).toMatch(
        /^The tool returned content that is neither a string nor an array of text and image blocks/,
      );
    }
  });

  it("an output that throws when read (a then or content getter, a revoked proxy) is an error result", async () => {
    const revoked = () => {
      const { proxy, revoke } = Proxy.revocable({}, {});
      revoke();
      return proxy;
    };
    const unreadable: Array<() => unknown> = [
      () => ({
        // biome-ignore lint/suspicious/noThenProperty: an output whose then getter throws
        get then() {
          throw new Error("then getter");
        },
      }),
      () => ({
        get content() {
          throw new Error("content getter");
        },
      }),
      revoked,
    ];
    const tools = unreadable.flatMap((make, index) => [
      defineTool({ name: `sync_${index}`, inputSchema: z.object({}), execute: () => make() as never }),
      defineTool({
        name: `async_${index}`,
        inputSchema: z.object({}),
        execute: async () => make() as never,
      }),
    ]);
    const calls = tools.map((tool, index) => toolUse(`t${index}`, tool.name));
    const client = createScriptedClient([{ content: calls }, { content: "ok" }]);
    const agent = createAgent({ model: MODEL, client, tools });

    const result = await agent.prompt("go");

    expect(result.subtype).toBe("success");
    const blocks = toolResults(await agent.getHistory());
    expect(blocks.map((block) => block.tool_use_id)).toEqual(calls.map((call) => call.id));
    expectWellFormed(await agent.getHistory());
  });

  it("a postToolUse hook replacing the output with odd content fails as that hook: an error result, nothing odd recorded", async () => {
    const tool = defineTool({ name: "plain", inputSchema: z.object({}), execute: () => "fine" });
    const client = createScriptedClient([{ content: [toolUse("t1", "plain")] }, { content: "ok" }]);
    const hooks = { postToolUse: [{ handler: () => ({ updatedOutput: { content: 404 } as never }) }] };
    const agent = createAgent({ model: MODEL, client, tools: [tool], hooks });

    await agent.prompt("go");

    const [block] = toolResults(await agent.getHistory());
    expect(block?.is_error).toBe(true);
    expect(block?.content).toMatch(
      /^postToolUse hook #1 failed: updatedOutput content must be a string or an array of text and image blocks\. The tool did run/,
    );
  });

  it("an output JSON cannot serialise (circular, BigInt) is an error result, synchronous or not", async () => {
    const circular: Record<string, unknown> = { status: 200 };
    circular.self = circular; // e.g. an HTTP response object returned as it is
    const tools = [
      defineTool({ name: "fetch_it", inputSchema: z.object({}), execute: () => circular as never }),
      defineTool({ name: "count", inputSchema: z.object({}), execute: async () => 10n as never }),
      defineTool({ name: "plain", inputSchema: z.object({}), execute: () => ({ rows: 2 }) as never }),
    ];
    const client = createScriptedClient([
      { content: [toolUse("t1", "fetch_it"), toolUse("t2", "count"), toolUse("t3", "plain")] },
      { content: "ok" },
    ]);
    const agent = createAgent({ model: MODEL, client, tools });

    const result = await agent.prompt("go");

    expect(result.subtype).toBe("success");
    const blocks = toolResults(await agent.getHistory());
    expect(blocks.map((block) => block.is_error)).toEqual([true, true, undefined]);
    expect(resultText(blocks[0]!)).toMatch(
      /^The tool returned a value that cannot be serialised as JSON \(.*circular/,
    );
    expect(resultText(blocks[1]!)).toContain("BigInt");
    expect(blocks[2]!.content).toBe('{"rows":2}');
  });
});

describe("endTurn", () => {
  /** A read-only tool ending the turn; it finishes only after `after` resolves. */
  function ender(name: string, log: string[], after: Promise<void>, finished: Deferred) {
    return defineTool({
      name,
      inputSchema: z.object({}),
      readOnly: true,
      execute: async (): Promise<ToolOutput> => {
        await after;
        log.push(name);
        finished.resolve();
        return { content: `final answer from ${name}`, endTurn: true };
      },
    });
  }

  it("records every result of the batch, makes no further request and ends success", async () => {
    const log: string[] = [];
    const fastDone = deferred();
    const slowDone = deferred();
    const plain = defineTool({
      name: "plain",
      inputSchema: z.object({}),
      readOnly: true,
      execute: () => {
        log.push("plain");
        return "plain result";
      },
    });
    // Only one response is scripted: a further request would fail the query loudly.
    const client = createScriptedClient([
      {
        content: [
          { type: "text", text: "Finishing." },
          toolUse("t1", "plain"),
          toolUse("t2", "slow_ender"),
          toolUse("t3", "fast_ender"),
        ],
      },
    ]);
    const agent = createAgent({
      model: MODEL,
      client,
      tools: [
        plain,
        ender("slow_ender", log, fastDone.promise, slowDone),
        ender("fast_ender", log, Promise.resolve(), fastDone),
      ],
    });

    const messages = await collect(agent.query("go"));
    const result = lastResult(messages);

    expect(log).toEqual(["plain", "fast_ender", "slow_ender"]);
    expect(client.callCount).toBe(1);
    expect(result.subtype).toBe("success");
    expect(result.is_error).toBe(false);
    expect(result.result).toBe("final answer from slow_ender");
    expect(result.num_turns).toBe(1);
    const history = await agent.getHistory();
    expectWellFormed(history);
    expect(toolResults(history).map((block) => block.tool_use_id)).toEqual(["t1", "t2", "t3"]);
    expect(messages[messages.length - 2]).toMatchObject({ type: "user" });
  });

  it("an endTurn result with content blocks gives their text as the result", async () => {
    const tool = defineTool({
      name: "finish",
      inputSchema: z.object({}),
      execute: (): ToolOutput => ({ content: [{ type: "text", text: "all done" }], endTurn: true }),
    });
    const client = createScriptedClient([{ content: [toolUse("t1", "finish")] }]);
    const agent = createAgent({ model: MODEL, client, tools: [tool] });

    expect((await agent.prompt("go")).result).toBe("all done");
  });
});

describe("secrets in the error text a tool or a hook puts in a result", () => {
  it("the agent's API key in a thrown error or a failed preToolUse hook never reaches history", async () => {
    const apiKey = "agent-key-0123456789abcdef";
    const leaky = defineTool({
      name: "leaky",
      readOnly: true,
      inputSchema: z.object({}),
      execute: () => {
        throw new Error(`upstream refused x-api-key=${apiKey}`);
      },
    });
    const guarded = defineTool({
      name: "guarded",
      readOnly: true,
      inputSchema: z.object({}),
      execute: () => "ok",
    });
    const client = createScriptedClient([
      { content: [toolUse("t1", "leaky"), toolUse("t2", "guarded")] },
      { content: "done" },
    ]);
    const agent = createAgent({
      model: MODEL,
      client,
      apiKey,
      tools: [leaky, guarded],
      hooks: {
        preToolUse: [
          {
            matcher: "guarded",
            handler: () => {
              throw new Error(`moderation call failed with key ${apiKey}`);
            },
          },
        ],
      },
    });

    await agent.prompt("go");

    const history = JSON.stringify(await agent.getHistory());
    expect(history).toContain("upstream refused");
    expect(history).toContain("moderation call failed");
    expect(history).not.toContain(apiKey);
    expect(JSON.stringify(client.requests.at(-1)?.messages)).not.toContain(apiKey);
  });
});

describe("a tool's input is its own", () => {
  it("a tool editing its input (a validator that hands back the model's object) leaves the tool_use in history unchanged", async () => {
    const seen: unknown[] = [];
    const bare = defineTool({
      name: "bare",
      inputSchema: { parse: (input: unknown) => input as { items: string[] } },
      jsonSchema: { type: "object" },
      execute: (input) => {
        input.items.push("added by the tool");
        seen.push(input);
        return "ok";
      },
    });
    const loose = defineTool({
      name: "loose",
      inputSchema: z.object({ nested: z.any() }),
      execute: (input) => {
        input.nested.changed = true;
        return "ok";
      },
    });
    const client = createScriptedClient([
      { content: [toolUse("t1", "bare", { items: ["a"] }), toolUse("t2", "loose", { nested: { n: 1 } })] },
      { content: "done" },
    ]);
    const agent = createAgent({ model: MODEL, client, tools: [bare, loose] });

    await agent.prompt("go");

    expect(seen).toEqual([{ items: ["a", "added by the tool"] }]);
    const [, assistant] = await agent.getHistory();
    expect(assistant?.content).toEqual([
      { type: "tool_use", id: "t1", name: "bare", input: { items: ["a"] } },
      { type: "tool_use", id: "t2", name: "loose", input: { nested: { n: 1 } } },
    ]);
    // …and so does the next request the model sees.
    expect(client.requests[1]?.messages[1]?.content).toEqual(assistant?.content);
  });
});
