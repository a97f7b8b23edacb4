/**
 * Streaming tool execution through the built-in client against the mock Messages API server, over
 * real HTTP: a read-only call starts while the server still holds the stream open after its block;
 * a connection dropped after the block is retried with the started call cancelled; an abort while
 * the stream is held cancels the call; a JSON (non-streaming) response starts nothing early.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent, createAnthropicClient, defineTool } from "../../src/index";
import { buildMessageBody, buildStreamEvents } from "../../src/testing/mock-server-response";
import { mockServerPerTest } from "../support/mock-server";
import { type Deferred, deferred, expectWellFormed, MODEL, toolResults, toolUse } from "./support";

const API_KEY = "sk-ant-test-0123456789-secret";

/** A read-only tool: `hang` paths wait for their signal; others answer at once. */
function readTool(started: Deferred, log: string[]) {
  const signals: AbortSignal[] = [];
  const tool = defineTool({
    name: "read",
    readOnly: true,
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }, { signal }) => {
      log.push(`start:${path}`);
      signals.push(signal);
      started.resolve();
      if (path === "hang") await new Promise((_, reject) => signal.addEventListener("abort", reject));
      return `contents of ${path}`;
    },
  });
  return { tool, signals };
}

describe("streaming tool execution over HTTP", () => {
  const server = mockServerPerTest();
  const client = (stream = true) => createAnthropicClient({ apiKey: API_KEY, baseURL: server.url, stream });

  it("starts the call while the server holds the rest of the response", async () => {
    const started = deferred();
    const log: string[] = [];
    const { tool } = readTool(started, log);
    server.enqueue(
      {
        content: [toolUse("r1", "read", { path: "a" }), { type: "text", text: "Half a second of prose." }],
        // Held until the tool started: without streaming execution this never resolves.
        pauseAfterBlock: { index: 0, until: started.promise.then(() => log.push("released")) },
      },
      { content: "done" },
    );
    const agent = createAgent({ model: MODEL, client: client(), tools: [tool] });
    const result = await agent.prompt("go");
    expect(result.subtype).toBe("success");
    expect(log.slice(0, 2)).toEqual(["start:a", "released"]);
    expect(toolResults(await agent.getHistory())[0]).toMatchObject({ content: "contents of a" });
  });

  it("a JSON response starts nothing early and runs its calls as before", async () => {
    const started = deferred();
    const log: string[] = [];
    const { tool } = readTool(started, log);
    server.enqueue({ content: [toolUse("r1", "read", { path: "a" })] }, { content: "done" });
    const agent = createAgent({ model: MODEL, client: client(false), tools: [tool] });
    expect((await agent.prompt("go")).subtype).toBe("success");
    expect(log).toEqual(["start:a"]);
  });

  it("a connection dropped after the block: the started call is cancelled, the retried response runs", async () => {
    const started = deferred();
    const log: string[] = [];
    const { tool, signals } = readTool(started, log);
    const content = [toolUse("r1", "read", { path: "hang" }), { type: "text" as const, text: "tail" }];
    server.enqueue(
      {
        fault: "drop",
        afterEvents: framesThroughFirstBlock(content),
        // Held after the block until the call started, then dropped.
        response: { content, pauseAfterBlock: { index: 0, until: started.promise } },
      },
      { content: [toolUse("r2", "read", { path: "b" })] },
      { content: "done" },
    );
    const agent = createAgent({
      model: MODEL,
      client: client(),
      tools: [tool],
      retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 1 },
    });
    const result = await agent.prompt("go");
    expect(result.subtype).toBe("success");
    expect(log).toEqual(["start:hang", "start:b"]);
    expect(signals[0]?.aborted).toBe(true);
    const history = await agent.getHistory();
    expect(toolResults(history).map((block) => block.tool_use_id)).toEqual(["r2"]);
    expectWellFormed(history);
  });

  it("an abort while the stream is held cancels the started call; history keeps the prompt only", async () => {
    const started = deferred();
    const log: string[] = [];
    const { tool, signals } = readTool(started, log);
    server.enqueue({
      content: [toolUse("r1", "read", { path: "hang" }), { type: "text", text: "tail" }],
      pauseAfterBlock: { index: 0, until: new Promise(() => {}) },
    });
    const agent = createAgent({ model: MODEL, client: client(), tools: [tool] });
    const controller = new AbortController();
    const pending = agent.prompt("go", { signal: controller.signal });
    await started.promise;
    controller.abort();
    expect((await pending).subtype).toBe("error_abort");
    expect(signals[0]?.aborted).toBe(true);
    expect(await agent.getHistory()).toEqual([{ role: "user", content: "go" }]);
  });
});

/** How many frames the mock writes up to the first block's content_block_stop, inclusive. */
function framesThroughFirstBlock(content: Parameters<typeof buildMessageBody>[0]["content"]): number {
  const body = buildMessageBody({
    content,
    stopReason: undefined,
    usage: undefined,
    id: "m",
    model: MODEL,
    requestChars: 0,
  });
  const frames = buildStreamEvents(body);
  return frames.findIndex((frame) => frame.event === "content_block_stop") + 1;
}
