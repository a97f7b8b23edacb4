/**
 * What an abort does to the parts of a tool call around `execute`: an async validator that never
 * answers, `postToolUse` hooks, calls of a concurrent group not started yet, a `preToolUse` hook
 * abandoned mid-way; and what a consumer that stops on a tool-phase notice keeps.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent, defineTool, type SDKMessage, SUBMIT_OUTPUT_TOOL_NAME } from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import {
  expectWellFormed,
  MODEL,
  resultText,
  settle,
  toolResults,
  toolUse,
  trackTimers,
  within,
} from "./support";

describe("an abort during the tool phase", () => {
  it("ends a query whose async input validator never answers", async () => {
    const controller = new AbortController();
    const check = defineTool({
      name: "check",
      inputSchema: {
        jsonSchema: { type: "object" },
        parse: () => {
          queueMicrotask(() => controller.abort(new Error("stop"))); // once the check is under way
          return new Promise<unknown>(() => {}); // a remote lookup that never answers
        },
      },
      execute: () => "ran",
    });
    const agent = createAgent({
      model: MODEL,
      client: createScriptedClient([{ content: [toolUse("c1", "check")] }]),
      tools: [check],
    });

    const result = await within(agent.prompt("go", { signal: controller.signal }), 2_000);

    expect(result).toMatchObject({ subtype: "error_abort" });
    const [block] = toolResults(await agent.getHistory());
    expect(resultText(block!)).toBe('The tool "check" was cancelled because the query was aborted.');
  });

  it("while a tool runs, with a postToolUse hook: the call is cancelled, the hook not run, no hook_error", async () => {
    const controller = new AbortController();
    let postCalls = 0;
    const slow = defineTool({
      name: "slow",
      inputSchema: z.object({}),
      execute: () => {
        queueMicrotask(() => controller.abort(new Error("user pressed stop"))); // once the tool runs
        return new Promise<string>(() => {}); // ignores its signal
      },
    });
    const agent = createAgent({
      model: MODEL,
      client: createScriptedClient([{ content: [toolUse("s1", "slow")] }]),
      tools: [slow],
      hooks: { postToolUse: [{ handler: () => void postCalls++ }] },
    });
    const messages: SDKMessage[] = [];
    for await (const message of agent.query("go", { signal: controller.signal })) messages.push(message);

    expect(messages.at(-1)).toMatchObject({ type: "result", subtype: "error_abort" });
    expect(resultText(toolResults(await agent.getHistory())[0]!)).toBe(
      'The tool "slow" was cancelled because the query was aborted.',
    );
    expect(messages.filter((m) => m.type === "system" && m.subtype === "hook_error")).toEqual([]);
    expect(postCalls).toBe(0);
  });

  it("after a tool finished but before postToolUse checked it: the output is withheld", async () => {
    const controller = new AbortController();
    const secret = defineTool({
      name: "read_secret",
      inputSchema: z.object({}),
      execute: () => {
        controller.abort(new Error("stop"));
        return "password=hunter2";
      },
    });
    const agent = createAgent({
      model: MODEL,
      client: createScriptedClient([{ content: [toolUse("r1", "read_secret")] }]),
      tools: [secret],
      hooks: { postToolUse: [{ handler: () => ({ updatedOutput: "password=[redacted]" }) }] },
    });

    await agent.prompt("go", { signal: controller.signal });

    const [block] = toolResults(await agent.getHistory());
    expect(block?.is_error).toBe(true);
    expect(resultText(block!)).not.toContain("hunter2");
    expect(resultText(block!)).toContain("output was withheld");
  });

  it("calls of a concurrent group not started yet are not run, nor shown to preToolUse", async () => {
    const controller = new AbortController();
    const hooked: string[] = [];
    const read = defineTool({
      name: "read",
      readOnly: true,
      inputSchema: z.object({}),
      execute: async (_input, { toolUseId }) => {
        if (toolUseId === "r1") controller.abort(new Error("stop"));
        return "content";
      },
    });
    const agent = createAgent({
      model: MODEL,
      client: createScriptedClient([
        { content: [toolUse("r1", "read"), toolUse("r2", "read"), toolUse("r3", "read")] },
      ]),
      tools: [read],
      toolConcurrency: 1,
      hooks: { preToolUse: [{ handler: ({ toolUseId }) => void hooked.push(toolUseId) }] },
    });

    const result = await agent.prompt("go", { signal: controller.signal });

    expect(result.subtype).toBe("error_abort");
    expect(hooked).toEqual(["r1"]);
    const blocks = toolResults(await agent.getHistory());
    expect(blocks.map((block) => block.tool_use_id)).toEqual(["r1", "r2", "r3"]);
    for (const block of blocks.slice(1))
      expect(resultText(block)).toMatch(/was not run because the query was aborted/);
  });

  it("leaves no hook timer behind when it abandons a preToolUse hook", async () => {
    const controller = new AbortController();
    const tool = defineTool({ name: "t", inputSchema: z.object({}), execute: () => "ok" });
    const agent = createAgent({
      model: MODEL,
      client: createScriptedClient([{ content: [toolUse("t1", "t")] }]),
      tools: [tool],
      hooks: {
        preToolUse: [
          {
            handler: () => {
              queueMicrotask(() => controller.abort(new Error("stop"))); // once the hook runs
              return new Promise(() => {}); // waits on a human
            },
          },
        ],
      },
    });
    // Only the timers this query starts: a count of the whole process's timers saw other tests' too.
    const timers = trackTimers();

    try {
      const result = await agent.prompt("go", { signal: controller.signal });
      await settle();

      expect(result.subtype).toBe("error_abort");
      expect(timers.pending()).toEqual([]); // not the 60 s default hook timeout
    } finally {
      timers.stop();
    }
  });
});

describe("a consumer that stops on a tool-phase notice", () => {
  it("keeps the real results of the calls that ran (a hook_error)", async () => {
    const executed: string[] = [];
    const write = defineTool({
      name: "write_file",
      inputSchema: z.object({ path: z.string() }),
      execute: ({ path }) => {
        executed.push(path);
        return `wrote ${path}`;
      },
    });
    const agent = createAgent({
      model: MODEL,
      client: createScriptedClient([
        {
          content: [
            toolUse("w1", "write_file", { path: "a.txt" }),
            toolUse("w2", "write_file", { path: "b.txt" }),
          ],
        },
      ]),
      tools: [write],
      hooks: {
        preToolUse: [
          {
            handler: ({ input }) => {
              if ((input as { path: string }).path === "b.txt") throw new Error("audit log unavailable");
            },
          },
        ],
      },
    });

    for await (const message of agent.query("write both"))
      if (message.type === "system" && message.subtype === "hook_error") break;

    expect(executed).toEqual(["a.txt"]);
    const history = await agent.getHistory();
    expectWellFormed(history);
    expect(toolResults(history).map((block) => resultText(block))).toEqual([
      "wrote a.txt",
      expect.stringContaining("audit log unavailable"),
    ]);
  });
});

describe("an abort while submit_output is validated", () => {
  it("ends the query when the output schema's async check never answers", async () => {
    const controller = new AbortController();
    const agent = createAgent({
      model: MODEL,
      client: createScriptedClient([{ content: [toolUse("s1", SUBMIT_OUTPUT_TOOL_NAME, { n: 1 })] }]),
      outputSchema: {
        jsonSchema: { type: "object", properties: { n: { type: "number" } } },
        parse: () => {
          queueMicrotask(() => controller.abort(new Error("stop"))); // once the check is under way
          return new Promise<{ n: number }>(() => {});
        },
      },
    });

    const result = await within(agent.prompt("answer", { signal: controller.signal }), 2_000);

    expect(result).toMatchObject({ subtype: "error_abort" });
    const history = await agent.getHistory();
    expectWellFormed(history);
    expect(resultText(toolResults(history)[0]!)).toContain("not checked because the query was aborted");
  });
});

describe("an abort between a read-only group and the call after it", () => {
  it("stops the mutating call that was to run next: it gets a not-run result", async () => {
    const controller = new AbortController();
    const ran: string[] = [];
    const read = defineTool({
      name: "read",
      readOnly: true,
      inputSchema: z.object({}),
      execute: async () => {
        controller.abort(new Error("user cancelled"));
        ran.push("read");
        return "contents";
      },
    });
    const write = defineTool({
      name: "write",
      inputSchema: z.object({}),
      execute: () => {
        ran.push("write");
        return "written";
      },
    });
    const client = createScriptedClient([{ content: [toolUse("r1", "read"), toolUse("w1", "write")] }]);
    const agent = createAgent({ model: MODEL, client, tools: [read, write] });

    const result = await agent.prompt("go", { signal: controller.signal });

    expect(result.subtype).toBe("error_abort");
    expect(ran).toEqual(["read"]);
    const history = await agent.getHistory();
    expectWellFormed(history);
    const [, writeResult] = toolResults(history);
    expect(writeResult).toMatchObject({ tool_use_id: "w1", is_error: true });
    expect(resultText(writeResult!)).toContain("not run");
  });
});
